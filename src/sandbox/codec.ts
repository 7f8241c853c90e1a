/**
 * The value codec: how values cross the sandbox boundary and how the journal stores them.
 *
 * Format (an `EncodedValue`, a JSON-safe tagged tree):
 * - `string`, `boolean`, `null` and finite numbers other than `-0` are themselves.
 * - Arrays are arrays of encoded values (holes become `undefined`).
 * - Plain objects (prototype `Object.prototype` or `null`) are objects of encoded values,
 *   unless they have an own key `"$"`: those are escaped as `{ "$": "object", "v": {...} }`.
 * - Every other supported value is a tag object `{ "$": TAG, "v"?: payload }`:
 *   `undefined` → `{ $: "undefined" }`; `NaN`, `Infinity`, `-Infinity`, `-0` →
 *   `{ $: "number", v: "NaN" | "Infinity" | "-Infinity" | "-0" }`; `BigInt` →
 *   `{ $: "bigint", v: "123" }`; `Date` → `{ $: "date", v: msSinceEpoch | null }` (null: invalid date);
 *   `Uint8Array` → `{ $: "bytes", v: base64 }`; `ArrayBuffer` → `{ $: "arraybuffer", v: base64 }`;
 *   `Map` → `{ $: "map", v: [[key, value], ...] }`; `Set` → `{ $: "set", v: [value, ...] }`.
 * - Nesting is bounded at 500 levels (deeper values are a `CodecError`, never a host stack overflow).
 * - Anything else (functions, symbols, class instances, other typed arrays, cycles) is a
 *   `CodecError` whose message names the path, e.g. `args.user.callback: functions cannot cross
 *   the sandbox boundary`.
 *
 * The rules are written once, in `guest/value-codec.js`: this module and the codec inside the sandbox
 * (`guest/sandbox-codec.js`) are both made from them. `validateEncodedValue` (in `codec-validation.ts`) checks an
 * untrusted tree; `decodeValue` runs it.
 */
import { CodecError } from "../errors/codec-error.js";
import { validateEncodedValue, type EncodedValue } from "./codec-validation.js";
import { createValueCodec } from "./guest/value-codec.js";
import { messageOf, UNREADABLE_MESSAGE } from "../shared/message-of.js";

export type { EncodedValue } from "./codec-validation.js";
export { validateEncodedValue } from "./codec-validation.js";
export { CodecError } from "../errors/codec-error.js";

/** Options for {@link encodeValue}. */
export interface EncodeOptions {
  /** Name of the root in error paths. @default "value" */
  path?: string;
  /**
   * Stop encoding, with a {@link CodecError} whose `overLimit` is set, once the encoded text is
   * certain to pass this many characters (a lower bound is counted as the tree is built).
   */
  maxChars?: number;
}

/** The errors the codec raised itself; anything else thrown while encoding came from the value. */
const refusals = new WeakSet<object>();

/**
 * The rules, one source for both sides (`guest/value-codec.js`), over the host's own built-ins: `Buffer` for base64
 * and {@link CodecError} for what cannot cross.
 */
const hostCodec = createValueCodec(
  {
    String,
    Date,
    Map,
    Set,
    Uint8Array,
    ArrayBuffer,
    BigInt,
    keys: Object.keys,
    getPrototypeOf: Object.getPrototypeOf,
    defineProperty: Object.defineProperty,
    hasOwnProperty: Object.prototype.hasOwnProperty,
    objectPrototype: Object.prototype,
    isArray: Array.isArray,
    stringify: JSON.stringify,
  },
  {
    toBase64: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    fromBase64: (text) => new Uint8Array(Buffer.from(text, "base64")),
    fail: (path, message, overLimit) => {
      const error = new CodecError({ path, message, overLimit });
      refusals.add(error);
      return error;
    },
  },
);

/**
 * Encodes with the host codec. A getter or a proxy trap of the value that throws (anything, even a proxy that
 * throws on every trap) becomes a {@link CodecError}: the thrown value is read only through `messageOf`.
 */
function encodeHost(value: unknown, path: string, maxChars: number): { tree: EncodedValue; tagged: boolean } {
  try {
    return hostCodec.encode(value, path, maxChars);
  } catch (error) {
    if (typeof error === "object" && error !== null && refusals.has(error)) throw error;
    const thrown = messageOf(error);
    const told = thrown === UNREADABLE_MESSAGE ? "" : `: ${thrown}`;
    throw new CodecError({ path, message: `could not be read (a getter or a proxy in it threw${told})` });
  }
}

/**
 * Encodes a value as a JSON-safe tagged tree. Throws {@link CodecError} naming the path for a
 * value that cannot cross (functions, symbols, class instances, cycles).
 *
 * @example encodeValue(new Map([["a", 1n]])) // { $: "map", v: [["a", { $: "bigint", v: "1" }]] }
 */
export function encodeValue(value: unknown, { path = "value", maxChars = Infinity }: EncodeOptions = {}): EncodedValue {
  return encodeHost(value, path, maxChars).tree;
}

/**
 * Decodes a tagged tree made by {@link encodeValue} (or by the sandbox). The tree is validated
 * first: a malformed tree throws {@link CodecError} naming the path.
 */
export function decodeValue(encoded: unknown, { path = "value" }: EncodeOptions = {}): unknown {
  const problem = validateEncodedValue(encoded, path);
  if (problem !== undefined) throw new CodecError({ path: problem.path, message: problem.message });
  return hostCodec.decode(encoded);
}

/** Encodes a value into the string form stored in the journal. Throws {@link CodecError}. */
export function serializeValue(value: unknown, options: EncodeOptions = {}): string {
  return JSON.stringify(encodeValue(value, options));
}

/**
 * {@link serializeValue}, also telling whether the tree holds any tag (when it does not, the text is
 * plain JSON of the value and a reader may skip decoding).
 */
export function serializeValueTagged(
  value: unknown,
  { path = "value", maxChars = Infinity }: EncodeOptions = {},
): { text: string; tagged: boolean } {
  const { tree, tagged } = encodeHost(value, path, maxChars);
  return { text: JSON.stringify(tree), tagged };
}

/** Reads the string form made by {@link serializeValue}. Throws {@link CodecError} for bad input. */
export function deserializeValue(text: string, options: EncodeOptions = {}): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CodecError({ path: options.path ?? "value", message: "not valid JSON", cause: error });
  }
  return decodeValue(parsed, options);
}

function canonicalTree(encoded: EncodedValue): unknown {
  if (encoded === null || typeof encoded !== "object") return encoded;
  if (Array.isArray(encoded)) return encoded.map(canonicalTree);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(encoded).sort()) {
    Object.defineProperty(out, key, {
      value: canonicalTree((encoded as Record<string, EncodedValue>)[key] as EncodedValue),
      enumerable: true,
    });
  }
  return out;
}

/**
 * A canonical string for comparing values (object keys sorted at every level; Map and Set keep
 * insertion order). Two values with equal canonical strings are the same argument on replay.
 * Throws {@link CodecError} for values that cannot be encoded.
 */
export function canonicalizeValue(value: unknown, options: EncodeOptions = {}): string {
  return JSON.stringify(canonicalTree(encodeValue(value, options)));
}
