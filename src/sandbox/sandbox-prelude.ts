/**
 * JavaScript chunks compiled inside a run's QuickJS context on first use. Nothing is parsed on
 * every run: QuickJS compiles at roughly 0.1 ms per KiB in wasm, so the bindings, `console` and
 * the completion are built by the host through the handle API (`quickjs-session.ts`), and these
 * chunks load only when a run needs them:
 * - `plain`: native `JSON` for plain values, for the first non-primitive argument or completion;
 * - `codec`: the codec (`codec.ts`) mirrored inside the sandbox, for values that are not plain JSON
 *   and for tagged host results;
 * - `render`: readable rendering for `console` (capped inside the sandbox), errors and results
 *   that cannot cross;
 * - `environment`: frozen `Date` and seeded `Math.random`, before the program, when the run has
 *   an environment.
 *
 * Each chunk is a factory `(config, hostLog, stringify, parse, intrinsics) => api`. `stringify` and
 * `parse` are `JSON`'s and `intrinsics` the built-ins of `INTRINSICS_CHUNK`, all captured before the
 * program ran (the intrinsics chunk is the only one compiled on every run): a program that replaces
 * `String` or `Object.keys` cannot change what the codec produces (it once made a 3-million-digit
 * BigInt cost nothing to send). Sizes are measured by the host side of the sandbox, not trusted
 * from the chunks, and the host validates every tree it receives.
 */

/** Largest BigInt that crosses: below 2^13288 (about 4,000 decimal digits; parsing digits is quadratic on the host). */
export const MAX_BIGINT_BITS = 13_288;

/**
 * Built-ins captured before the program runs, a quiet `console` (installed once the log budget is
 * spent, so later calls never leave the sandbox) and `namespace(target, missing)`: the proxy each
 * binding namespace is seen through. Reading a member it does not have still gives `undefined`, and
 * tells the host (`missing(key)`), so that a run failing with QuickJS's bare `TypeError: not a
 * function` is reported with the method, the closest name and the methods that exist.
 */
export const INTRINSICS_CHUNK = `(function () {
"use strict";
const O = Object, noop = function () {}, ownDesc = O.getOwnPropertyDescriptor, P = Proxy;
const quiet = O.freeze({ __proto__: null, log: noop, info: noop, debug: noop, warn: noop, error: noop });
const quietKeys = { __proto__: null, then: 1, toJSON: 1, toString: 1, valueOf: 1, constructor: 1, inspect: 1, $$typeof: 1, nodeType: 1, asymmetricMatch: 1 };
function namespace(target, missing) {
  return new P(target, { __proto__: null, get(t, key) {
    if (typeof key === "string" && ownDesc(t, key) === undefined && quietKeys[key] !== 1) missing(key);
    return t[key];
  } });
}
return O.freeze({ __proto__: null, String, Date, Map, Set, Uint8Array, ArrayBuffer, TypeError, Error, BigInt, iterator: Symbol.iterator,
  keys: O.keys, getProto: O.getPrototypeOf, define: O.defineProperty, ownDesc, hasOwn: O.prototype.hasOwnProperty, objectProto: O.prototype,
  isArray: Array.isArray, quietConsole: quiet, namespace, now: Date.now, freeze: O.freeze });
})`;

/**
 * Plain JSON values (what most arguments and results are) in native \`JSON\`, without compiling the
 * codec: \`json(value)\` is the JSON text when the value is plain (finite numbers other than -0,
 * strings, booleans, null, dense arrays, plain objects without a \`$\` key, shallower than 64
 * levels), else \`undefined\` and the codec takes over.
 */
const PLAIN_CHUNK = `(function (config, hostLog, stringify, parse, I) {
"use strict";
const isArray = I.isArray, getProto = I.getProto, objectProto = I.objectProto, keys = I.keys;
function plain(v, depth) {
  switch (typeof v) {
    case "string": case "boolean": return true;
    case "number": return v - v === 0 && (v !== 0 || 1 / v > 0);
    case "object": {
      if (v === null) return true;
      if (depth > 64) return false;
      if (isArray(v)) { for (let i = 0; i < v.length; i++) if (!plain(v[i], depth + 1)) return false; return true; }
      const proto = getProto(v);
      if (proto !== objectProto && proto !== null) return false;
      const ks = keys(v);
      for (let i = 0; i < ks.length; i++) if (ks[i] === "$" || !plain(v[ks[i]], depth + 1)) return false;
      return true;
    }
    default: return false;
  }
}
return { json: (v) => (plain(v, 0) ? stringify(v) : undefined) };
})`;

