// @ts-check
/**
 * The sandbox half of the durable runtime's opt-in outbound `fetch`: a global `fetch(input, init?)` over the host
 * namespace's `fetch` (a journaled call of the built-in `outbound` connector) that wraps the recorded response in a
 * Response-like object: `status`, `ok`, `statusText`, `url`, `redirected`, `headers.get/has/forEach/entries/keys/
 * values`, `text()`, `json()`, `clone()`. The runtime passes it as a lazy global (`CodeRunRequest.lazyGlobals`)
 * only when it has the `outbound` option: compiled only in a run that reads `fetch`.
 */
import { HOST_NAMESPACE } from "../../shared/host-namespace.js";

/**
 * A response as the outbound connector records it.
 *
 * @typedef {object} RecordedResponse
 * @property {number} status
 * @property {string} statusText
 * @property {string} url
 * @property {boolean} redirected
 * @property {Record<string, string>} headers lower-case names
 * @property {string} body
 */

/**
 * @typedef {{ fetch: (request: { url: string, method: string, headers: Record<string, string>, body?: string }) => Promise<RecordedResponse> }} FetchHost
 */

/**
 * @param {typeof globalThis} global the run's global object
 */
export function createFetchGlobal(global) {
  const host = /** @type {FetchHost} */ (/** @type {Record<string, unknown>} */ (global)[HOST_NAMESPACE]);
  const { Object: ObjectClass, Array: ArrayClass, String: toText, Promise: PromiseClass, JSON: json } = global;
  const { TypeError: TypeErrorClass, SyntaxError: SyntaxErrorClass } = global;

  /** @param {unknown} name */
  const lower = (name) => toText(name).toLowerCase();

  /**
   * `init.headers`: a plain object, an array of [name, value] pairs, or anything with `forEach(value, name)` (a
   * Headers-like), as one object of lower-case names (repeated names joined with ", ").
   *
   * @param {any} headers
   * @returns {Record<string, string>}
   */
  const headerObject = (headers) => {
    /** @type {Record<string, string>} */
    const out = {};
    if (headers === undefined || headers === null) return out;
    /**
     * @param {unknown} name
     * @param {unknown} value
     */
    const add = (name, value) => {
      const key = lower(name);
      out[key] = out[key] === undefined ? toText(value) : out[key] + ", " + toText(value);
    };
    if (ArrayClass.isArray(headers)) {
      headers.forEach((/** @type {unknown[]} */ pair) => {
        add(pair[0], pair[1]);
      });
      return out;
    }
    if (typeof headers.forEach === "function") {
      headers.forEach((/** @type {unknown} */ value, /** @type {unknown} */ name) => {
        add(name, value);
      });
      return out;
    }
    for (const name of ObjectClass.keys(headers)) add(name, headers[name]);
    return out;
  };

  /**
   * @param {Record<string, string>} record
   */
  const makeHeaders = (record) => {
    const names = ObjectClass.keys(record).sort();
    const entries = () => names.map((name) => [name, record[name]])[Symbol.iterator]();
    const headers = {
      /** @param {unknown} name */
      get: (name) => {
        const value = record[lower(name)];
        return value === undefined ? null : value;
      },
      /** @param {unknown} name */
      has: (name) => record[lower(name)] !== undefined,
      /** @param {(value: string, name: string, headers: object) => void} callback */
      forEach: (callback) => {
        for (const name of names) callback(/** @type {string} */ (record[name]), name, headers);
      },
      entries,
      keys: () => names.slice()[Symbol.iterator](),
      values: () => names.map((name) => record[name])[Symbol.iterator](),
      [Symbol.iterator]: entries,
    };
    return ObjectClass.freeze(headers);
  };

  /**
   * @param {RecordedResponse} recorded
   * @returns {object}
   */
  const makeResponse = (recorded) => {
    let used = false;
    const read = () => {
      if (used) {
        return PromiseClass.reject(
          new TypeErrorClass("fetch: the response body was already read (use response.clone())"),
        );
      }
      used = true;
      return PromiseClass.resolve(recorded.body);
    };
    return ObjectClass.freeze({
      status: recorded.status,
      statusText: recorded.statusText,
      ok: recorded.status >= 200 && recorded.status < 300,
      url: recorded.url,
      redirected: recorded.redirected,
      type: "basic",
      headers: makeHeaders(recorded.headers),
      get bodyUsed() {
        return used;
      },
      text: () => read(),
      json: () =>
        read().then((text) => {
          try {
            return json.parse(text);
          } catch {
            throw new SyntaxErrorClass(
              "fetch: the response body of " +
                recorded.url +
                " (status " +
                recorded.status +
                ") is not JSON: " +
                json.stringify(text.slice(0, 200)),
            );
          }
        }),
      clone: () => {
        if (used) throw new TypeErrorClass("fetch: cannot clone a response whose body was read");
        return makeResponse(recorded);
      },
    });
  };

  /**
   * @param {unknown} input a URL string, or an object with `href` (a URL) or `url` (a Request-like)
   * @param {{ method?: unknown, headers?: unknown, body?: unknown } | null} [init]
   */
  return async function fetch(input, init) {
    const request = /** @type {{ href?: unknown, url?: unknown, method?: unknown, headers?: unknown }} */ (
      input !== null && typeof input === "object" ? input : {}
    );
    const url =
      typeof input === "string"
        ? input
        : typeof request.href === "string"
          ? request.href
          : typeof request.url === "string"
            ? request.url
            : toText(input);
    const options = init === undefined || init === null ? {} : init;
    const method =
      options.method !== undefined ? options.method : request.method !== undefined ? request.method : "GET";
    /** @type {{ url: string, method: string, headers: Record<string, string>, body?: string }} */
    const args = {
      url,
      method: toText(method).toUpperCase(),
      headers: headerObject(options.headers !== undefined ? options.headers : request.headers),
    };
    if (options.body !== undefined && options.body !== null) {
      if (typeof options.body !== "string") {
        throw new TypeErrorClass("fetch: init.body must be a string (use JSON.stringify(value) for JSON)");
      }
      args.body = options.body;
    }
    return makeResponse(await host.fetch(args));
  };
}
