/**
 * The origin allowlist of opt-in outbound `fetch`: exact origins
 * (`https://api.example.com`, `http://127.0.0.1:8080`) and subdomain wildcards
 * (`https://*.example.com`: any subdomain at any depth, not `example.com`
 * itself; scheme and port must still match). Only `http:` and `https:`.
 */
import { InvalidOptionError } from "../errors.js";

/** One parsed allowlist entry. */
export interface OriginRule {
  /** The entry as the host wrote it, normalised (`https://api.example.com`, `https://*.example.com`). */
  text: string;
  protocol: "http:" | "https:";
  /** Exact host name, or the suffix after `*.` for a wildcard. */
  hostname: string;
  /** Explicit port, `""` for the scheme's default. */
  port: string;
  wildcard: boolean;
}

const EXAMPLE = `must be an origin like "https://api.example.com" (scheme, host and optional port; "https://*.example.com" for any subdomain)`;

/** Parses one `allow` entry; `path` names it in the error (`outbound.allow[0]`). */
export function parseOriginRule(value: unknown, path: string): OriginRule {
  if (typeof value !== "string") throw new InvalidOptionError({ path, message: EXAMPLE });
  const wildcard = /^(https?:\/\/)\*\.(.+)$/i.exec(value);
  const candidate = wildcard === null ? value : `${wildcard[1]}wildcard.${wildcard[2]}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new InvalidOptionError({ path, message: `${EXAMPLE}; got ${JSON.stringify(value)}` });
  }
  const bare =
    url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "";
  const rest = candidate.replace(/^[a-z]+:\/\/[^/?#]*/i, "");
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !bare || (rest !== "" && rest !== "/")) {
    throw new InvalidOptionError({ path, message: `${EXAMPLE}; got ${JSON.stringify(value)}` });
  }
  const hostname = wildcard === null ? url.hostname : url.hostname.slice("wildcard.".length);
  const port = url.port;
  const text = `${url.protocol}//${wildcard === null ? "" : "*."}${hostname}${port === "" ? "" : `:${port}`}`;
  return { text, protocol: url.protocol, hostname, port, wildcard: wildcard !== null };
}

/** Whether `url` (already parsed) is covered by `rule`. */
function originMatches(rule: OriginRule, url: URL): boolean {
  if (url.protocol !== rule.protocol || url.port !== rule.port) return false;
  if (!rule.wildcard) return url.hostname === rule.hostname;
  return url.hostname.endsWith(`.${rule.hostname}`);
}

/** Whether `url` may be fetched: any http(s) URL without an allowlist, else one matching an entry. */
export function originAllowed(rules: readonly OriginRule[] | undefined, url: URL): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return rules === undefined || rules.some((rule) => originMatches(rule, url));
}
