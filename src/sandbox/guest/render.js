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

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

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
    getPrototypeOf,
    getOwnPropertyDescriptor,
    objectPrototype,
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
   * @param {unknown} value
   * @param {Budget} budget
   * @param {number} depth
   * @param {unknown[]} seen
   * @param {boolean} top a top-level string is shown as itself, a nested one quoted
   * @returns {string}
   */
  function render(value, budget, depth, seen, top) {
    if (budget.left <= 0) return "…";
    let out;
    switch (typeof value) {
      case "string":
        out = top ? value : stringify(value);
        break;
      case "number":
        out = value === 0 && 1 / value < 0 ? "-0" : toText(value);
        break;
      case "bigint":
        out = toText(value) + "n";
        break;
      case "undefined":
      case "boolean":
        out = toText(value);
        break;
      case "symbol":
        out = value.toString();
        break;
      case "function":
        out = "[Function" + (value.name ? ": " + value.name : " (anonymous)") + "]";
        break;
      default:
        out = value === null ? "null" : renderObject(/** @type {object} */ (value), budget, depth, seen);
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
   * @returns {string}
   */
  function renderObject(value, budget, depth, seen) {
    for (let index = 0; index < seen.length; index++) if (seen[index] === value) return "[Circular]";
    if (value instanceof DateClass) {
      const time = dateTime.call(value);
      return time - time === 0 ? dateISO.call(value) : "Invalid Date";
    }
    if (value instanceof ErrorClass) return renderError(value, false);
    if (depth > MAX_RENDER_DEPTH) return isArray(value) ? "[Array]" : "[Object]";
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
      let open = "{";
      let close = "}";
      if (isArray(value)) {
        open = "[";
        close = "]";
        for (let index = 0; index < value.length && add(item(value[index])); index++);
      } else if (value instanceof MapClass) {
        open = "Map(" + mapSize.call(value) + ") {";
        for (const pair of iterate(value, mapEntries)) if (!add(item(pair[0]) + " => " + item(pair[1]))) break;
      } else if (value instanceof SetClass) {
        open = "Set(" + setSize.call(value) + ") {";
        for (const entry of iterate(value, setValues)) if (!add(item(entry))) break;
      } else if (value instanceof Bytes) {
        open = "Uint8Array(" + value.length + ") [";
        close = "]";
        for (let index = 0; index < value.length && add(toText(value[index])); index++);
      } else if (value instanceof BufferClass) {
        return "ArrayBuffer { byteLength: " + value.byteLength + " }";
      } else {
        const prototype = getPrototypeOf(value);
        const maker = prototype?.constructor;
        if (
          prototype !== objectPrototype &&
          prototype !== null &&
          maker &&
          typeof maker.name === "string" &&
          maker.name
        ) {
          open = maker.name + " {";
        }
        const names = keys(value);
        for (let index = 0; index < names.length; index++) {
          const name = /** @type {string} */ (names[index]);
          const label = IDENTIFIER.test(name) ? name : stringify(name);
          if (!add(label + ": " + item(/** @type {Record<string, unknown>} */ (value)[name]))) break;
        }
      }
      return parts.length === 0 ? open + close : open + " " + parts.join(", ") + " " + close;
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
      return "Uncaught " + render(error, { left: 2000 }, 0, [], false);
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
