// @ts-check
/**
 * Plain JSON values (what most arguments and results are) in native `JSON`, without compiling the codec. Compiled
 * in a run's context the first time a value that is not a string, number or boolean crosses.
 */

/** @import { Intrinsics } from "./guest-types.js" */

/** Deeper values go through the codec (which bounds nesting itself). */
const MAX_PLAIN_DEPTH = 64;

/**
 * @param {Intrinsics} intrinsics
 */
export function createPlainJson(intrinsics) {
  const { isArray, getPrototypeOf, objectPrototype, keys, stringify } = intrinsics;

  /**
   * Finite numbers other than -0, strings, booleans, null, dense arrays and plain objects without a `$` key,
   * shallower than {@link MAX_PLAIN_DEPTH}.
   *
   * @param {unknown} value
   * @param {number} depth
   * @returns {boolean}
   */
  function isPlain(value, depth) {
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        return value - value === 0 && (value !== 0 || 1 / value > 0);
      case "object": {
        if (value === null) return true;
        if (depth > MAX_PLAIN_DEPTH) return false;
        if (isArray(value)) {
          for (let index = 0; index < value.length; index++) if (!isPlain(value[index], depth + 1)) return false;
          return true;
        }
        const prototype = getPrototypeOf(value);
        if (prototype !== objectPrototype && prototype !== null) return false;
        const names = keys(value);
        for (let index = 0; index < names.length; index++) {
          const name = /** @type {string} */ (names[index]);
          if (name === "$" || !isPlain(/** @type {Record<string, unknown>} */ (value)[name], depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }

  return {
    /**
     * The JSON text of `value` when it is plain, else `undefined` (the codec takes over).
     *
     * @param {unknown} value
     * @returns {string | undefined}
     */
    json: (value) => (isPlain(value, 0) ? stringify(value) : undefined),
  };
}
