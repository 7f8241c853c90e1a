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

/**
 * Bytes as a string of one UTF-16 unit per byte. `latin1` is windows-1252 to `TextDecoder`: a single-byte
 * encoding, so string indexes are byte offsets and the native `indexOf` searches bytes (10 MiB in tens of ms).
 */
const BYTE_DECODER = new TextDecoder("latin1");

function byteView(bytes: Uint8Array): string {
  return BYTE_DECODER.decode(bytes);
}

function utf16Bytes(text: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    out[index * 2 + (littleEndian ? 0 : 1)] = unit & 0xff;
    out[index * 2 + (littleEndian ? 1 : 0)] = unit >> 8;
  }
  return out;
}

/** One encoding of a secret: the bytes searched, as a byte view, and what replaces them. */
interface BytePattern {
  view: string;
  replacement: Uint8Array;
}

/** Each secret as UTF-8, percent-encoded UTF-8 and UTF-16 (both byte orders), longest first. */
function bytePatterns(secrets: readonly string[]): BytePattern[] {
  const encoder = new TextEncoder();
  const patterns: BytePattern[] = [];
  for (const secret of secrets) {
    const encoded = encodeURIComponent(secret);
    for (const text of encoded === secret ? [secret] : [secret, encoded]) {
      patterns.push({ view: byteView(encoder.encode(text)), replacement: encoder.encode(REDACTED) });
    }
    for (const littleEndian of [true, false]) {
      patterns.push({
        view: byteView(utf16Bytes(secret, littleEndian)),
        replacement: utf16Bytes(REDACTED, littleEndian),
      });
    }
  }
  return patterns.sort((a, b) => b.view.length - a.view.length);
}

/** Replaces every secret inside raw bytes (UTF-8, UTF-16LE/BE, percent-encoded); returns `bytes` itself when none occurs. */
export function redactBytes(bytes: Uint8Array, secrets: readonly string[]): Uint8Array {
  if (secrets.length === 0 || bytes.byteLength === 0) return bytes;
  const view = byteView(bytes);
  // Matched ranges, longest patterns first; a shorter match inside a longer one is already covered.
  const ranges: Array<{ start: number; end: number; replacement: Uint8Array }> = [];
  for (const pattern of bytePatterns(secrets)) {
    for (let at = view.indexOf(pattern.view); at !== -1; at = view.indexOf(pattern.view, at + pattern.view.length)) {
      const end = at + pattern.view.length;
      if (ranges.some((range) => at < range.end && end > range.start)) continue;
      ranges.push({ start: at, end, replacement: pattern.replacement });
    }
  }
  if (ranges.length === 0) return bytes;
  ranges.sort((a, b) => a.start - b.start);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const range of ranges) {
    parts.push(bytes.subarray(from, range.start), range.replacement);
    from = range.end;
  }
  parts.push(bytes.subarray(from));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
