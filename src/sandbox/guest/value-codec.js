// @ts-check
/**
 * The value codec's rules, written once for both sides of the boundary: the host's `codec.ts` (arguments and
 * results it sends, the journal) and the sandbox's codec (`sandbox-codec.js`, bundled to text and compiled
 * inside QuickJS) both build theirs with {@link createValueCodec}. The format is described at the top of
 * `codec.ts`. What differs between the sides is passed in: the built-ins (the host's own; inside the sandbox,
 * the ones captured before the program ran, see `Intrinsics`), base64 (`Buffer` on the host), and the error a
 * refused value becomes (a `CodecError` on the host, a `TypeError` inside the sandbox).
 *
 * Inside the sandbox this code runs after the program, which may have replaced any global or prototype method.
 * It reads only the captured built-ins and syntax; the prototype methods it calls (`Map.prototype.forEach`, …)
 * are read when the codec is created. A program that tampers with those changes only its own values: the host
 * validates every tree it receives and measures every text before reading it.
 */

/** @import { Intrinsics } from "./guest-types.js" */
/** @import { EncodedValue as EncodedTree } from "../codec-validation.js" */

/** Largest BigInt that crosses: below 2^13288 (about 4,000 decimal digits; parsing digits is quadratic on the host). */
export const MAX_BIGINT_BITS = 13_288;
const MAX_BIGINT_SHIFT = 13_288n;

/** Nesting bound, so encoding a hostile value cannot overflow a stack. Matches the host validator's. */
export const MAX_ENCODE_DEPTH = 500;

/** Characters a tag takes at least once encoded (`{"$":"undefined"}` is 17): what `spend` counts for one. */
const TAG_CHARS = 15;

/** The end of every refusal: "functions cannot cross the sandbox boundary". */
export const BOUNDARY = "cannot cross the sandbox boundary";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The path of member `name` under `path` as a reader would write it: `args.user`, `args["list-prs"]`.
 *
 * @param {string} path
 * @param {string} name
 * @param {(text: string) => string} quote `JSON.stringify` (inside the sandbox, the captured one)
 * @returns {string}
 */
export function memberPath(path, name, quote) {
  return IDENTIFIER.test(name) ? path + "." + name : path + "[" + quote(name) + "]";
}

/**
 * A path cut to a readable length (deep nesting makes paths of thousands of characters).
 *
 * @param {string} path
 * @returns {string}
 */
export function shortPath(path) {
  return path.length <= 120 ? path : path.slice(0, 60) + "…" + path.slice(-50);
}

/**
 * `1000000` as `1,000,000` (what `toLocaleString("en-US")` gives on the host; QuickJS ignores locales).
 *
 * @param {number} count a non-negative integer
 * @returns {string}
 */
function groupDigits(count) {
  let text = "" + count;
  for (let at = text.length - 3; at > 0; at -= 3) text = text.slice(0, at) + "," + text.slice(at);
  return text;
}

/**
 * Why a function, a symbol or an object of another kind cannot cross.
 *
 * @param {unknown} value
 * @returns {string}
 */
export function describeUnsupported(value) {
  if (typeof value === "function") return "functions " + BOUNDARY;
  if (typeof value === "symbol") return "symbols " + BOUNDARY;
  const maker = /** @type {{ constructor?: { name?: unknown } }} */ (value).constructor;
  const name = maker ? maker.name : undefined;
  const label = typeof name === "string" && name !== "" ? name + " instances" : "objects with a custom prototype";
  return (
    label + " " + BOUNDARY + " (supported: JSON values, undefined, Date, Uint8Array, ArrayBuffer, Map, Set, BigInt)"
  );
}

/**
 * What a side of the boundary supplies.
 *
 * @typedef {object} CodecPlatform
 * @property {(bytes: Uint8Array) => string} toBase64
 * @property {(text: string) => Uint8Array} fromBase64 a new array over a buffer of exactly its bytes
 * @property {(path: string, message: string, overLimit: boolean) => Error} fail the error for a refused value
 */

/**
 * The built-ins the codec uses (the host passes its own).
 *
 * @typedef {Pick<Intrinsics, "String" | "Date" | "Map" | "Set" | "Uint8Array" | "ArrayBuffer" | "BigInt" | "keys" | "getPrototypeOf" | "defineProperty" | "hasOwnProperty" | "objectPrototype" | "isArray" | "stringify">} CodecIntrinsics
 */

/**
 * A codec over one side's built-ins.
 *
 * @param {CodecIntrinsics} intrinsics
 * @param {CodecPlatform} platform
 */
