/**
 * Keeps the host's credentials out of what a program sees. The connector never returns
 * the headers it sends, but a server may echo them (an error page quoting the request, a
 * debug endpoint): every occurrence of a credential in a response or an error excerpt
 * becomes `[redacted]`.
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
