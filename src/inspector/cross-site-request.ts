/**
 * Whether a state-changing request comes from another site's page: its `Origin` header names another origin
 * (scheme, host and port) than the request's own. Scheme counts: a page served over plain http on the same
 * host (which anyone on the network path can write) is another origin than the https inspector.
 */

/** The origin of `text`, or undefined when it is not one (`null`, garbage). */
function originOf(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * `true` for a request whose `Origin` is not the request's own origin: the URL's scheme with the `Host` header
 * (what the browser addressed; the URL's host when there is none). A request without `Origin` (not a browser
 * form or script) is not cross-site.
 */
export function isCrossSiteRequest(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  const url = new URL(request.url);
  const own = originOf(`${url.protocol}//${request.headers.get("host") ?? url.host}`);
  const given = originOf(origin);
  return own === undefined || given === undefined || given !== own;
}