/** The codec inside the sandbox (format: see `codec.ts`). */
const CODEC_CHUNK = String.raw`(function (config, hostLog, stringify, parse, I) {
"use strict";
const S = I.String, D = I.Date, M = I.Map, St = I.Set, U8 = I.Uint8Array, AB = I.ArrayBuffer, T = I.TypeError, keys = I.keys, getProto = I.getProto;
const define = I.define, hasOwn = I.hasOwn, objectProto = I.objectProto, isArray = I.isArray, mapSet = M.prototype.set, BI = I.BigInt;
const BIG_BITS = BI(${MAX_BIGINT_BITS});
const dateTime = D.prototype.getTime, mapEntries = M.prototype.entries, setValues = St.prototype.values, setAdd = St.prototype.add;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", BOUNDARY = "cannot cross the sandbox boundary";
const identifier = /^[A-Za-z_$][\w$]*$/;
const child = (path, k) => identifier.test(k) ? path + "." + k : path + "[" + stringify(k) + "]";
const iterate = (target, method) => ({ [I.iterator]: () => method.call(target) });
function toBase64(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i], b = bytes[i + 1], c = bytes[i + 2];
    out += B64[a >> 2] + B64[((a & 3) << 4) | ((b === undefined ? 0 : b) >> 4)];
    out += b === undefined ? "=" : B64[((b & 15) << 2) | ((c === undefined ? 0 : c) >> 6)];
    out += c === undefined ? "=" : B64[c & 63];
  }
  return out;
}
function fromBase64(text) {
  let end = text.length;
  while (end > 0 && text[end - 1] === "=") end--;
  const out = new U8((end * 3) >> 2);
  let bits = 0, count = 0, j = 0;
  for (let i = 0; i < end; i++) {
    bits = (bits << 6) | B64.indexOf(text[i]); count += 6;
    if (count >= 8) { count -= 8; out[j++] = (bits >> count) & 255; }
  }
  return out;
}
function unsupported(value, path) {
  if (typeof value === "function") return new T(path + ": functions " + BOUNDARY);
  if (typeof value === "symbol") return new T(path + ": symbols " + BOUNDARY);
  const ctor = value.constructor, name = ctor && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name + " instances" : "objects with a custom prototype";
  return new T(path + ": " + name + " " + BOUNDARY + " (supported: JSON values, undefined, Date, Uint8Array, ArrayBuffer, Map, Set, BigInt)");
}
function encode(value, path, seen) {
  switch (typeof value) {
    case "string": case "boolean": return value;
    case "number":
      if (value !== value) return { $: "number", v: "NaN" };
      if (value === Infinity) return { $: "number", v: "Infinity" };
      if (value === -Infinity) return { $: "number", v: "-Infinity" };
      if (value === 0 && 1 / value < 0) return { $: "number", v: "-0" };
      return value;
    case "bigint":
      if ((value < 0 ? -value : value) >> BIG_BITS !== BI(0)) throw new T(path + ": BigInt values over about 4,000 digits " + BOUNDARY + " (send them as strings)");
      return { $: "bigint", v: S(value) };
    case "undefined": return { $: "undefined" };
    case "function": case "symbol": throw unsupported(value, path);
  }
  if (value === null) return null;
  if (seen.indexOf(value) !== -1) throw new T(path + ": cycles " + BOUNDARY + " (the value refers to itself)");
  if (seen.length >= 500) throw new T((path.length > 120 ? path.slice(0, 60) + "…" + path.slice(-50) : path) + ": values nested deeper than 500 levels " + BOUNDARY);
  seen.push(value);
  try {
    if (isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) out[i] = encode(value[i], path + "[" + i + "]", seen);
      return out;
    }
    if (value instanceof D) { const t = dateTime.call(value); return { $: "date", v: t !== t ? null : t }; }
    if (value instanceof U8) return { $: "bytes", v: toBase64(value) };
    if (value instanceof AB) return { $: "arraybuffer", v: toBase64(new U8(value)) };
    if (value instanceof M) {
      const out = []; let i = 0;
      for (const entry of iterate(value, mapEntries)) { out.push([encode(entry[0], path + ".<key " + i + ">", seen), encode(entry[1], path + ".<value " + i + ">", seen)]); i++; }
      return { $: "map", v: out };
    }
    if (value instanceof St) {
      const out = []; let i = 0;
      for (const item of iterate(value, setValues)) out.push(encode(item, path + ".<item " + i++ + ">", seen));
      return { $: "set", v: out };
    }
    const proto = getProto(value);
    if (proto !== objectProto && proto !== null) throw unsupported(value, path);
    const out = {}, ks = keys(value);
    for (let i = 0; i < ks.length; i++) define(out, ks[i], { value: encode(value[ks[i]], child(path, ks[i]), seen), enumerable: true, writable: true, configurable: true });
    return hasOwn.call(out, "$") ? { $: "object", v: out } : out;
  } finally { seen.pop(); }
}
function decode(tree) {
  if (tree === null || typeof tree !== "object") return tree;
  if (isArray(tree)) { const out = []; for (let i = 0; i < tree.length; i++) out[i] = decode(tree[i]); return out; }
  if (!hasOwn.call(tree, "$")) return fields(tree);
  const v = tree.v;
  switch (tree.$) {
    case "undefined": return undefined;
    case "number": return v === "-0" ? -0 : +v;
    case "bigint": return BI(v);
    case "date": return new D(v === null ? NaN : v);
    case "bytes": return fromBase64(v);
    case "arraybuffer": return fromBase64(v).buffer;
    case "map": { const m = new M(); for (let i = 0; i < v.length; i++) mapSet.call(m, decode(v[i][0]), decode(v[i][1])); return m; }
    case "set": { const s = new St(); for (let i = 0; i < v.length; i++) setAdd.call(s, decode(v[i])); return s; }
    default: return fields(v);
  }
}
function fields(tree) {
  const out = {}, ks = keys(tree);
  for (let i = 0; i < ks.length; i++) define(out, ks[i], { value: decode(tree[ks[i]]), enumerable: true, writable: true, configurable: true });
  return out;
}
return {
  encodeJSON(value, label) {
    try { return stringify(encode(value, label, [])); }
    catch (error) {
      if (error && error.message === "stack overflow") throw new T(label + ": values nested too deeply cannot cross the sandbox boundary (the sandbox stack ran out)");
      throw error;
    }
  },
  decodeJSON: (text) => decode(parse(text)),
};
})`;

