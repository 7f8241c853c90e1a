// @ts-check
/**
 * The deterministic environment of a run: `Date` frozen at one instant and `Math.random` seeded (xmur3 hash of the
 * seed feeding sfc32), so a replayed pass sees the values the first pass saw. Installed on the program's first read
 * (or write) of `Date` or `Math.random`, or before the first value with a tag crosses into the sandbox (a decoded
 * `Date` must already see the frozen constructor): a program that never reads the clock compiles none of it.
 *
 * It runs after the program may have replaced globals and prototype methods, so it defines every property with
 * the captured `Object.defineProperty` and descriptors without a prototype, and builds dates with the captured
 * `Reflect.construct` (spreading `arguments` would call an iterator the program can replace, and could reach the
 * real clock). What a program changes before that only changes its own, deterministic, view.
 */

/** @import { GuestConfig, Intrinsics } from "./guest-types.js" */

/**
 * A data property as the built-ins have them: writable, configurable, not enumerable.
 *
 * @param {unknown} value
 * @returns {PropertyDescriptor}
 */
function builtIn(value) {
  return /** @type {PropertyDescriptor} */ ({ __proto__: null, value, writable: true, configurable: true });
}

/**
 * Replaces the global `Date` and `Math.random` of the run.
 *
 * @param {Intrinsics} intrinsics
 * @param {GuestConfig} config holds `epochMs` and `randomSeed`
 * @param {typeof globalThis} global the run's global object
 */
export function installEnvironment(intrinsics, config, global) {
  const { Date: RealDate, Math: RealMath, construct, defineProperty } = intrinsics;
  const epoch = /** @type {number} */ (config.epochMs);
  const seed = /** @type {string} */ (config.randomSeed);
  const dateString = RealDate.prototype.toString;

  /**
   * `Date` frozen at `epoch`: `new Date()` and `Date.now()` give it, `Date()` its string; other arguments build
   * an ordinary date.
   *
   * @param {...unknown} values
   * @returns {Date | string}
   */
  function FrozenDate(...values) {
    if (new.target === undefined) return dateString.call(construct(RealDate, [epoch]));
    return construct(RealDate, values.length === 0 ? [epoch] : values, new.target);
  }
  defineProperty(FrozenDate, "name", /** @type {PropertyDescriptor} */ ({ __proto__: null, value: "Date" }));
  defineProperty(
    FrozenDate,
    "prototype",
    /** @type {PropertyDescriptor} */ ({ __proto__: null, value: RealDate.prototype }),
  );
  defineProperty(
    FrozenDate,
    "now",
    builtIn(function now() {
      return epoch;
    }),
  );
  defineProperty(FrozenDate, "parse", builtIn(RealDate.parse));
  defineProperty(FrozenDate, "UTC", builtIn(RealDate.UTC));
  defineProperty(RealDate.prototype, "constructor", builtIn(FrozenDate));
  defineProperty(global, "Date", builtIn(FrozenDate));

  const imul = RealMath.imul;
  let hash = 1779033703 ^ seed.length;
  for (let index = 0; index < seed.length; index++) {
    hash = imul(hash ^ seed.charCodeAt(index), 3432918353);
    hash = (hash << 13) | (hash >>> 19);
  }
  const next = () => {
    hash = imul(hash ^ (hash >>> 16), 2246822507);
    hash = imul(hash ^ (hash >>> 13), 3266489909);
    hash ^= hash >>> 16;
    return hash >>> 0;
  };
  let a = next();
  let b = next();
  let c = next();
  let d = next();
  defineProperty(
    RealMath,
    "random",
    builtIn(function random() {
      a >>>= 0;
      b >>>= 0;
      c >>>= 0;
      d >>>= 0;
      let t = (a + b) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      d = (d + 1) | 0;
      t = (t + d) | 0;
      c = (c + t) | 0;
      return (t >>> 0) / 4294967296;
    }),
  );
}
