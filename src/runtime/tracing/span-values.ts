/**
 * Program values as span attributes (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`): the codec's text
 * (plain JSON for JSON values; tagged for `Date`, `Map`, `BigInt`, …), bounded, with the credentials a request may
 * carry masked — URL userinfo and fragment, every query value and every header value (in any shape) except the
 * names known to be harmless or listed by the app — and those values redacted wherever they appear in the call's
 * result and errors (a server that echoes them). Only called when the AI SDK call records inputs or outputs.
 */
import { MIN_REDACTED_SECRET_CHARS, REDACTED, redactText } from "../../connectors/openapi/redact-secrets.js";
import { serializeValue } from "../../sandbox/codec.js";
import { boundedText } from "../../shared/bounded-text.js";
import { isRecord } from "../../shared/is-record.js";
import { messageOf } from "../../shared/message-of.js";

/** Longest value recorded on a span, in characters; a longer one is cut with a note of how much. */
export const MAX_SPAN_VALUE_CHARS = 8_192;
/** Longest error message recorded on a span. */
const MAX_SPAN_MESSAGE_CHARS = 1_000;
/** Values past this size are not serialized at all for a span (only their size class is said). */
const MAX_SERIALIZED_CHARS = 4 * MAX_SPAN_VALUE_CHARS;

/**
 * Header names whose values are never credentials (content negotiation, caching, sizes): recorded as they are. Every
 * other header value is `[redacted]` unless the app lists its name (`outbound.traceParams`): a program may send a
 * credential under any name (`x-sig`, `x-amz-security-token`), so only names known to be harmless are shown.
 */
const PLAIN_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-encoding",
  "content-language",
  "content-length",
  "content-type",
  "date",
  "etag",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "last-modified",
  "pragma",
  "range",
  "user-agent",
  "vary",
]);

/** Names (lower-case) whose URL parameter and header values a span may record; the app's `outbound.traceParams`. */
export type RecordedNames = ReadonlySet<string>;

const NO_NAMES: RecordedNames = new Set();

function headerShown(name: unknown, shown: RecordedNames): boolean {
  if (typeof name !== "string") return false;
  const lower = name.toLowerCase();
  return PLAIN_HEADERS.has(lower) || shown.has(lower);
}

/**
 * Headers given as a list past this many entries are not looked into (a span shows them `[redacted]`): a connector's
 * `new Array(1e9)` costs it nothing, and walking it would hold the host for seconds.
 */
const MAX_HEADER_ENTRIES = 1_000;

function tooManyHeaders(headers: unknown): boolean {
  return Array.isArray(headers) && headers.length > MAX_HEADER_ENTRIES;
}

/** The `[name, value]` entries of `headers` in every shape `fetch` accepts (object, pairs, a Map from the codec). */
function headerEntries(headers: unknown): Array<[unknown, unknown]> | undefined {
  if (headers instanceof Map) return [...headers.entries()];
  if (tooManyHeaders(headers)) return undefined;
  if (Array.isArray(headers))
    return headers.map((pair): [unknown, unknown] => (Array.isArray(pair) ? [pair[0], pair[1]] : [undefined, pair]));
  if (isRecord(headers)) return Object.entries(headers);
  return undefined;
}

