/**
 * Who is asking: an anonymous user in an HMAC-signed, HttpOnly cookie. The first visit mints one
 * (`app/session/route.ts`); every request reads it back and refuses a cookie whose signature does
 * not match. The user id is the `scope` of every codemode execution the chat starts, and the owner
 * of the chat: another user's approval of the same call is refused (docs/decisions/chat-users-and-persistence.md).
 * A real app uses its own sign-in here; what matters is that the id comes from a verified session,
 * never from the request body.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getSecret } from "./secrets";

/** The session cookie's name. */
export const SESSION_COOKIE = "codemode_example_session";
/** How long a session cookie lives. */
export const SESSION_MAX_AGE_S = 365 * 24 * 60 * 60;
/** How long a sign-in link for another device works. */
export const DEVICE_LINK_TTL_MS = 15 * 60 * 1000;

const USER_ID = /^user_[A-Za-z0-9_-]{16,64}$/;

async function sign(payload: string): Promise<string> {
  return createHmac("sha256", await getSecret("session"))
    .update(payload)
    .digest("base64url");
}

async function verified(payload: string, signature: string): Promise<boolean> {
  const expected = Buffer.from(await sign(payload));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A new anonymous user id. */
export function newUserId(): string {
  return `user_${randomBytes(16).toString("base64url")}`;
}

/** The cookie value for `userId`. */
export async function sessionCookieValue(userId: string): Promise<string> {
  return `${userId}.${await sign(`session:${userId}`)}`;
}

/** The user a cookie value names, if its signature holds. */
export async function userFromCookie(value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const dot = value.lastIndexOf(".");
  const userId = value.slice(0, dot);
  if (dot <= 0 || !USER_ID.test(userId)) return undefined;
  return (await verified(`session:${userId}`, value.slice(dot + 1))) ? userId : undefined;
}

/** The user of a request, from its cookie header. */
export async function userOfRequest(request: Request): Promise<string | undefined> {
  const cookies = request.headers.get("cookie") ?? "";
  const entry = cookies
    .split(";")
    .map((cookie) => cookie.trim())
    .find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (entry === undefined) return undefined;
  try {
    return userFromCookie(decodeURIComponent(entry.slice(SESSION_COOKIE.length + 1)));
  } catch {
    return undefined; // a malformed cookie (bad percent-encoding) is no session, not a server error
  }
}

/** A token that signs `userId` in on another device until `now + DEVICE_LINK_TTL_MS`. */
export async function deviceLinkToken(userId: string, now = Date.now()): Promise<string> {
  const expires = now + DEVICE_LINK_TTL_MS;
  return `${userId}.${expires}.${await sign(`link:${userId}:${expires}`)}`;
}

/** The user a device link names, if it is genuine and not expired. */
export async function userFromDeviceLink(token: string, now = Date.now()): Promise<string | undefined> {
  const [userId, expires, signature, ...rest] = token.split(".");
  if (userId === undefined || expires === undefined || signature === undefined || rest.length > 0) return undefined;
  if (!USER_ID.test(userId) || !/^\d{1,15}$/.test(expires) || Number(expires) < now) return undefined;
  return (await verified(`link:${userId}:${expires}`, signature)) ? userId : undefined;
}
