/**
 * JavaScript evaluated inside each fresh QuickJS context before the program. It mirrors the
 * codec (`codec.ts`) inside the sandbox, installs the binding namespaces (null prototypes),
 * the captured `console` (capped inside the sandbox), and the deterministic `Date` /
 * `Math.random` when an environment is given.
 *
 * Host functions arrive as arguments: `hostCall(ns, fn, json) → id`, `hostLog(text)`,
 * `hostReport(kind, text)`. It evaluates to `{ settle, complete, fail }` used by the session.
 * Everything it relies on is captured before the program runs, so a program that tampers
 * with globals only hurts itself; the host validates every tree it receives regardless.
 */
export const SANDBOX_PRELUDE = String.raw`(function (config, hostCall, hostLog, hostReport) {
"use strict";
const G = globalThis, O = Object, A = Array, J = JSON, S = String;
const isArray = A.isArray, keys = O.keys, getProto = O.getPrototypeOf, defineProperty = O.defineProperty;
const hasOwn = O.prototype.hasOwnProperty, objectProto = O.prototype;
const stringify = J.stringify, parse = J.parse, fromCharCode = S.fromCharCode;
const RealDate = G.Date, RealMap = G.Map, RealSet = G.Set, RealU8 = G.Uint8Array, RealAB = G.ArrayBuffer, RealError = G.Error, RealPromise = G.Promise;
const dateGetTime = RealDate.prototype.getTime, dateISO = RealDate.prototype.toISOString, dateToString = RealDate.prototype.toString;
const mapEntries = RealMap.prototype.entries, setValues = RealSet.prototype.values;
const mapSet = RealMap.prototype.set, setAdd = RealSet.prototype.add;
const mapSize = O.getOwnPropertyDescriptor(RealMap.prototype, "size").get, setSize = O.getOwnPropertyDescriptor(RealSet.prototype, "size").get;
const promiseThen = RealPromise.prototype.then, promiseResolve = RealPromise.resolve;
const identifier = /^[A-Za-z_$][\w$]*$/;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BOUNDARY = "cannot cross the sandbox boundary";
function child(path, k) { return identifier.test(k) ? path + "." + k : path + "[" + stringify(k) + "]"; }
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
  const clean = text.replace(/=+$/, "");
  const out = new RealU8((clean.length * 3) >> 2);
  let bits = 0, count = 0, j = 0;
  for (let i = 0; i < clean.length; i++) {
    bits = (bits << 6) | B64.indexOf(clean[i]); count += 6;
    if (count >= 8) { count -= 8; out[j++] = (bits >> count) & 255; }
  }
  return out;
}
function unsupported(value, path) {
  if (typeof value === "function") return new TypeError(path + ": functions " + BOUNDARY);
  if (typeof value === "symbol") return new TypeError(path + ": symbols " + BOUNDARY);
  const ctor = value.constructor, name = ctor && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name + " instances" : "objects with a custom prototype";
  return new TypeError(path + ": " + name + " " + BOUNDARY + " (supported: JSON values, undefined, Date, Uint8Array, ArrayBuffer, Map, Set, BigInt)");
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
    case "bigint": return { $: "bigint", v: S(value) };
    case "undefined": return { $: "undefined" };
    case "function": case "symbol": throw unsupported(value, path);
  }
  if (value === null) return null;
  if (seen.indexOf(value) !== -1) throw new TypeError(path + ": cycles " + BOUNDARY + " (the value refers to itself)");
  if (seen.length >= 2000) throw new TypeError(path + ": values nested deeper than 2000 levels " + BOUNDARY);
  seen.push(value);
  try {
    if (isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) out[i] = encode(value[i], path + "[" + i + "]", seen);
      return out;
    }
    if (value instanceof RealDate) { const t = dateGetTime.call(value); return { $: "date", v: t !== t ? null : t }; }
    if (value instanceof RealU8) return { $: "bytes", v: toBase64(value) };
    if (value instanceof RealAB) return { $: "arraybuffer", v: toBase64(new RealU8(value)) };
    if (value instanceof RealMap) {
      const out = []; let i = 0;
      for (const entry of { [Symbol.iterator]: () => mapEntries.call(value) }) {
        out.push([encode(entry[0], path + ".<key " + i + ">", seen), encode(entry[1], path + ".<value " + i + ">", seen)]); i++;
      }
      return { $: "map", v: out };
    }
    if (value instanceof RealSet) {
      const out = []; let i = 0;
      for (const item of { [Symbol.iterator]: () => setValues.call(value) }) out.push(encode(item, path + ".<item " + i++ + ">", seen));
      return { $: "set", v: out };
    }
    const proto = getProto(value);
    if (proto !== objectProto && proto !== null) throw unsupported(value, path);
    const out = {};
    const ks = keys(value);
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i];
      defineProperty(out, k, { value: encode(value[k], child(path, k), seen), enumerable: true, writable: true, configurable: true });
    }
    return hasOwn.call(out, "$") ? { $: "object", v: out } : out;
  } finally { seen.pop(); }
}
function decode(tree) {
  if (tree === null || typeof tree !== "object") return tree;
  if (isArray(tree)) { const out = []; for (let i = 0; i < tree.length; i++) out[i] = decode(tree[i]); return out; }
  if (!hasOwn.call(tree, "$")) return decodeFields(tree);
  const v = tree.v;
  switch (tree.$) {
    case "undefined": return undefined;
    case "number": return v === "-0" ? -0 : +v;
    case "bigint": return BigInt(v);
    case "date": return new RealDate(v === null ? NaN : v);
    case "bytes": return fromBase64(v);
    case "arraybuffer": return fromBase64(v).buffer;
    case "map": { const m = new RealMap(); for (let i = 0; i < v.length; i++) mapSet.call(m, decode(v[i][0]), decode(v[i][1])); return m; }
    case "set": { const s = new RealSet(); for (let i = 0; i < v.length; i++) setAdd.call(s, decode(v[i])); return s; }
    default: return decodeFields(v);
  }
}
function decodeFields(tree) {
  const out = {}, ks = keys(tree);
  for (let i = 0; i < ks.length; i++) defineProperty(out, ks[i], { value: decode(tree[ks[i]]), enumerable: true, writable: true, configurable: true });
  return out;
}
// Readable rendering for logs, errors and completion values that cannot cross. Bounded by a character budget.
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
  if (value instanceof RealDate) { const t = dateGetTime.call(value); return t !== t ? "Invalid Date" : dateISO.call(value); }
  if (value instanceof RealError) return renderError(value, budget, false);
  if (depth > 4) return isArray(value) ? "[Array]" : "[Object]";
  seen.push(value);
  try {
    const parts = [];
    const add = (text) => { parts.push(text); return budget.left > 0 && parts.length <= 100; };
    let open = "{", close = "}";
    if (isArray(value)) {
      open = "["; close = "]";
      for (let i = 0; i < value.length && add(render(value[i], budget, depth + 1, seen, false)); i++);
    } else if (value instanceof RealMap) {
      open = "Map(" + mapSize.call(value) + ") {";
      for (const e of { [Symbol.iterator]: () => mapEntries.call(value) }) if (!add(render(e[0], budget, depth + 1, seen, false) + " => " + render(e[1], budget, depth + 1, seen, false))) break;
    } else if (value instanceof RealSet) {
      open = "Set(" + setSize.call(value) + ") {";
      for (const item of { [Symbol.iterator]: () => setValues.call(value) }) if (!add(render(item, budget, depth + 1, seen, false))) break;
    } else if (value instanceof RealU8) {
      open = "Uint8Array(" + value.length + ") [" ; close = "]";
      for (let i = 0; i < value.length && add(S(value[i])); i++);
    } else if (value instanceof RealAB) {
      return "ArrayBuffer { byteLength: " + value.byteLength + " }";
    } else {
      const proto = getProto(value), ctor = proto && proto.constructor;
      if (proto !== objectProto && proto !== null && ctor && typeof ctor.name === "string" && ctor.name) open = ctor.name + " {";
      const ks = keys(value);
      for (let i = 0; i < ks.length; i++) {
        const k = ks[i];
        if (!add((identifier.test(k) ? k : stringify(k)) + ": " + render(value[k], budget, depth + 1, seen, false))) break;
      }
    }
    if (parts.length === 0) return open + close;
    return open + " " + parts.join(", ") + " " + close;
  } finally { seen.pop(); }
}
function renderError(error, budget, withLine) {
  try {
    if (error instanceof RealError || (error !== null && typeof error === "object" && typeof error.message === "string")) {
      let text = S(error.name || "Error") + ": " + S(error.message);
      const at = /program\.js:(\d+)/.exec(S(error.stack || ""));
      if (at && withLine) text += " (line " + at[1] + ")";
      return text;
    }
    return "Uncaught " + render(error, budget || { left: 2000 }, 0, [], false);
  } catch (failure) {
    return "Uncaught exception that could not be rendered";
  }
}
// console: captured in order, capped inside the sandbox.
let logLeft = config.maxLogChars, logTruncated = false;
function logger(prefix) {
  return function () {
    if (logTruncated) return;
    const budget = { left: logLeft + 1 };
    const parts = [];
    for (let i = 0; i < arguments.length && budget.left > 0; i++) parts.push(render(arguments[i], budget, 0, [], true));
    let line = prefix + parts.join(" ");
    if (line.length > logLeft) {
      line = line.slice(0, logLeft > 0 ? logLeft : 0) + "… [logs truncated: more than " + config.maxLogChars + " characters]";
      logTruncated = true;
    }
    logLeft -= line.length;
    hostLog(line);
  };
}
const consoleObject = O.create(null);
consoleObject.log = logger(""); consoleObject.info = logger(""); consoleObject.debug = logger("");
consoleObject.warn = logger("[warn] "); consoleObject.error = logger("[error] ");
defineProperty(G, "console", { value: O.freeze(consoleObject), writable: true, configurable: true });
// Deterministic Date and Math.random.
if (config.epochMs !== undefined) {
  const epoch = config.epochMs;
  const FrozenDate = function Date() {
    if (new.target === undefined) return dateToString.call(new RealDate(epoch));
    return arguments.length === 0 ? new RealDate(epoch) : new RealDate(...arguments);
  };
  FrozenDate.prototype = RealDate.prototype;
  FrozenDate.now = function now() { return epoch; };
  FrozenDate.parse = RealDate.parse; FrozenDate.UTC = RealDate.UTC;
  defineProperty(RealDate.prototype, "constructor", { value: FrozenDate, writable: true, configurable: true });
  defineProperty(G, "Date", { value: FrozenDate, writable: true, configurable: true });
}
if (config.randomSeed !== undefined) {
  // xmur3 hash of the seed string feeding sfc32.
  let h = 1779033703 ^ config.randomSeed.length;
  for (let i = 0; i < config.randomSeed.length; i++) { h = Math.imul(h ^ config.randomSeed.charCodeAt(i), 3432918353); h = (h << 13) | (h >>> 19); }
  const next = () => { h = Math.imul(h ^ (h >>> 16), 2246822507); h = Math.imul(h ^ (h >>> 13), 3266489909); return (h ^= h >>> 16) >>> 0; };
  let a = next(), b = next(), c = next(), d = next();
  Math.random = function random() {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0; a = b ^ (b >>> 9); b = (c + (c << 3)) | 0; c = (c << 21) | (c >>> 11); d = (d + 1) | 0; t = (t + d) | 0; c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
// Bindings: one null-prototype global per namespace; calls go to the host by index.
const pending = new RealMap();
const mapGet = RealMap.prototype.get, mapDelete = RealMap.prototype.delete;
function makeMember(ns, fn, label) {
  return function (args) {
    let json;
    try { json = stringify(encode(args, label, [])); }
    catch (error) { return RealPromise.reject(error instanceof RealError ? error : new TypeError(S(error))); }
    const id = hostCall(ns, fn, json);
    return new RealPromise((resolve, reject) => { mapSet.call(pending, id, { resolve, reject }); });
  };
}
for (let ns = 0; ns < config.bindings.length; ns++) {
  const binding = config.bindings[ns], target = O.create(null);
  for (let fn = 0; fn < binding[1].length; fn++) {
    const name = binding[1][fn];
    defineProperty(target, name, { value: makeMember(ns, fn, child(binding[0], name) + " arguments"), enumerable: true });
  }
  defineProperty(G, binding[0], { value: O.freeze(target), enumerable: false, writable: false, configurable: false });
}
function settle(id, ok, text) {
  const entry = mapGet.call(pending, id);
  if (entry === undefined) return;
  mapDelete.call(pending, id);
  if (!ok) { entry.reject(new RealError(text)); return; }
  let value;
  try { value = decode(parse(text)); } catch (error) { entry.reject(new TypeError("the host result could not be read: " + S(error))); return; }
  entry.resolve(value);
}
function finishValue(value) {
  let json;
  try { json = stringify(encode(value, "result", [])); }
  catch (error) {
    let text;
    try { text = render(value, { left: 100000 }, 0, [], true); } catch (again) { text = "[result could not be rendered]"; }
    hostReport(1, text + " (the result was rendered as a string: " + (error && error.message ? error.message : S(error)) + ")");
    return;
  }
  hostReport(0, json);
}
function complete(result) {
  promiseThen.call(promiseResolve.call(RealPromise, result), finishValue, (error) => hostReport(2, renderError(error, undefined, true)));
}
function fail(error) { hostReport(2, renderError(error, undefined, true)); }
return { settle, complete, fail };
})`;