export function createValueCodec(intrinsics, platform) {
  const {
    String: toText,
    Date: DateClass,
    Map: MapClass,
    Set: SetClass,
    Uint8Array: Bytes,
    ArrayBuffer: BufferClass,
    BigInt: toBigInt,
    keys,
    getPrototypeOf,
    defineProperty,
    hasOwnProperty: hasOwn,
    objectPrototype,
    isArray,
    stringify,
  } = intrinsics;
  const { toBase64, fromBase64, fail } = platform;
  const dateTime = DateClass.prototype.getTime;
  const mapForEach = MapClass.prototype.forEach;
  const mapSet = MapClass.prototype.set;
  const setForEach = SetClass.prototype.forEach;
  const setAdd = SetClass.prototype.add;

  /** Characters the current encoding may still produce (a lower bound is subtracted as it goes). */
  let charsLeft = Infinity;
  let charsMax = Infinity;
  /** Set when the current encoding produced a tag. */
  let tagged = false;

  /**
   * @param {number} chars
   * @param {string} path
   */
  function spend(chars, path) {
    charsLeft -= chars;
    // Negated, so that a count that is not a number can never let the encoding through.
    if (!(charsLeft >= 0)) {
      throw fail(
        "value",
        "over " + groupDigits(charsMax) + " characters once encoded (stopped at " + shortPath(path) + ")",
        true,
      );
    }
  }

  /**
   * @param {object} target
   * @param {string} key
   * @param {unknown} value
   */
  function setField(target, key, value) {
    if (key === "__proto__") {
      defineProperty(
        target,
        key,
        /** @type {PropertyDescriptor} */ ({
          __proto__: null,
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        }),
      );
    } else {
      /** @type {Record<string, unknown>} */ (target)[key] = value;
    }
  }

  /**
   * @param {number} value
   * @param {string} path
   * @returns {EncodedTree}
   */
  function encodeNumber(value, path) {
    // Finite and not -0 (`value - value` is NaN for NaN and the infinities).
    if (value - value === 0 && (value !== 0 || 1 / value > 0)) {
      spend(1, path);
      return value;
    }
    spend(TAG_CHARS, path);
    tagged = true;
    if (value === Infinity) return { $: "number", v: "Infinity" };
    if (value === -Infinity) return { $: "number", v: "-Infinity" };
    if (value === 0) return { $: "number", v: "-0" };
    return { $: "number", v: "NaN" };
  }

  /**
   * @param {bigint} value
   * @param {string} path
   * @returns {EncodedTree}
   */
  function encodeBigInt(value, path) {
    tagged = true;
    if ((value < 0n ? -value : value) >> MAX_BIGINT_SHIFT !== 0n) {
      throw fail(path, "BigInt values over about 4,000 digits " + BOUNDARY + " (send them as strings)", false);
    }
    spend(20, path);
    return { $: "bigint", v: toText(value) };
  }

  /**
   * @param {unknown} value
   * @param {string} path
   * @param {unknown[]} seen the objects being encoded, outermost first (`depth` of them)
   * @param {number} depth
   * @returns {EncodedTree}
   */
  function encode(value, path, seen, depth) {
    switch (typeof value) {
      case "string":
        spend(value.length + 3, path);
        return value;
      case "boolean":
        spend(5, path);
        return value;
      case "number":
        return encodeNumber(value, path);
      case "bigint":
        return encodeBigInt(value, path);
      case "undefined":
        // Counted like every other value: a holey array is all `undefined`, and costs its maker nothing.
        spend(TAG_CHARS, path);
        tagged = true;
        return { $: "undefined" };
      case "function":
      case "symbol":
        throw fail(path, describeUnsupported(value), false);
    }
    spend(2, path);
    if (value === null) return null;
    if (depth >= MAX_ENCODE_DEPTH) {
      throw fail(shortPath(path), "values nested deeper than " + MAX_ENCODE_DEPTH + " levels " + BOUNDARY, false);
    }
    for (let index = 0; index < depth; index++) {
      if (seen[index] === value) throw fail(path, "cycles " + BOUNDARY + " (the value refers to itself)", false);
    }
    seen[depth] = value;
    return encodeObject(/** @type {object} */ (value), path, seen, depth + 1);
  }

  /**
   * @param {object} object
   * @param {string} path
   * @param {unknown[]} seen
   * @param {number} depth the depth of the object's members
   * @returns {EncodedTree}
   */
  function encodeObject(object, path, seen, depth) {
    if (isArray(object)) {
      // Read once (a proxy's `length` may change), and counted before the first element: one separator each, so a
      // `new Array(1e9)` is refused at once instead of after building a billion `undefined` tags.
      const length = object.length;
      spend(length > 0 ? length - 1 : 0, path);
      /** @type {EncodedTree[]} */
      const out = [];
      for (let index = 0; index < length; index++) {
        out[index] = encode(object[index], path + "[" + index + "]", seen, depth);
      }
      return out;
    }
    if (object instanceof DateClass) {
      spend(TAG_CHARS, path);
      tagged = true;
      const time = dateTime.call(object);
      return { $: "date", v: time - time === 0 ? time : null };
    }
    if (object instanceof Bytes) {
      tagged = true;
      spend(base64Chars(object.length), path);
      return { $: "bytes", v: toBase64(object) };
    }
    if (object instanceof BufferClass) {
      tagged = true;
      spend(base64Chars(object.byteLength), path);
      return { $: "arraybuffer", v: toBase64(new Bytes(object)) };
    }
    if (object instanceof MapClass) {
      tagged = true;
      /** @type {EncodedTree[]} */
      const entries = [];
      let index = 0;
      mapForEach.call(object, (entry, key) => {
        spend(3, path);
        entries[index] = [
          encode(key, path + ".<key " + index + ">", seen, depth),
          encode(entry, path + ".<value " + index + ">", seen, depth),
        ];
        index++;
      });
      return { $: "map", v: entries };
    }
    if (object instanceof SetClass) {
      tagged = true;
      /** @type {EncodedTree[]} */
      const items = [];
      let index = 0;
      setForEach.call(object, (item) => {
        spend(1, path);
        items[index] = encode(item, path + ".<item " + index + ">", seen, depth);
        index++;
      });
      return { $: "set", v: items };
    }
    const prototype = getPrototypeOf(object);
    if (prototype !== objectPrototype && prototype !== null) throw fail(path, describeUnsupported(object), false);
    /** @type {{ [key: string]: EncodedTree }} */
    const out = {};
    const names = keys(object);
    for (let index = 0; index < names.length; index++) {
      const name = /** @type {string} */ (names[index]);
      spend(name.length + 3, path);
      const member = /** @type {Record<string, unknown>} */ (object)[name];
      setField(out, name, encode(member, memberPath(path, name, stringify), seen, depth));
    }
    if (!hasOwn.call(out, "$")) return out;
    tagged = true;
    return { $: "object", v: out };
  }

  /**
   * @param {unknown} tree
   * @returns {unknown}
   */
  function decode(tree) {
    if (tree === null || typeof tree !== "object") return tree;
    if (isArray(tree)) {
      /** @type {unknown[]} */
      const out = [];
      for (let index = 0; index < tree.length; index++) out[index] = decode(tree[index]);
      return out;
    }
    if (!hasOwn.call(tree, "$")) return decodeFields(tree);
    const { $: tag, v: payload } = /** @type {{ $: unknown, v?: any }} */ (tree);
    switch (tag) {
      case "undefined":
        return undefined;
      case "number":
        return payload === "-0" ? -0 : +payload;
      case "bigint":
        return toBigInt(payload);
      case "date":
        return new DateClass(payload === null ? NaN : payload);
      case "bytes":
        return fromBase64(payload);
      case "arraybuffer":
        return fromBase64(payload).buffer;
      case "map": {
        const map = new MapClass();
        for (let index = 0; index < payload.length; index++) {
          mapSet.call(map, decode(payload[index][0]), decode(payload[index][1]));
        }
        return map;
      }
      case "set": {
        const set = new SetClass();
        for (let index = 0; index < payload.length; index++) setAdd.call(set, decode(payload[index]));
        return set;
      }
      default:
        return decodeFields(payload);
    }
  }

  /**
   * @param {object} tree
   * @returns {Record<string, unknown>}
   */
  function decodeFields(tree) {
    /** @type {Record<string, unknown>} */
    const out = {};
    const names = keys(tree);
    for (let index = 0; index < names.length; index++) {
      const name = /** @type {string} */ (names[index]);
      setField(out, name, decode(/** @type {Record<string, unknown>} */ (tree)[name]));
    }
    return out;
  }

  return {
    /**
     * Encodes a value as a tagged tree, refusing what cannot cross (the platform's error naming the path). With
     * `maxChars`, stops with an over-limit error once the encoded text is certain to pass it.
     *
     * @param {unknown} value
     * @param {string} path the root's name in error paths
     * @param {number} maxChars
     * @returns {{ tree: EncodedTree, tagged: boolean }}
     */
    encode(value, path, maxChars) {
      // Saved and restored: a getter of the value may encode another value meanwhile.
      const outerLeft = charsLeft;
      const outerMax = charsMax;
      const outerTagged = tagged;
      charsLeft = charsMax = maxChars;
      tagged = false;
      try {
        const tree = encode(value, path, [], 0);
        return { tree, tagged };
      } finally {
        charsLeft = outerLeft;
        charsMax = outerMax;
        tagged = outerTagged;
      }
    },
    /** Decodes a tree made by `encode`. The tree is trusted: the host validates untrusted trees first. */
    decode,
  };
}

/**
 * Characters of the base64 text of `byteCount` bytes.
 *
 * @param {number} byteCount
 * @returns {number}
 */
function base64Chars(byteCount) {
  return ((byteCount + 2 - ((byteCount + 2) % 3)) / 3) * 4;
}
