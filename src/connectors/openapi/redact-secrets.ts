/**
 * Keeps the host's credentials out of what a program sees. The connector never returns
 * the headers it sends, but a server may echo them (an error page quoting the request, a
 * debug endpoint): every occurrence of a credential in a response or an error excerpt
 * becomes `[redacted]`, whatever the body's type: text and JSON (after parsing) and raw
 * bytes, where the credential is searched as UTF-8, UTF-16 (either byte order) and
 * percent-encoded text. A server that deliberately transforms a credential (reverses,
 * encrypts it) cannot be stopped by redaction: send credentials only to servers you trust.
 */

/** Header names whose values are treated as credentials. */
const CREDENTIAL_HEADER = /auth|token|key|secret|cookie|session|password|credential|signature/i;

/** Shorter values are not redacted: they would corrupt ordinary data and are no secret anyway. */
export const MIN_REDACTED_SECRET_CHARS = 8;

/** What replaces a credential. */
export const REDACTED = "[redacted]";

/** Credential values among `headers`: whole values, and the token after a scheme (`Bearer abc` → `abc`). */
export function collectSecrets(headers: Record<string, string>): string[] {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    for (const candidate of [value, ...value.split(/[\s,;=]+/)]) {
      if (candidate.length >= MIN_REDACTED_SECRET_CHARS) secrets.add(candidate);
    }
  }
  // Longest first, so a whole value is replaced before its parts.
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** Replaces every secret inside `text`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out;
}

/** Replaces secrets in every string (keys included) of a JSON-like value; returns the same value when none occurs. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = redactValue(item, secrets);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const nextKey = redactText(key, secrets);
      const next = redactValue(item, secrets);
      if (next !== item || nextKey !== key) changed = true;
      // defineProperty: a `__proto__` key from JSON.parse stays an ordinary key.
      Object.defineProperty(out, nextKey, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return changed ? out : value;
  }
  return value;
}

/** Bytes as a string of one char per byte (U+0000–U+00FF), so `indexOf`/`replaceAll` search bytes. */
function byteString(bytes: Uint8Array): string {
  let out = "";
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    out += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return out;
}

function utf8ByteString(text: string): string {
  return byteString(new TextEncoder().encode(text));
}

function utf16ByteString(text: string, littleEndian: boolean): string {
  let out = "";
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const [low, high] = [String.fromCharCode(unit & 0xff), String.fromCharCode(unit >> 8)];
    out += littleEndian ? low + high : high + low;
  }
  return out;
}

/** Each secret's byte patterns with the replacement in the same encoding, longest first. */
function bytePatterns(secrets: readonly string[]): Array<[pattern: string, replacement: string]> {
  const patterns: Array<[string, string]> = [];
  for (const secret of secrets) {
    const encoded = encodeURIComponent(secret);
    patterns.push([utf8ByteString(secret), utf8ByteString(REDACTED)]);
    if (encoded !== secret) patterns.push([utf8ByteString(encoded), utf8ByteString(REDACTED)]);
    for (const littleEndian of [true, false]) {
      patterns.push([utf16ByteString(secret, littleEndian), utf16ByteString(REDACTED, littleEndian)]);
    }
  }
  return patterns.sort((a, b) => b[0].length - a[0].length);
}

/** Replaces every secret inside raw bytes (UTF-8, UTF-16LE/BE, percent-encoded); returns `bytes` itself when none occurs. */
export function redactBytes(bytes: Uint8Array, secrets: readonly string[]): Uint8Array {
  if (secrets.length === 0 || bytes.byteLength === 0) return bytes;
  const original = byteString(bytes);
  let text = original;
  for (const [pattern, replacement] of bytePatterns(secrets)) {
    if (text.includes(pattern)) text = text.replaceAll(pattern, replacement);
  }
  if (text === original) return bytes;
  const out = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) out[index] = text.charCodeAt(index);
  return out;
}
