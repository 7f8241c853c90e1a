/**
 * Follows HTTP redirects hop by hop with `redirect: "manual"`, so the caller decides, for
 * every hop, whether the next URL may be reached and which headers go there. Shared by the
 * outbound `fetch` (each hop checked against the origin allowlist) and the OpenAPI
 * connector (credentials sent to the configured origin only). A `fetch` left to follow
 * redirects itself would forward every header but `Authorization`/`Cookie` to any origin.
 */
import { RedirectError } from "../errors/redirect-error.js";

/** Redirect hops followed per request (the web's limit). */
export const MAX_REDIRECTS = 20;

/** Statuses that redirect when a `Location` header is present. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a body: dropped with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set([
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
]);

/** One request of the chain, as sent. */
export interface RedirectHop {
  url: URL;
  method: string;
}

/** Options of `fetchFollowingRedirects`. */
export interface FollowRedirectsOptions {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  url: URL;
  /** Upper-case HTTP method. */
  method: string;
  body?: BodyInit | undefined;
  /** The headers of one hop (e.g. credentials only for the configured origin). */
  headersFor: (hop: RedirectHop) => Record<string, string>;
  /** Why the chain may not go on to `next` (an error message), or `undefined` to follow it. */
  refuseHop?: (next: URL, from: URL) => string | undefined;
  signal?: AbortSignal | undefined;
  /** @default MAX_REDIRECTS */
  maxRedirects?: number;
}

/** The final (non-redirect) response and where it came from. */
export interface FollowedResponse {
  response: Response;
  url: URL;
  redirected: boolean;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!BODY_HEADERS.has(name.toLowerCase())) out[name] = value;
  return out;
}

/**
 * Sends the request and follows up to `maxRedirects` redirects. 303 (and 301/302 after a
 * POST) continue as GET without the body, as browsers do; 307/308 resend method and body.
 * Rejects with a `RedirectError` for a refused hop, a non-http(s) target or too many redirects.
 */
export async function fetchFollowingRedirects(options: FollowRedirectsOptions): Promise<FollowedResponse> {
  const { fetch, headersFor, refuseHop, signal, maxRedirects = MAX_REDIRECTS } = options;
  let { url, method, body } = options;
  let bodyDropped = false;
  for (let hop = 0; ; hop += 1) {
    const hopHeaders = headersFor({ url, method });
    const headers = bodyDropped ? withoutBodyHeaders(hopHeaders) : hopHeaders;
    const init: RequestInit = { method, headers, redirect: "manual" };
    if (body !== undefined) init.body = body;
    if (signal !== undefined) init.signal = signal;
    const response = await fetch(url.href, init);
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return { response, url, redirected: hop > 0 };
    await response.body?.cancel().catch(() => undefined);
    if (hop >= maxRedirects) throw new RedirectError(`more than ${maxRedirects} redirects from ${options.url.href}`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new RedirectError(
        `${url.href} redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`,
      );
    }
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      throw new RedirectError(`${url.href} redirected to a ${next.protocol} URL; only http(s) redirects are followed`);
    }
    const refusal = refuseHop?.(next, url);
    if (refusal !== undefined) throw new RedirectError(refusal);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      if (method !== "HEAD") method = "GET";
      bodyDropped = body !== undefined;
      body = undefined;
    }
    url = next;
  }
}
