/**
 * Which remote URLs the store's own Hrana client serves (`hrana-http-client.ts`), decided without importing it,
 * and where it sends their requests.
 */

/** The URL schemes the client serves; `libsql:` is HTTPS, as in `@libsql/client`. */
const SCHEMES = new Set(["http:", "https:", "libsql:"]);

/**
 * Whether the store's own client serves `url`: `http:`, `https:` or `libsql:` with a host and no query, fragment
 * or credentials. Any other URL goes to `@libsql/client`, which reads its parameters (`?tls=0`, `?authToken=`)
 * or says what is wrong with it.
 */
export function servesUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return (
    SCHEMES.has(parsed.protocol) &&
    parsed.host !== "" &&
    parsed.search === "" &&
    parsed.hash === "" &&
    parsed.username === "" &&
    parsed.password === ""
  );
}

/** The Hrana v2 pipeline endpoint of `url`, resolved as `@libsql/client` resolves it: relative to the URL's path. */
export function pipelineUrl(url: string): URL {
  const parsed = new URL(url);
  const scheme = parsed.protocol === "libsql:" ? "https:" : parsed.protocol;
  return new URL("v2/pipeline", `${scheme}//${parsed.host}${parsed.pathname}`);
}