/** `headers` with every value not known to be harmless replaced, in the shape it came in. */
function maskedHeaders(headers: unknown, shown: RecordedNames): unknown {
  const mask = (name: unknown, value: unknown): unknown => (headerShown(name, shown) ? value : REDACTED);
  if (headers instanceof Map) return new Map([...headers].map(([name, value]) => [name, mask(name, value)]));
  if (tooManyHeaders(headers)) return REDACTED;
  if (Array.isArray(headers)) {
    return headers.map((pair: unknown) =>
      Array.isArray(pair) ? [pair[0], ...pair.slice(1).map((value) => mask(pair[0], value))] : REDACTED,
    );
  }
  if (isRecord(headers)) {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(headers)) {
      Object.defineProperty(out, name, {
        value: mask(name, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return headers === undefined || headers === null ? headers : REDACTED;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

/** A query string (without `?`) with every value whose name is not listed replaced; a bare word counts as a value. */
function maskedQuery(query: string, shown: RecordedNames): string {
  return query
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      if (equals === -1) return part === "" || shown.has(decoded(part).toLowerCase()) ? part : REDACTED;
      const name = part.slice(0, equals);
      return shown.has(decoded(name).toLowerCase()) ? part : `${name}=${REDACTED}`;
    })
    .join("&");
}

/**
 * `url` as a span may show it: no userinfo (`user:pass@`), every query value redacted unless its name is listed,
 * no fragment (where OAuth puts tokens). Text that is not a URL is kept only when it has none of `@ ? #`.
 */
export function maskedUrl(url: string, shown: RecordedNames = NO_NAMES): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return /[@?#]/.test(url) ? REDACTED : url;
  }
  const { search, hash } = parsed;
  parsed.username = "";
  parsed.password = "";
  parsed.search = "";
  parsed.hash = "";
  // A URL whose userinfo cannot be cleared (no host to clear it from) is not shown at all.
  if (parsed.username !== "" || parsed.password !== "") return REDACTED;
  const query = search.length > 1 ? `?${maskedQuery(search.slice(1), shown)}` : "";
  return `${parsed.href}${query}${hash.length > 1 ? `#${REDACTED}` : ""}`;
}

/**
 * `value` with the `headers` and `url` of a request or a response masked (top level: the arguments of an outbound
 * `fetch` and its recorded response, or any connector's arguments of that shape).
 */
function masked(value: unknown, shown: RecordedNames): unknown {
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const { headers, url } = value;
  if (!Object.hasOwn(value, "headers") && typeof url !== "string") return value;
  return {
    ...value,
    ...(Object.hasOwn(value, "headers") ? { headers: maskedHeaders(headers, shown) } : {}),
    ...(typeof url === "string" ? { url: maskedUrl(url, shown) } : {}),
  };
}

/**
 * Credential values searched for in what a span records, at most: each costs a scan of the recorded text, and a
 * program controls how many headers it sends (past this many, the rest are masked but not searched for).
 */
export const MAX_SPAN_SECRETS = 16;

/** A value and the words in it (`Bearer abc` → `abc`), long enough to be searched for without corrupting data. */
function secretParts(value: string, into: Set<string>): void {
  for (const candidate of [value, ...value.split(/[\s,;=:]+/)]) {
    if (candidate.length >= MIN_REDACTED_SECRET_CHARS) into.add(candidate);
  }
}

/** The userinfo and the unlisted query values and fragment of `url` (raw and percent-decoded). */
function urlSecrets(url: string, shown: RecordedNames, into: Set<string>): void {
  const schemeEnd = url.indexOf(":");
  const authority = url.slice(schemeEnd + 1).replace(/^[\\/]*/, "");
  const at = authority.search(/[@/?#\\]/);
  if (at !== -1 && authority[at] === "@") {
    const userinfo = authority.slice(0, at);
    secretParts(userinfo, into);
    secretParts(decoded(userinfo), into);
  }
  const question = url.indexOf("?");
  const hash = url.indexOf("#");
  if (hash !== -1) secretParts(url.slice(hash + 1), into);
  if (question === -1 || (hash !== -1 && hash < question)) return;
  for (const part of url.slice(question + 1, hash === -1 ? undefined : hash).split("&")) {
    const equals = part.indexOf("=");
    const name = equals === -1 ? "" : decoded(part.slice(0, equals)).toLowerCase();
    if (shown.has(name)) continue;
    const value = equals === -1 ? part : part.slice(equals + 1);
    secretParts(value, into);
    secretParts(decoded(value), into);
  }
}

/** The values `masked` hides in a call's arguments (headers, URL userinfo and parameters), longest first. */
export function credentialValues(args: unknown, shown: RecordedNames = NO_NAMES): string[] {
  if (!isRecord(args)) return [];
  const { headers, url } = args;
  const found = new Set<string>();
  for (const [name, value] of headerEntries(headers) ?? []) {
    if (found.size >= MAX_SPAN_SECRETS * 2) break;
    if (typeof value === "string" && !headerShown(name, shown)) secretParts(value, found);
  }
  if (typeof url === "string") urlSecrets(url, shown, found);
  return [...found].sort((a, b) => b.length - a.length).slice(0, MAX_SPAN_SECRETS);
}

/** The attribute text of a program value (arguments, a result), with `secrets` redacted. Never throws. */
export function spanValueText(
  value: unknown,
  secrets: readonly string[] = [],
  shown: RecordedNames = NO_NAMES,
): string {
  try {
    const text = serializeValue(masked(value, shown), { maxChars: MAX_SERIALIZED_CHARS });
    return boundedText(secrets.length === 0 ? text : redactText(text, secrets), MAX_SPAN_VALUE_CHARS);
  } catch (error) {
    return `[not recorded: ${boundedText(messageOf(error), 200)}]`;
  }
}

/** The attribute text of an error message. */
export function spanMessage(message: string): string {
  return boundedText(message, MAX_SPAN_MESSAGE_CHARS);
}
