/**
 * The one HMAC of the package, with one rule for its secrets: HMAC-SHA256 through Web Crypto (no Node module to
 * import, so `ai-codemode/ui` stays free of them), its signature spelled in canonical base64url and checked by
 * `crypto.subtle.verify` (constant time), under a secret of at least 32 bytes refused at construction. Signed chat
 * approvals (`toolApprovalSecret`) and approval links (`approvalLinks.secret`) both sign through it.
 */
import { InvalidOptionError } from "../errors.js";

/** An HMAC secret: a string (its UTF-8 bytes are the key) or the key's bytes. */
export type HmacSecret = string | Uint8Array;

/**
 * Shortest secret accepted, in bytes: an HMAC-SHA256 key shorter than the hash's 32 bytes is weaker than it looks,
 * and a short string is likely a password or a placeholder rather than a random key.
 */
export const MIN_HMAC_SECRET_BYTES = 32;

/** A signature in base64url: 32 bytes in 43 characters, no padding. */
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function keyBytes(secret: HmacSecret): Uint8Array<ArrayBuffer> {
  return (typeof secret === "string" ? new TextEncoder().encode(secret) : secret) as Uint8Array<ArrayBuffer>;
}

/** Refuses, naming the option, a secret that is not a string or bytes of at least {@link MIN_HMAC_SECRET_BYTES}. */
export function assertHmacSecret(secret: unknown, path: string): asserts secret is HmacSecret {
  const bytes = typeof secret === "string" || secret instanceof Uint8Array ? keyBytes(secret).byteLength : -1;
  if (bytes < MIN_HMAC_SECRET_BYTES)
    throw new InvalidOptionError({
      path,
      message: `must be a string or Uint8Array of at least ${MIN_HMAC_SECRET_BYTES} bytes (e.g. 32 random bytes, hex: \`openssl rand -hex 32\`)`,
    });
}

function key(secret: HmacSecret): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", keyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** The HMAC-SHA256 of `data` (UTF-8) under `secret`, in base64url. */
export async function hmacSign(secret: HmacSecret, data: string): Promise<string> {
  return toBase64Url(
    new Uint8Array(await crypto.subtle.sign("HMAC", await key(secret), new TextEncoder().encode(data))),
  );
}

/**
 * Whether `signature` is {@link hmacSign}'s for `data`. Only the canonical spelling counts: the last of its 43
 * characters carries two bits decoding ignores, so a re-encoded copy of a genuine signature (same bytes, other
 * padding bits) is refused rather than accepted as a second valid one.
 */
export async function hmacVerify(secret: HmacSecret, data: string, signature: string): Promise<boolean> {
  if (!SIGNATURE_PATTERN.test(signature)) return false;
  const given = fromBase64Url(signature);
  if (toBase64Url(given) !== signature) return false;
  return crypto.subtle.verify("HMAC", await key(secret), given, new TextEncoder().encode(data));
}