/** Rendering for console, errors and results that cannot cross; the console budget lives here. */
const RENDER_CHUNK = String.raw`(function (config, hostLog, stringify, parse, I) {
"use strict";
const S = I.String, D = I.Date, M = I.Map, St = I.Set, U8 = I.Uint8Array, AB = I.ArrayBuffer, E = I.Error, keys = I.keys, getProto = I.getProto;
const objectProto = I.objectProto, isArray = I.isArray;
const dateTime = D.prototype.getTime, dateISO = D.prototype.toISOString, mapEntries = M.prototype.entries, setValues = St.prototype.values;
const mapSize = I.ownDesc(M.prototype, "size").get, setSize = I.ownDesc(St.prototype, "size").get;
const identifier = /^[A-Za-z_$][\w$]*$/;
const iterate = (target, method) => ({ [I.iterator]: () => method.call(target) });
function render(value, budget, depth, seen, top) {
  if (budget.left <= 0) return "…";
  let out;
  switch (typeof value) {
    case "string": out = top ? value : stringify(value); break;
    case "number": out = value === 0 && 1 / value < 0 ? "-0" : S(value); break;
    case "bigint": out = S(value) + "n"; break;
    case "undefined": case "boolean": out = S(value); break;
    case "symbol": out = value.toString(); break;
    case "function": out = "[Function" + (value.name ? ": " + value.name : " (anonymous)") + "]"; break;
    default: out = value === null ? "null" : renderObject(value, budget, depth, seen);
  }
  if (out.length > budget.left) out = out.slice(0, budget.left > 0 ? budget.left : 0) + "…";
  budget.left -= out.length;
  return out;
}
function renderObject(value, budget, depth, seen) {
  if (seen.indexOf(value) !== -1) return "[Circular]";
  if (value instanceof D) { const t = dateTime.call(value); return t !== t ? "Invalid Date" : dateISO.call(value); }
  if (value instanceof E) return renderError(value, false);
  if (depth > 4) return isArray(value) ? "[Array]" : "[Object]";
  seen.push(value);
  try {
    const parts = [];
    const add = (text) => { parts.push(text); return budget.left > 0 && parts.length <= 100; };
    const item = (v) => render(v, budget, depth + 1, seen, false);
    let open = "{", close = "}";
    if (isArray(value)) {
      open = "["; close = "]";
      for (let i = 0; i < value.length && add(item(value[i])); i++);
    } else if (value instanceof M) {
      open = "Map(" + mapSize.call(value) + ") {";
      for (const e of iterate(value, mapEntries)) if (!add(item(e[0]) + " => " + item(e[1]))) break;
    } else if (value instanceof St) {
      open = "Set(" + setSize.call(value) + ") {";
      for (const v of iterate(value, setValues)) if (!add(item(v))) break;
    } else if (value instanceof U8) {
      open = "Uint8Array(" + value.length + ") ["; close = "]";
      for (let i = 0; i < value.length && add(S(value[i])); i++);
    } else if (value instanceof AB) {
      return "ArrayBuffer { byteLength: " + value.byteLength + " }";
    } else {
      const proto = getProto(value), ctor = proto && proto.constructor;
      if (proto !== objectProto && proto !== null && ctor && typeof ctor.name === "string" && ctor.name) open = ctor.name + " {";
      const ks = keys(value);
      for (let i = 0; i < ks.length; i++) if (!add((identifier.test(ks[i]) ? ks[i] : stringify(ks[i])) + ": " + item(value[ks[i]]))) break;
    }
    return parts.length === 0 ? open + close : open + " " + parts.join(", ") + " " + close;
  } finally { seen.pop(); }
}
function renderError(error, withLine) {
  try {
    if (error instanceof E || (error !== null && typeof error === "object" && typeof error.message === "string")) {
      let text = S(error.name || "Error") + ": " + S(error.message);
      const at = /program\.js:(\d+)/.exec(S(error.stack || ""));
      if (at && withLine) text += " (line " + at[1] + ")";
      return text;
    }
    return "Uncaught " + render(error, { left: 2000 }, 0, [], false);
  } catch (failure) {
    return "Uncaught exception that could not be rendered";
  }
}
function fallback(value, error) {
  let text;
  try { text = render(value, { left: 100000 }, 0, [], true); } catch (again) { text = "[result could not be rendered]"; }
  return text + " (the result was rendered as a string: " + (error && error.message ? error.message : S(error)) + ")";
}
let left = config.maxLogChars, truncated = false, pending = [], lastFlush = -Infinity;
const now = I.now, FLUSH_LINES = 64, FLUSH_MS = 20;
// Lines travel to the host in batches (one crossing per 64 lines or 20 ms, the first line at once);
// once the budget is spent, console calls end here.
function flush() {
  if (pending.length === 0) return;
  const batch = pending;
  pending = [];
  lastFlush = now();
  hostLog(stringify(batch), truncated);
}
function log(prefix) {
  if (truncated) return;
  const budget = { left: left + 1 }, parts = [];
  for (let i = 1; i < arguments.length && budget.left > 0; i++) parts.push(render(arguments[i], budget, 0, [], true));
  let line = prefix + parts.join(" ");
  if (line.length > left) {
    line = line.slice(0, left > 0 ? left : 0) + "… [logs truncated: more than " + config.maxLogChars + " characters]";
    truncated = true;
  }
  left -= line.length;
  pending.push(line);
  if (truncated || pending.length >= FLUSH_LINES || now() - lastFlush > FLUSH_MS) flush();
}
const method = (prefix) => function () { const args = [prefix]; for (let i = 0; i < arguments.length; i++) args.push(arguments[i]); log.apply(undefined, args); };
const console = I.freeze({ __proto__: null, log: method(""), info: method(""), debug: method(""), warn: method("[warn] "), error: method("[error] ") });
return { renderError, fallback, log, flush, console };
})`;

