/**
 * Builds the HTTP request of one operation from the program's input object: path
 * parameters substituted into the template, query and cookie parameters serialized by
 * their `style`/`explode`, header parameters as headers, the request body encoded by
 * its media type. Host headers are added by the caller, after these.
 *
 * A request never leaves the operation's path: a path parameter that would make a segment
 * empty or a dot segment (`.`, `..`, `%2e`, `%2E%2E`: URL parsing resolves them, so
 * `{ owner: "..", repo: ".." }` would climb out of the base URL) is refused with an
 * `UnsafeRequestError` before anything is asked or sent.
 */
import type { OpenApiOperation } from "./collect-operations.js";
import type { OpenApiParameter } from "./operation-input.js";
import { UnsafeRequestError } from "../../errors/unsafe-request-error.js";
import { isRecord } from "../../shared/is-record.js";

/** A request ready for `fetch`, minus the host's own headers. */
export interface BuiltRequest {
  url: URL;
  headers: Record<string, string>;
  body?: BodyInit;
}

type Input = Record<string, unknown>;

function isInput(value: unknown): value is Input {
  return isRecord(value) && !(value instanceof Uint8Array);
}

/** A segment URL parsing treats as `.` or `..` (WHATWG URL: `%2e` counts as a dot, in any case). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Lone surrogates become U+FFFD, as `URLSearchParams` does, so `encodeURIComponent` never throws. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/** `style: simple` (path and header): `a,b,c`; objects `k,v,k2,v2`, exploded `k=v,k2=v2`. */
function simple(value: unknown, explode: boolean, encode: (text: string) => string): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item))).join(",");
  if (isInput(value)) {
    return Object.entries(value)
      .map(([key, item]) =>
        explode ? `${encode(scalar(key))}=${encode(scalar(item))}` : `${encode(scalar(key))},${encode(scalar(item))}`,
      )
      .join(",");
  }
  return encode(scalar(value));
}

function pathValue(parameter: OpenApiParameter, value: unknown): string {
  const encoded = simple(value, parameter.explode, encodeURIComponent);
  if (parameter.style === "label") return `.${parameter.explode ? encoded.replaceAll(",", ".") : encoded}`;
  if (parameter.style === "matrix") {
    if (Array.isArray(value) && parameter.explode) {
      return value.map((item) => `;${parameter.name}=${encodeURIComponent(scalar(item))}`).join("");
    }
    if (isInput(value) && parameter.explode) return `;${encoded.replaceAll(",", ";")}`;
    return `;${parameter.name}=${encoded}`;
  }
  return encoded;
}

/** Appends a query parameter by its style: form (default), spaceDelimited, pipeDelimited, deepObject. */
function appendQuery(search: URLSearchParams, parameter: OpenApiParameter, value: unknown): void {
  const { name, style, explode } = parameter;
  if (Array.isArray(value)) {
    if (style === "form" && explode) for (const item of value) search.append(name, scalar(item));
    else
      search.append(
        name,
        value.map(scalar).join(style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ","),
      );
    return;
  }
  if (isInput(value)) {
    if (style === "deepObject")
      for (const [key, item] of Object.entries(value)) search.append(`${name}[${key}]`, scalar(item));
    else if (explode) for (const [key, item] of Object.entries(value)) search.append(key, scalar(item));
    else
      search.append(
        name,
        Object.entries(value)
          .flatMap(([key, item]) => [key, scalar(item)])
          .join(","),
      );
    return;
  }
  search.append(name, scalar(value));
}

function toBlob(bytes: Uint8Array | ArrayBuffer): Blob {
  return new Blob([bytes instanceof ArrayBuffer ? bytes : new Uint8Array(bytes)]);
}

