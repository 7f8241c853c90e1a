// @ts-check
/**
 * Types of the code that runs inside the sandbox (`src/sandbox/guest/`): the built-ins the host captures in
 * every context before the program runs, and the settings a run's guest code reads. JSDoc only: nothing of this
 * file reaches a bundle.
 */

/**
 * Built-ins of the run's own context, captured by the host before the program ran (`guest-intrinsics.ts`). Guest
 * code compiled later (on first use, after the program may have replaced `String` or `Object.keys`) uses these,
 * never the globals, so a program cannot change what the codec measures or produces.
 *
 * @typedef {object} Intrinsics
 * @property {StringConstructor} String
 * @property {DateConstructor} Date the real `Date` (a deterministic environment replaces the global one)
 * @property {MapConstructor} Map
 * @property {SetConstructor} Set
 * @property {Uint8ArrayConstructor} Uint8Array
 * @property {ArrayBufferConstructor} ArrayBuffer
 * @property {TypeErrorConstructor} TypeError
 * @property {ErrorConstructor} Error
 * @property {BigIntConstructor} BigInt
 * @property {Math} Math the real `Math` object
 * @property {typeof Symbol.iterator} iterator
 * @property {ObjectConstructor["keys"]} keys
 * @property {ObjectConstructor["getPrototypeOf"]} getPrototypeOf
 * @property {ObjectConstructor["defineProperty"]} defineProperty
 * @property {ObjectConstructor["getOwnPropertyDescriptor"]} getOwnPropertyDescriptor
 * @property {ObjectConstructor["freeze"]} freeze
 * @property {(this: unknown, key: PropertyKey) => boolean} hasOwnProperty `Object.prototype.hasOwnProperty`
 * @property {object} objectPrototype `Object.prototype`
 * @property {ArrayConstructor["isArray"]} isArray
 * @property {JSON["stringify"]} stringify
 * @property {JSON["parse"]} parse
 * @property {typeof Reflect.construct} construct
 * @property {DateConstructor["now"]} now the real clock (for batching console lines; never shown to the program)
 */

/**
 * Settings of one run that guest code reads.
 *
 * @typedef {object} GuestConfig
 * @property {number} maxLogChars characters of console output the run may write
 * @property {number} [epochMs] the instant `Date` is frozen at (deterministic environment only)
 * @property {string} [randomSeed] the seed of `Math.random` (deterministic environment only)
 */

/**
 * Hands console lines to the host: a JSON array of lines, and whether the log budget is now spent.
 *
 * @typedef {(batch: string, closed: boolean) => void} HostLog
 */

export {};
