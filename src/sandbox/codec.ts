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
 * The same format is produced and read inside the sandbox by the prelude (`sandbox-prelude.ts`).
 * `validateEncodedValue` (in `codec-validation.ts`) checks an untrusted tree; `decodeValue` runs it.
 */
import { CodecError } from "../errors/codec-error.js";
import { memberPath, shortPath, validateEncodedValue, type EncodedValue } from "./codec-validation.js";

export type { EncodedValue, EncodedTag } from "./codec-validation.js";
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

/** Largest BigInt that encodes: below 2^13288 (about 4,000 digits); decimal parsing is quadratic. */
export const MAX_BIGINT_BITS = 13_288n;

const BOUNDARY = "cannot cross the sandbox boundary";
/** Nesting bound, so encoding a hostile value cannot overflow the host stack. Matches the validator's. */
const MAX_ENCODE_DEPTH = 500;

function describeUnsupported(value: unknown): string {
  if (typeof value === "function") return `functions ${BOUNDARY}`;
  if (typeof value === "symbol") return `symbols ${BOUNDARY}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const label = typeof name === "string" && name !== "" ? `${name} instances` : "objects with a custom prototype";
  return `${label} ${BOUNDARY} (supported: JSON values, undefined, Date, Uint8Array, ArrayBuffer, Map, Set, BigInt)`;
}

function encodeNumber(value: number): EncodedValue {
  if (Number.isNaN(value)) return { $: "number", v: "NaN" };
  if (value === Infinity) return { $: "number", v: "Infinity" };
  if (value === -Infinity) return { $: "number", v: "-Infinity" };
  if (Object.is(value, -0)) return { $: "number", v: "-0" };
  return value;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Set when an encoding produced any tag (read by {@link serializeValueTagged}). */
let producedTag = false;
/** Characters the current encoding may still produce (a lower bound is subtracted as it goes). */
let charsLeft = Infinity;
let charsMax = Infinity;

function spend(chars: number, path: string): void {
  charsLeft -= chars;
  if (charsLeft < 0) {
    throw new CodecError({
      path: "value",
      overLimit: true,
      message: `over ${charsMax.toLocaleString("en-US")} characters once encoded (stopped at ${shortPath(path)})`,
    });
  }
}

function encodeInner(value: unknown, path: string, seen: Set<object>): EncodedValue {
  switch (typeof value) {
    case "string":
      spend(value.length + 3, path);
      return value;
    case "boolean":
      spend(5, path);
      return value;
    case "number": {
      const encoded = encodeNumber(value);
      if (typeof encoded !== "number") producedTag = true;
      return encoded;
    }
    case "bigint":
      producedTag = true;
      if ((value < 0n ? -value : value) >> MAX_BIGINT_BITS !== 0n) {
        throw new CodecError({
          path,
          message: `BigInt values over about 4,000 digits ${BOUNDARY} (send them as strings)`,
        });
      }
      spend(20, path);
      return { $: "bigint", v: value.toString() };
    case "undefined":
      producedTag = true;
      return { $: "undefined" };
    case "function":
    case "symbol":
      throw new CodecError({ path, message: describeUnsupported(value) });
  }
  spend(2, path);
  if (value === null) return null;
  const object = value as object;
  if (seen.size >= MAX_ENCODE_DEPTH)
    throw new CodecError({
      path: shortPath(path),
      message: `values nested deeper than ${MAX_ENCODE_DEPTH} levels ${BOUNDARY}`,
    });
  if (seen.has(object)) throw new CodecError({ path, message: `cycles ${BOUNDARY} (the value refers to itself)` });
  seen.add(object);
  try {
    const encoded = encodeObject(object, path, seen);
    if (
      encoded !== null &&
      typeof encoded === "object" &&
      !Array.isArray(encoded) &&
      typeof (encoded as { $?: unknown }).$ === "string"
    ) {
      producedTag = true;
    }
    return encoded;
  } finally {
    seen.delete(object);
  }
}

function encodeObject(object: object, path: string, seen: Set<object>): EncodedValue {
  if (Array.isArray(object)) {
    const out: EncodedValue[] = [];
    for (let index = 0; index < object.length; index++) out.push(encodeInner(object[index], `${path}[${index}]`, seen));
    return out;
  }
  if (object instanceof Date) {
    const time = object.getTime();
    return { $: "date", v: Number.isNaN(time) ? null : time };
  }
  if (object instanceof Uint8Array) {
    spend(Math.ceil(object.byteLength / 3) * 4, path);
    return { $: "bytes", v: Buffer.from(object.buffer, object.byteOffset, object.byteLength).toString("base64") };
  }
  if (object instanceof ArrayBuffer) {
    spend(Math.ceil(object.byteLength / 3) * 4, path);
    return { $: "arraybuffer", v: Buffer.from(object).toString("base64") };
  }
  if (object instanceof Map) {
    const entries: EncodedValue[] = [];
    let index = 0;
    for (const [key, entry] of object) {
      entries.push([
        encodeInner(key, `${path}.<key ${index}>`, seen),
        encodeInner(entry, `${path}.<value ${index}>`, seen),
      ]);
      index++;
    }
    return { $: "map", v: entries };
  }
  if (object instanceof Set) {
    const items: EncodedValue[] = [];
    let index = 0;
    for (const item of object) items.push(encodeInner(item, `${path}.<item ${index++}>`, seen));
    return { $: "set", v: items };
  }
  if (!isPlainObject(object)) throw new CodecError({ path, message: describeUnsupported(object) });
  const out: Record<string, EncodedValue> = {};
  for (const key of Object.keys(object)) {
    spend(key.length + 3, path);
    const encoded = encodeInner((object as Record<string, unknown>)[key], memberPath(path, key), seen);
    Object.defineProperty(out, key, { value: encoded, enumerable: true, writable: true, configurable: true });
  }
  return Object.hasOwn(out, "$") ? { $: "object", v: out } : out;
}

/**
 * Encodes a value as a JSON-safe tagged tree. Throws {@link CodecError} naming the path for a
 * value that cannot cross (functions, symbols, class instances, cycles).
 *
 * @example encodeValue(new Map([["a", 1n]])) // { $: "map", v: [["a", { $: "bigint", v: "1" }]] }
 */
export function encodeValue(value: unknown, { path = "value", maxChars = Infinity }: EncodeOptions = {}): EncodedValue {
  // Saved and restored: a getter of the value may encode another value meanwhile.
  const [outerLeft, outerMax] = [charsLeft, charsMax];
  charsLeft = charsMax = maxChars;
  try {
    return encodeInner(value, path, new Set());
  } finally {
    [charsLeft, charsMax] = [outerLeft, outerMax];
  }
}

function decodeTrusted(encoded: EncodedValue): unknown {
  if (encoded === null || typeof encoded !== "object") return encoded;
  if (Array.isArray(encoded)) return encoded.map(decodeTrusted);
  const tag = (encoded as { $?: unknown }).$;
  if (tag === undefined) return decodeObject(encoded as Record<string, EncodedValue>);
  const payload = (encoded as { v?: unknown }).v;
  switch (tag) {
    case "undefined":
      return undefined;
    case "number":
      return payload === "-0" ? -0 : Number(payload);
    case "bigint":
      return BigInt(payload as string);
    case "date":
      return new Date(payload === null ? Number.NaN : (payload as number));
    case "bytes":
      return new Uint8Array(Buffer.from(payload as string, "base64"));
    case "arraybuffer": {
      const bytes = Buffer.from(payload as string, "base64");
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    }
    case "map":
      return new Map(
        (payload as [EncodedValue, EncodedValue][]).map(([key, value]) => [decodeTrusted(key), decodeTrusted(value)]),
      );
    case "set":
      return new Set((payload as EncodedValue[]).map(decodeTrusted));
    default:
      return decodeObject(payload as Record<string, EncodedValue>);
  }
}

function decodeObject(encoded: Record<string, EncodedValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(encoded)) {
    Object.defineProperty(out, key, {
      value: decodeTrusted(encoded[key] as EncodedValue),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Decodes a tagged tree made by {@link encodeValue} (or by the sandbox). The tree is validated
 * first: a malformed tree throws {@link CodecError} naming the path.
 */
export function decodeValue(encoded: unknown, { path = "value" }: EncodeOptions = {}): unknown {
  const problem = validateEncodedValue(encoded, path);
  if (problem !== undefined) throw new CodecError({ path: problem.path, message: problem.message });
  return decodeTrusted(encoded as EncodedValue);
}

/** Encodes a value into the string form stored in the journal. Throws {@link CodecError}. */
export function serializeValue(value: unknown, options: EncodeOptions = {}): string {
  return JSON.stringify(encodeValue(value, options));
}

/**
 * {@link serializeValue}, also telling whether the tree holds any tag (when it does not, the text is
 * plain JSON of the value and a reader may skip decoding).
 */
export function serializeValueTagged(value: unknown, options: EncodeOptions = {}): { text: string; tagged: boolean } {
  producedTag = false;
  const text = JSON.stringify(encodeValue(value, options));
  return { text, tagged: producedTag };
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