function encodeBody(encoding: string, value: unknown): BodyInit {
  switch (encoding) {
    case "json":
      return JSON.stringify(value);
    case "form": {
      const form = new URLSearchParams();
      if (isInput(value)) {
        for (const [key, item] of Object.entries(value)) {
          if (item === undefined) continue;
          if (Array.isArray(item)) for (const entry of item) form.append(key, scalar(entry));
          else form.append(key, scalar(item));
        }
      }
      return form;
    }
    case "multipart": {
      const form = new FormData();
      if (isInput(value)) {
        for (const [key, item] of Object.entries(value)) {
          if (item === undefined) continue;
          if (item instanceof Uint8Array || item instanceof ArrayBuffer) form.append(key, toBlob(item));
          else form.append(key, scalar(item));
        }
      }
      return form;
    }
    case "text":
      return scalar(value);
    default:
      if (value instanceof Uint8Array || value instanceof ArrayBuffer) return toBlob(value);
      return scalar(value);
  }
}

/**
 * Substitutes the path parameters segment by segment, refusing a segment that a parameter
 * made empty or a dot segment. Encoded values hold no `/`, so segments stay aligned with
 * the template's.
 */
function expandPath(operation: OpenApiOperation, input: Input): string {
  const template = operation.info.path;
  return template
    .split("/")
    .map((segment, index) => {
      let expanded = segment;
      const used: string[] = [];
      for (const parameter of operation.parameters) {
        if (parameter.in !== "path" || !segment.includes(`{${parameter.name}}`)) continue;
        const value = input[parameter.key];
        if (value === undefined) continue;
        used.push(parameter.key);
        expanded = expanded.replaceAll(`{${parameter.name}}`, pathValue(parameter, value));
      }
      if (index === 0 || used.length === 0 || (expanded !== "" && !DOT_SEGMENT.test(expanded))) return expanded;
      const names = used.join(" and ");
      const what = expanded === "" ? "empty" : `the dot segment ${JSON.stringify(expanded)}`;
      throw new UnsafeRequestError(
        `${operation.info.method.toUpperCase()} ${template}: path parameter ${names} would make a path segment ${what}, ` +
          'which would send the request outside this operation\'s path. Pass the actual non-empty value (not "." or "..").',
      );
    })
    .join("/");
}

/** Joins the base URL (whose own path is kept) and the expanded path, checking that URL parsing kept every segment. */
function joinUrl(baseUrl: string, path: string, operation: OpenApiOperation): URL {
  const base = new URL(baseUrl);
  const prefix = base.pathname.endsWith("/") ? base.pathname.slice(0, -1) : base.pathname;
  base.pathname = `${prefix}${path}`;
  // Belt and braces: the parser must not have dropped or merged a segment.
  if (base.pathname.split("/").length !== `${prefix}${path}`.split("/").length) {
    throw new UnsafeRequestError(
      `${operation.info.method.toUpperCase()} ${operation.info.path}: the path parameters change the request's path; pass their actual values.`,
    );
  }
  return base;
}

/** Builds the request for `input` (already validated against the method's input schema). */
export function buildRequest(operation: OpenApiOperation, input: Input, baseUrl: string): BuiltRequest {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const search = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const value = input[parameter.key];
    if (value === undefined) continue;
    switch (parameter.in) {
      case "query":
        appendQuery(search, parameter, value);
        break;
      case "header":
        headers[parameter.name.toLowerCase()] = simple(value, parameter.explode, (text) => text);
        break;
      case "cookie":
        cookies.push(`${parameter.name}=${encodeURIComponent(simple(value, false, (text) => text))}`);
        break;
    }
  }
  const url = joinUrl(baseUrl, expandPath(operation, input), operation);
  for (const [name, value] of search) url.searchParams.append(name, value);
  if (cookies.length > 0) headers["cookie"] = cookies.join("; ");
  if (operation.accept !== undefined) headers["accept"] = operation.accept;
  const request: BuiltRequest = { url, headers };
  const body = operation.body;
  if (body !== undefined && input[body.key] !== undefined) {
    request.body = encodeBody(body.encoding, input[body.key]);
    // FormData sets its own multipart boundary; URLSearchParams its own type too.
    if (body.encoding !== "multipart" && body.encoding !== "form")
      headers["content-type"] = body.mediaType.includes("*") ? "application/json" : body.mediaType;
  }
  return request;
}