/** Frozen `Date` and seeded `Math.random` (xmur3 hash of the seed feeding sfc32). */
const ENVIRONMENT_CHUNK = `(function (config) {
"use strict";
const RealDate = Date, epoch = config.epochMs, seed = config.randomSeed, toString = RealDate.prototype.toString;
const FrozenDate = function Date() {
  if (new.target === undefined) return toString.call(new RealDate(epoch));
  return arguments.length === 0 ? new RealDate(epoch) : new RealDate(...arguments);
};
FrozenDate.prototype = RealDate.prototype;
FrozenDate.now = function now() { return epoch; };
FrozenDate.parse = RealDate.parse; FrozenDate.UTC = RealDate.UTC;
Object.defineProperty(RealDate.prototype, "constructor", { value: FrozenDate, writable: true, configurable: true });
Object.defineProperty(globalThis, "Date", { value: FrozenDate, writable: true, configurable: true });
let h = 1779033703 ^ seed.length;
for (let i = 0; i < seed.length; i++) { h = Math.imul(h ^ seed.charCodeAt(i), 3432918353); h = (h << 13) | (h >>> 19); }
const next = () => { h = Math.imul(h ^ (h >>> 16), 2246822507); h = Math.imul(h ^ (h >>> 13), 3266489909); return (h ^= h >>> 16) >>> 0; };
let a = next(), b = next(), c = next(), d = next();
Math.random = function random() {
  a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
  let t = (a + b) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); d = (d + 1) | 0; t = (t + d) | 0; c = (c + t) | 0;
  return (t >>> 0) / 4294967296;
};
return {};
})`;

/** Chunks by name, compiled inside the sandbox on first use in a run. */
export const PRELUDE_CHUNKS: Readonly<Record<string, string>> = Object.freeze({
  plain: PLAIN_CHUNK,
  codec: CODEC_CHUNK,
  render: RENDER_CHUNK,
  environment: ENVIRONMENT_CHUNK,
});
