/**
 * The sandbox half of opt-in outbound `fetch`: one line of statements placed
 * before the program (after the `codemode` prelude) that defines a global
 * `fetch(input, init?)` over the host namespace's `fetch` function (a journaled
 * call of the built-in `outbound` connector) and wraps the recorded response in
 * a Response-like object: `status`, `ok`, `statusText`, `url`, `redirected`,
 * `headers.get/has/forEach/entries`, `text()`, `json()`, `clone()`.
 * Only present when the runtime has the `outbound` option.
 */
import { overHost } from "./codemode-prelude.js";

/** The prelude line defining `fetch` in the sandbox. */
export function fetchPrelude(): string {
  return overHost([
    "var lower = function (name) { return String(name).toLowerCase(); };",
    // init.headers: a plain object, an array of [name, value] pairs, or anything with forEach(value, name) (a Headers-like).
    "var headerObject = function (headers) {",
    "var out = {}; if (headers === undefined || headers === null) return out;",
    "var add = function (name, value) { var key = lower(name); out[key] = out[key] === undefined ? String(value) : out[key] + ', ' + String(value); };",
    "if (Array.isArray(headers)) { headers.forEach(function (pair) { add(pair[0], pair[1]); }); return out; }",
    "if (typeof headers.forEach === 'function') { headers.forEach(function (value, name) { add(name, value); }); return out; }",
    "Object.keys(headers).forEach(function (name) { add(name, headers[name]); }); return out;",
    "};",
    "var makeHeaders = function (record) {",
    "var names = Object.keys(record).sort();",
    "var h = {",
    "get: function (name) { var v = record[lower(name)]; return v === undefined ? null : v; },",
    "has: function (name) { return record[lower(name)] !== undefined; },",
    "forEach: function (fn) { names.forEach(function (n) { fn(record[n], n, h); }); },",
    "entries: function () { return names.map(function (n) { return [n, record[n]]; })[Symbol.iterator](); },",
    "keys: function () { return names.slice()[Symbol.iterator](); },",
    "values: function () { return names.map(function (n) { return record[n]; })[Symbol.iterator](); }",
    "};",
    "h[Symbol.iterator] = h.entries;",
    "return Object.freeze(h);",
    "};",
    "var makeResponse = function (r) {",
    "var used = false;",
    "var read = function () { if (used) return Promise.reject(new TypeError('fetch: the response body was already read (use response.clone())')); used = true; return Promise.resolve(r.body); };",
    "return Object.freeze({",
    "status: r.status, statusText: r.statusText, ok: r.status >= 200 && r.status < 300, url: r.url, redirected: r.redirected, type: 'basic',",
    "headers: makeHeaders(r.headers),",
    "get bodyUsed() { return used; },",
    "text: function () { return read(); },",
    "json: function () { return read().then(function (text) { try { return JSON.parse(text); } catch (error) {",
    "throw new SyntaxError('fetch: the response body of ' + r.url + ' (status ' + r.status + ') is not JSON: ' + JSON.stringify(text.slice(0, 200))); } }); },",
    "clone: function () { if (used) throw new TypeError('fetch: cannot clone a response whose body was read'); return makeResponse(r); }",
    "});",
    "};",
    "var fetch = async function fetch(input, init) {",
    "var request = input !== null && typeof input === 'object' ? input : {};",
    "var url = typeof input === 'string' ? input : typeof request.href === 'string' ? request.href : typeof request.url === 'string' ? request.url : String(input);",
    "var options = init === undefined || init === null ? {} : init;",
    "var method = options.method !== undefined ? options.method : request.method !== undefined ? request.method : 'GET';",
    "var args = { url: url, method: String(method).toUpperCase(), headers: headerObject(options.headers !== undefined ? options.headers : request.headers) };",
    "if (options.body !== undefined && options.body !== null) {",
    "if (typeof options.body !== 'string') throw new TypeError('fetch: init.body must be a string (use JSON.stringify(value) for JSON)');",
    "args.body = options.body;",
    "}",
    "return makeResponse(await host.fetch(args));",
    "};",
    "Object.defineProperty(globalThis, 'fetch', { value: fetch, enumerable: false, writable: false, configurable: false });",
  ]);
}
