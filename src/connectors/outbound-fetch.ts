/**
 * Opt-in outbound network: the host's own `fetch` wrapped as a
 * built-in connector with one method, so every request a program makes is a
 * journaled call (replay returns the recorded response instead of repeating
 * the request) checked against an origin allowlist and, when the host asks for
 * it, held for approval. The sandbox-side `fetch` (a prelude of the runtime)
 * turns the recorded response into a Response-like object.
 *
 * Requests are plain data: an absolute http(s) URL, a method, the program's own
 * headers and a string body. Nothing of the host is added: no cookies, no
 * credentials, no headers, unless the host's `fetch` adds them itself.
 * Redirects are followed here, hop by hop, each hop checked against `allow`.
 * Response bodies are read as text (UTF-8).
 */
import { InvalidOptionError } from "../errors.js";
import { OutboundFetchError } from "../errors/outbound-fetch-error.js";
import { RedirectError } from "../errors/redirect-error.js";
import { messageOf } from "../shared/message-of.js";
import { fetchFollowingRedirects, MAX_REDIRECTS, type FollowedResponse } from "./follow-redirects.js";
import { originAllowed, parseOriginRule, type OriginRule } from "./outbound-origins.js";
import type { ArgumentValidation, Connector, ConnectorCallContext } from "./types.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option, type ResolvedOf } from "../shared/options/declare-options.js";
import { functionOption } from "../shared/options/option-checks.js";

/** Journal connector name of outbound requests (reserved when `outbound` is set). */
export const OUTBOUND_CONNECTOR = "outbound";
/** Journal method name of outbound requests: pending approvals read `outbound.fetch`. */
export const OUTBOUND_METHOD = "fetch";
/** Redirect hops followed per request (the web's limit). */
const OUTBOUND_MAX_REDIRECTS = MAX_REDIRECTS;

/** What `needsApproval` is asked about. */
interface OutboundRequestInfo {
  /** Upper-case HTTP method. */
  method: string;
  /** Absolute URL. */
  url: string;
}

/** The `outbound` option of `createCodemodeRuntime`. */
export interface OutboundFetchOptions {
  /** The host's `fetch` (e.g. `globalThis.fetch`, or one that goes through a proxy). Called host-side only. */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * Origins programs may reach: exact (`"https://api.example.com"`) or any
   * subdomain (`"https://*.example.com"`, not the apex). @default every http(s) origin
   */
  allow?: string[];
  /** Whether a request needs human approval (e.g. `(r) => r.method !== "GET"`). @default none does */
  needsApproval?: (request: OutboundRequestInfo) => boolean | Promise<boolean>;
  /**
   * URL query parameters and request headers (by name, any case) whose values traces may record. Every other
   * query value and every header value but a few harmless ones (`accept`, `content-type`, …) is recorded as
   * `[redacted]`, since a program may send a credential under any name. @default []
   */
  traceParams?: string[];
}

/** How each option of {@link OutboundFetchOptions} is checked and read. */
const OUTBOUND_OPTIONS = declareOptions<OutboundFetchOptions>()({
  fetch: option((value, path) => {
    if (typeof value !== "function")
      throw new InvalidOptionError({ path, message: "must be a fetch function (e.g. globalThis.fetch)" });
    return value as OutboundFetchOptions["fetch"];
  }),
  /** `undefined` allows every http(s) origin. */
  allow: option((value, path): OriginRule[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length === 0) {
      throw new InvalidOptionError({
        path,
        message: "must be a non-empty array of origins (omit it to allow every origin)",
      });
    }
    return value.map((entry, index) => parseOriginRule(entry, `${path}[${index}]`));
  }),
  needsApproval: functionOption<NonNullable<OutboundFetchOptions["needsApproval"]>>("({ method, url }) => boolean"),
  traceParams: option(resolveTraceParams),
});

/**
 * `OutboundFetchOptions` validated: the allowlist parsed, `traceParams` lower-case, and the longest response body
 * read, in characters (a longer one ends the read; the journal limit then fails the run).
 */
