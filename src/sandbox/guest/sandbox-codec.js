// @ts-check
/**
 * The codec inside the sandbox: the shared rules of `value-codec.js` over the captured built-ins, with base64 in
 * JavaScript and `TypeError`s the program can catch. Compiled in a run's context the first time a value that is
 * not plain JSON crosses (an argument, the result, or a host reply with a tag).
 */
import { createValueCodec } from "./value-codec.js";

/** @import { Intrinsics } from "./guest-types.js" */

const BASE64_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * The base64 digit of a 6-bit value.
 *
 * @param {number} value
 * @returns {string}
 */
const digit = (value) => /** @type {string} */ (BASE64_DIGITS[value]);

/**
 * @param {Intrinsics} intrinsics
 */
export function createSandboxCodec(intrinsics) {
  const { Uint8Array: Bytes, TypeError: TypeErrorClass, stringify, parse } = intrinsics;

  /**
   * @param {Uint8Array} bytes
   * @returns {string}
   */
  function toBase64(bytes) {
    let out = "";
    for (let index = 0; index < bytes.length; index += 3) {
      const first = /** @type {number} */ (bytes[index]);
      const second = bytes[index + 1];
      const third = bytes[index + 2];
      out += digit(first >> 2) + digit(((first & 3) << 4) | ((second === undefined ? 0 : second) >> 4));
      out += second === undefined ? "=" : digit(((second & 15) << 2) | ((third === undefined ? 0 : third) >> 6));
      out += third === undefined ? "=" : digit(third & 63);
    }
    return out;
  }

  /**
   * @param {string} text valid base64 (the host made it)
   * @returns {Uint8Array}
   */
  function fromBase64(text) {
    let end = text.length;
    while (end > 0 && text[end - 1] === "=") end--;
    const out = new Bytes((end * 3) >> 2);
    let bits = 0;
    let count = 0;
    let written = 0;
    for (let index = 0; index < end; index++) {
      bits = (bits << 6) | BASE64_DIGITS.indexOf(/** @type {string} */ (text[index]));
      count += 6;
      if (count >= 8) {
        count -= 8;
        out[written++] = (bits >> count) & 255;
      }
    }
    return out;
  }

  const codec = createValueCodec(intrinsics, {
    toBase64,
    fromBase64,
    fail: (path, message) => new TypeErrorClass(path + ": " + message),
  });

  return {
    /**
     * The codec JSON of `value`; refusals are `TypeError`s naming the path under `label`.
     *
     * @param {unknown} value
     * @param {string} label
     * @returns {string}
     */
    encodeJSON(value, label) {
      try {
        return stringify(codec.encode(value, label, Infinity).tree);
      } catch (error) {
        if (error && /** @type {{ message?: unknown }} */ (error).message === "stack overflow") {
          throw new TypeErrorClass(
            label + ": values nested too deeply cannot cross the sandbox boundary (the sandbox stack ran out)",
          );
        }
        throw error;
      }
    },
    /**
     * The value of a codec JSON text the host sent.
     *
     * @param {string} text
     * @returns {unknown}
     */
    decodeJSON: (text) => codec.decode(parse(text)),
  };
}
