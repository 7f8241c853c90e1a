/**
 * Program values as span attributes (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`): the codec's text
 * (plain JSON for JSON values; tagged for `Date`, `Map`, `BigInt`, …), bounded, with the values of credential-like
 * headers and URL parameters masked (`authorization`, `x-api-key`, `cookie`, `?token=` …: the names the OpenAPI
 * connector's redaction treats as credentials), and those of a call's request redacted wherever they appear in
 * its result (a server that echoes them). Only called when the AI SDK call records inputs or outputs.
 */
import {
  collectSecrets,
  CREDENTIAL_HEADER,
  MIN_REDACTED_SECRET_CHARS,
  REDACTED,
  redactText,
} from "../../connectors/openapi/redact-secrets.js";
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

function maskedHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = CREDENTIAL_HEADER.test(name) ? REDACTED : value;
  return out;
}

function maskedUrl(url: string): string {
  if (!url.includes("?")) return url;
  try {
    const parsed = new URL(url);
    let masked = false;
    for (const name of [...parsed.searchParams.keys()]) {
      if (CREDENTIAL_HEADER.test(name)) {
        parsed.searchParams.set(name, REDACTED);
        masked = true;
      }
    }
    return masked ? parsed.href : url;
  } catch {
    return url;
  }
}

/** `value` with credential-like `headers` entries and `url` parameters masked (top level: requests and responses). */
function masked(value: unknown): unknown {
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const { headers, url } = value;
  if (!isRecord(headers) && typeof url !== "string") return value;
  return {
    ...value,
    ...(isRecord(headers) ? { headers: maskedHeaders(headers) } : {}),
    ...(typeof url === "string" ? { url: maskedUrl(url) } : {}),
  };
}

/**
 * Credential values searched for in what a span records, at most: each costs a scan of the recorded text, and a
 * program controls how many headers it sends (past this many, the rest are masked but not searched for).
 */
export const MAX_SPAN_SECRETS = 16;

/** The values `masked` hides in a call's arguments (credential-like headers and URL parameters), longest first. */
export function credentialValues(args: unknown): string[] {
  if (!isRecord(args)) return [];
  const { headers, url } = args;
  const named: Record<string, string> = {};
  let found = 0;
  if (isRecord(headers)) {
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== "string" || !CREDENTIAL_HEADER.test(name)) continue;
      named[name] = value;
      if (++found === MAX_SPAN_SECRETS) break;
    }
  }
  const secrets = collectSecrets(named);
  if (typeof url === "string" && url.includes("?")) {
    try {
      for (const [name, value] of new URL(url).searchParams) {
        if (CREDENTIAL_HEADER.test(name) && value.length >= MIN_REDACTED_SECRET_CHARS) secrets.push(value);
      }
    } catch {
      // not a URL: nothing to find in it
    }
  }
  return secrets.sort((a, b) => b.length - a.length).slice(0, MAX_SPAN_SECRETS);
}

/** The attribute text of a program value (arguments, a result), with `secrets` redacted. Never throws. */
export function spanValueText(value: unknown, secrets: readonly string[] = []): string {
  try {
    const text = serializeValue(masked(value), { maxChars: MAX_SERIALIZED_CHARS });
    return boundedText(secrets.length === 0 ? text : redactText(text, secrets), MAX_SPAN_VALUE_CHARS);
  } catch (error) {
    return `[not recorded: ${boundedText(messageOf(error), 200)}]`;
  }
}

/** The attribute text of an error message. */
export function spanMessage(message: string): string {
  return boundedText(message, MAX_SPAN_MESSAGE_CHARS);
}
