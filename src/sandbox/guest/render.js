// @ts-check
/**
 * Readable rendering inside the sandbox: `console` lines (rendered, capped at the log budget and handed to the
 * host in batches), errors the program threw, and results that cannot cross. Compiled in a run's context the
 * first time the program reads `console` or the host renders a value.
 */

/** @import { GuestConfig, HostLog, Intrinsics } from "./guest-types.js" */

/** Lines travel to the host in batches: one crossing per this many lines, */
const FLUSH_LINES = 64;
/** or once this many milliseconds passed since the last batch (the first line goes at once). */
const FLUSH_MS = 20;
/** Nesting shown before `[Object]` / `[Array]`. */
const MAX_RENDER_DEPTH = 4;
/** Members shown per object, array, map or set. */
const MAX_MEMBERS = 100;

/**
 * @typedef {{ left: number }} Budget characters a rendering may still produce
 */

/**
 * @param {Intrinsics} intrinsics
 * @param {GuestConfig} config
 * @param {HostLog} hostLog
 */
export function createRender(intrinsics, config, hostLog) {
  const {
    String: toText,
    Date: DateClass,
    Map: MapClass,
    Set: SetClass,
    Uint8Array: Bytes,
    ArrayBuffer: BufferClass,
    Error: ErrorClass,
    keys,
    getOwnPropertyDescriptor,
    isArray,
    stringify,
    freeze,
    iterator,
    now,
  } = intrinsics;
  const dateTime = DateClass.prototype.getTime;
  const dateISO = DateClass.prototype.toISOString;
  const mapEntries = MapClass.prototype.entries;
  const setValues = SetClass.prototype.values;
  const mapSize = /** @type {(this: Map<unknown, unknown>) => number} */ (
    /** @type {PropertyDescriptor} */ (getOwnPropertyDescriptor(MapClass.prototype, "size")).get
  );
  const setSize = /** @type {(this: Set<unknown>) => number} */ (
    /** @type {PropertyDescriptor} */ (getOwnPropertyDescriptor(SetClass.prototype, "size")).get
  );

  /**
   * An iterable over `target` through a captured method (a program may have replaced `Map.prototype.entries`).
   *
   * @template T
   * @param {object} target
   * @param {(this: any) => Iterator<T>} method
   * @returns {Iterable<T>}
   */
  const iterate = (target, method) =>
    /** @type {Iterable<T>} */ (/** @type {unknown} */ ({ [iterator]: () => method.call(target) }));

  /**
   * A leaf of the display: shown as itself at the top of a line, quoted as a JSON string inside a value.
   *
   * @param {string} text
   * @param {boolean} top
   * @returns {string}
   */
  const leaf = (text, top) => (top ? text : stringify(text));

  /**
   * Two hex digits per byte, space-separated.
   *
   * @param {Uint8Array} bytes
   * @returns {string}
   */
  function hex(bytes) {
    let out = "";
    for (let index = 0; index < bytes.length; index++) {
      const byte = /** @type {number} */ (bytes[index]);
      out += (index === 0 ? "" : " ") + (byte < 16 ? "0" : "") + byte.toString(16);
    }
    return out;
  }

  /**
   * The display of `value` (src/shared/display-value.ts writes the same grammar on the host): JSON, with what
   * JSON cannot hold as a readable string and typed containers under a key naming their type.
   *
   * @param {unknown} value
   * @param {Budget} budget
   * @param {number} depth
   * @param {unknown[]} seen
   * @param {boolean} top a top-level string (or value displayed as one) is shown as itself, a nested one quoted
   * @returns {string}
   */
  function render(value, budget, depth, seen, top) {
    if (budget.left <= 0) return "…";
    let out;
    switch (typeof value) {
      case "string":
        out = leaf(value, top);
        break;
      case "number":
        if (value === 0 && 1 / value < 0) out = leaf("-0", top);
        else out = value - value === 0 ? toText(value) : leaf(toText(value), top);
        break;
      case "bigint":
        out = leaf(toText(value) + "n", top);
        break;
      case "undefined":
        out = leaf("undefined", top);
        break;
      case "boolean":
        out = toText(value);
        break;
      case "symbol":
        out = leaf(value.toString(), top);
        break;
      case "function":
        out = leaf("[Function" + (value.name ? ": " + value.name : " (anonymous)") + "]", top);
        break;
      default:
        out = value === null ? "null" : renderObject(/** @type {object} */ (value), budget, depth, seen, top);
    }
    if (out.length > budget.left) out = (budget.left > 0 ? out.slice(0, budget.left) : "") + "…";
    budget.left -= out.length;
    return out;
  }

  /**
   * @param {object} value
   * @param {Budget} budget
   * @param {number} depth
   * @param {unknown[]} seen
   * @param {boolean} top
   * @returns {string}
   */
  function renderObject(value, budget, depth, seen, top) {
    for (let index = 0; index < seen.length; index++) if (seen[index] === value) return leaf("[Circular]", top);
    if (value instanceof DateClass) {
      const time = dateTime.call(value);
      return leaf(time - time === 0 ? dateISO.call(value) : "Invalid Date", top);
    }
    if (value instanceof ErrorClass) return leaf(renderError(value, false), top);
    if (depth > MAX_RENDER_DEPTH) return leaf(isArray(value) ? "[Array]" : "[Object]", top);
    const at = seen.length;
    seen[at] = value;
    try {
      /** @type {string[]} */
      const parts = [];
      /** @param {string} text */
      const add = (text) => {
        parts[parts.length] = text;
        return budget.left > 0 && parts.length <= MAX_MEMBERS;
      };
      /** @param {unknown} member */
      const item = (member) => render(member, budget, depth + 1, seen, false);
      /** @param {string} type the type's label, e.g. `Map(1)` */
      const typed = (type) => "{" + stringify(type) + ":";
      let open = "{";
      let close = "}";
      if (isArray(value)) {
        open = "[";
        close = "]";
        for (let index = 0; index < value.length && add(item(value[index])); index++);
      } else if (value instanceof MapClass) {
        let named = true;
        for (const pair of iterate(value, mapEntries)) if (typeof pair[0] !== "string") named = false;
        open = typed("Map(" + mapSize.call(value) + ")") + (named ? "{" : "[");
        close = named ? "}}" : "]}";
        for (const pair of iterate(value, mapEntries)) {
          const entry = named
            ? stringify(pair[0]) + ":" + item(pair[1])
            : "[" + item(pair[0]) + "," + item(pair[1]) + "]";
          if (!add(entry)) break;
        }
      } else if (value instanceof SetClass) {
        open = typed("Set(" + setSize.call(value) + ")") + "[";
        close = "]}";
        for (const entry of iterate(value, setValues)) if (!add(item(entry))) break;
      } else if (value instanceof Bytes) {
        return typed("Uint8Array(" + value.length + ")") + stringify(hex(value)) + "}";
      } else if (value instanceof BufferClass) {
        return typed("ArrayBuffer(" + value.byteLength + ")") + stringify(hex(new Bytes(value))) + "}";
      } else {
        const names = keys(value);
        for (let index = 0; index < names.length; index++) {
          const name = /** @type {string} */ (names[index]);
          const member = /** @type {Record<string, unknown>} */ (value)[name];
          // A field holding `undefined` is absent, as in JSON.
          if (member !== undefined && !add(stringify(name) + ":" + item(member))) break;
        }
      }
      return open + parts.join(",") + close;
    } finally {
      seen.length = at;
    }
  }

  /**
   * An error (or any thrown value) as `Name: message`, with the program's line when `withLine`.
   *
   * @param {unknown} error
   * @param {boolean} withLine
   * @returns {string}
   */
  function renderError(error, withLine) {
    try {
      if (
        error instanceof ErrorClass ||
        (error !== null &&
          typeof error === "object" &&
          typeof (/** @type {{ message?: unknown }} */ (error).message) === "string")
      ) {
        const { name, message, stack } = /** @type {{ name?: unknown, message?: unknown, stack?: unknown }} */ (error);
        let text = toText(name || "Error") + ": " + toText(message);
        const at = /program\.js:(\d+)/.exec(toText(stack || ""));
        if (at && withLine) text += " (line " + at[1] + ")";
        return text;
      }
      return "Uncaught " + render(error, { left: 2000 }, 0, [], typeof error !== "string");
    } catch {
      return "Uncaught exception that could not be rendered";
    }
  }

  /**
   * The stack of a thrown error, or "" (the host reads the failed call's position from it).
   *
   * @param {unknown} error
   * @returns {string}
   */
  function stackOf(error) {
    try {
      const stack = error !== null && typeof error === "object" ? /** @type {{ stack?: unknown }} */ (error).stack : "";
      return typeof stack === "string" ? stack : "";
    } catch {
      return "";
    }
  }

  /**
   * A result that cannot cross, rendered as a string, with the reason.
   *
   * @param {unknown} value
   * @param {unknown} error why the value could not cross
   * @returns {string}
   */
  function fallback(value, error) {
    let text;
    try {
      text = render(value, { left: 100000 }, 0, [], true);
    } catch {
      text = "[result could not be rendered]";
    }
    const reason = error && /** @type {{ message?: unknown }} */ (error).message;
    return text + " (the result was rendered as a string: " + (reason ? reason : toText(error)) + ")";
  }

  let left = config.maxLogChars;
  let truncated = false;
  /** @type {string[]} */
  let pending = [];
  let lastFlush = -Infinity;

  /** Hands the buffered lines to the host. */
  function flush() {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    lastFlush = now();
    hostLog(stringify(batch), truncated);
  }

  /**
   * Renders one console line (the values after `prefix`) within the budget; once the budget is spent, console
   * calls end here.
   *
   * @param {string} prefix
   * @param {ArrayLike<unknown>} values
   */
  function log(prefix, values) {
    if (truncated) return;
    const budget = { left: left + 1 };
    /** @type {string[]} */
    const parts = [];
    for (let index = 0; index < values.length && budget.left > 0; index++) {
      parts[index] = render(values[index], budget, 0, [], true);
    }
    let line = prefix + parts.join(" ");
    if (line.length > left) {
      line =
        (left > 0 ? line.slice(0, left) : "") + "… [logs truncated: more than " + config.maxLogChars + " characters]";
      truncated = true;
    }
    left -= line.length;
    pending[pending.length] = line;
    if (truncated || pending.length >= FLUSH_LINES || now() - lastFlush > FLUSH_MS) flush();
  }

  /**
   * @param {string} prefix
   * @returns {(...values: unknown[]) => void}
   */
  const method = (prefix) =>
    function () {
      // biome-ignore lint/complexity/noArguments: a console method takes any number of values.
      log(prefix, arguments);
    };

  const noop = () => {};

  return {
    renderError,
    stackOf,
    fallback,
    flush,
    /** The program's `console`. */
    console: freeze({
      __proto__: null,
      log: method(""),
      info: method(""),
      debug: method(""),
      warn: method("[warn] "),
      error: method("[error] "),
    }),
    /** The console once the log budget is spent: calls never leave the sandbox. */
    quietConsole: freeze({ __proto__: null, log: noop, info: noop, debug: noop, warn: noop, error: noop }),
  };
}