export type ResolvedOutboundFetchOptions = ResolvedOf<typeof OUTBOUND_OPTIONS.fields> & { maxBodyChars: number };

/** A request as journaled (after validation). */
interface OutboundRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response as journaled and handed to the sandbox. */
interface OutboundResponse {
  url: string;
  status: number;
  statusText: string;
  redirected: boolean;
  headers: Record<string, string>;
  body: string;
}

/** Validates the `outbound` option; errors name `path` (`outbound.allow[0]`, …). */
export function resolveOutboundFetchOptions(
  value: unknown,
  path: string,
  maxBodyChars: number,
): ResolvedOutboundFetchOptions {
  if (!isRecord(value))
    throw new InvalidOptionError({ path, message: "must be an object { fetch, allow?, needsApproval? }" });
  return { ...OUTBOUND_OPTIONS.resolve(value, path), maxBodyChars };
}

function resolveTraceParams(value: unknown, path: string): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || !value.every((name) => typeof name === "string" && name !== "")) {
    throw new InvalidOptionError({ path, message: "must be an array of parameter / header names (non-empty strings)" });
  }
  return new Set(value.map((name: string) => name.toLowerCase()));
}

/** The allowlist as the program is told it: `https://a.example, https://*.b.example`, or `any http(s) origin`. */
export function describeAllowedOrigins(allow: readonly OriginRule[] | undefined): string {
  return allow === undefined ? "any http(s) origin" : allow.map((rule) => rule.text).join(", ");
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

function deny(options: ResolvedOutboundFetchOptions, url: URL): string {
  return `fetch: ${url.origin} is not an allowed origin. Allowed origins: ${describeAllowedOrigins(options.allow)}.`;
}

function validateRequest(options: ResolvedOutboundFetchOptions, args: unknown): ArgumentValidation {
  if (!isRecord(args) || typeof args["url"] !== "string")
    return { success: false, error: "fetch(url, init?): url must be a string" };
  let url: URL;
  try {
    url = new URL(args["url"]);
  } catch {
    return {
      success: false,
      error: `fetch: ${JSON.stringify(args["url"])} is not an absolute URL (write it in full, e.g. "https://api.example.com/items")`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { success: false, error: `fetch: only http: and https: URLs can be fetched (got ${url.protocol})` };
  if (url.username !== "" || url.password !== "")
    return { success: false, error: "fetch: URLs with credentials (user:password@) are not allowed" };
  if (!originAllowed(options.allow, url)) return { success: false, error: deny(options, url) };
  const method = typeof args["method"] === "string" ? args["method"].toUpperCase() : "GET";
  if (!TOKEN.test(method) || FORBIDDEN_METHODS.has(method))
    return { success: false, error: `fetch: ${JSON.stringify(args["method"])} is not a usable HTTP method` };
  const headers: Record<string, string> = {};
  if (args["headers"] !== undefined) {
    if (!isRecord(args["headers"]))
      return { success: false, error: "fetch: init.headers must be an object of name → string value" };
    for (const [name, value] of Object.entries(args["headers"])) {
      if (!TOKEN.test(name) || typeof value !== "string" || /[\r\n\0]/.test(value)) {
        return {
          success: false,
          error: `fetch: header ${JSON.stringify(name)} must be a valid header name with a string value`,
        };
      }
      const key = name.toLowerCase();
      headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    }
  }
  const request: OutboundRequest = { url: url.href, method, headers };
  if (args["body"] !== undefined && args["body"] !== null) {
    if (typeof args["body"] !== "string")
      return { success: false, error: "fetch: init.body must be a string (use JSON.stringify(value) for JSON)" };
    if (method === "GET" || method === "HEAD")
      return { success: false, error: `fetch: a ${method} request cannot have a body` };
    request.body = args["body"];
  }
  return { success: true, value: request };
}

async function readBody(response: Response, maxChars: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return text + decoder.decode();
    text += decoder.decode(chunk.value, { stream: true });
    if (text.length > maxChars) {
      // Longer than the journal can hold: stop reading; the journal's limit fails the run with its advice.
      await reader.cancel().catch(() => undefined);
      return text.slice(0, maxChars + 1);
    }
  }
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

async function perform(
  options: ResolvedOutboundFetchOptions,
  request: OutboundRequest,
  context: ConnectorCallContext,
): Promise<OutboundResponse> {
  let followed: FollowedResponse;
  try {
    followed = await fetchFollowingRedirects({
      fetch: options.fetch,
      url: new URL(request.url),
      method: request.method,
      body: request.body,
      // The program's own headers on every hop: the host adds nothing.
      headersFor: () => request.headers,
      refuseHop: (next, from) =>
        originAllowed(options.allow, next)
          ? undefined
          : `${from.href} redirected to ${next.origin}, which is not an allowed origin. Allowed origins: ${describeAllowedOrigins(options.allow)}.`,
      signal: context.abortSignal,
      maxRedirects: OUTBOUND_MAX_REDIRECTS,
    });
  } catch (error) {
    if (RedirectError.isInstance(error))
      throw new OutboundFetchError({ message: `fetch: ${error.message}`, cause: error });
    // The host's own fetch failed (a network error, an abort): the program sees its message, from our hierarchy.
    throw new OutboundFetchError({ message: messageOf(error), cause: error });
  }
  const { response, url, redirected } = followed;
  return {
    url: url.href,
    status: response.status,
    statusText: response.statusText,
    redirected,
    headers: headerRecord(response.headers),
    body: await readBody(response, options.maxBodyChars),
  };
}

/**
 * Builds the built-in connector behind the sandbox's `fetch`: method
 * `fetch` validates the request (absolute http(s) URL, allowed origin, method,
 * string headers and body), asks `needsApproval`, and calls the host's
 * `fetch` host-side. Its result is the response as data.
 */
export function outboundFetchConnector(options: ResolvedOutboundFetchOptions): Connector {
  const { needsApproval } = options;
  return {
    description: `HTTP requests from programs through the global fetch (allowed origins: ${describeAllowedOrigins(options.allow)}).`,
    methods: {
      [OUTBOUND_METHOD]: {
        description: "An HTTP request; the program calls the global fetch(url, init?) instead.",
        validate: (args) => validateRequest(options, args),
        ...(needsApproval === undefined
          ? {}
          : {
              needsApproval: (args: unknown) => {
                const request = args as OutboundRequest;
                return needsApproval({ method: request.method, url: request.url });
              },
            }),
        execute: (args, context) => perform(options, args as OutboundRequest, context),
      },
    },
  };
}

/** What `search` and `describe` show for the global `fetch`. */
export interface OutboundFetchEntry {
  /** `fetch`. */
  name: string;
  description: string;
  /** A TypeScript declaration of the global `fetch` as the program sees it. */
  types: string;
  /** Words searched as parameter names. */
  params: string[];
}

/** The search/describe entry of the sandbox's global `fetch` for this allowlist. */
export function outboundFetchEntry(allow: readonly OriginRule[] | undefined): OutboundFetchEntry {
  const description = `HTTP request (web fetch) to ${describeAllowedOrigins(allow)}, made by the host and journaled: a resumed run gets the recorded response. Bodies are text; send JSON with JSON.stringify.`;
  const types = [
    `/** ${description} */`,
    "declare function fetch(url: string, init?: {",
    '  /** @default "GET" */',
    "  method?: string;",
    "  headers?: Record<string, string> | Array<[string, string]>;",
    "  /** A string (JSON.stringify for JSON); not allowed on GET/HEAD. */",
    "  body?: string;",
    "}): Promise<FetchResponse>;",
    "interface FetchResponse {",
    "  status: number;",
    "  ok: boolean;",
    "  statusText: string;",
    "  url: string;",
    "  redirected: boolean;",
    "  headers: { get(name: string): string | null; has(name: string): boolean; forEach(fn: (value: string, name: string) => void): void };",
    "  text(): Promise<string>;",
    "  json(): Promise<any>;",
    "  clone(): FetchResponse;",
    "}",
  ].join("\n");
  return {
    name: "fetch",
    description,
    types,
    params: ["url", "method", "headers", "body", "http", "request", "api", "web"],
  };
}
