/**
 * The one HMAC of the package, with one rule for its secrets: HMAC-SHA256, its signature spelled in canonical
 * base64url and compared in constant time, under a secret of at least 32 bytes refused at construction. Signed chat
 * approvals (`toolApprovalSecret`) and approval links (`approvalLinks.secret`) both sign through it.
 */
import { InvalidOptionError } from "../errors.js";
import { nodeCrypto } from "./node-crypto.js";

/** An HMAC secret: a string (its UTF-8 bytes are the key) or the key's bytes. */
export type HmacSecret = string | Uint8Array;

/**
 * Shortest secret accepted, in bytes: an HMAC-SHA256 key shorter than the hash's 32 bytes is weaker than it looks,
 * and a short string is likely a password or a placeholder rather than a random key.
 */
export const MIN_HMAC_SECRET_BYTES = 32;

/** Length of a signature in base64url: 32 bytes in 43 characters, no padding. */
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function keyBytes(secret: HmacSecret): Uint8Array {
  return typeof secret === "string" ? Buffer.from(secret, "utf8") : secret;
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

function digest(secret: HmacSecret, data: string): Buffer {
  return nodeCrypto().createHmac("sha256", keyBytes(secret)).update(data, "utf8").digest();
}

/** The HMAC-SHA256 of `data` (UTF-8) under `secret`, in base64url. */
export function hmacSign(secret: HmacSecret, data: string): string {
  return digest(secret, data).toString("base64url");
}

/**
 * Whether `signature` is {@link hmacSign}'s for `data`, compared in constant time. Only the canonical spelling
 * counts: the last character of 43 carries two bits decoding ignores, so a re-encoded copy of a genuine signature
 * (same bytes, other padding bits) is refused rather than accepted as a second valid one.
 */
export function hmacVerify(secret: HmacSecret, data: string, signature: string): boolean {
  if (!SIGNATURE_PATTERN.test(signature)) return false;
  const given = Buffer.from(signature, "base64url");
  if (given.toString("base64url") !== signature) return false;
  return nodeCrypto().timingSafeEqual(given, digest(secret, data));
}
