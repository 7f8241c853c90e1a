import {
  newUserId,
  SESSION_COOKIE,
  SESSION_MAX_AGE_S,
  sessionCookieValue,
  userFromDeviceLink,
  userOfRequest,
} from "@/lib/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Only a path on this site: never `//elsewhere` or an absolute URL. */
function safeNext(next: string | null): string {
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

/**
 * Signs the browser in: with `?link=<token>` as the user a device link names (another device of
 * the same person), otherwise as the user its cookie already names, or as a new anonymous user.
 * Then back to `?next=`.
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const link = url.searchParams.get("link");
  const linked = link === null ? undefined : await userFromDeviceLink(link);
  if (link !== null && linked === undefined) {
    return new Response("This sign-in link is not valid or has expired: make a new one on your other device.", {
      status: 403,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const userId = linked ?? (await userOfRequest(request)) ?? newUserId();
  const secure = url.protocol === "https:" ? "; Secure" : "";
  const cookie = `${SESSION_COOKIE}=${encodeURIComponent(await sessionCookieValue(userId))}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_S}${secure}`;
  // Relative: behind a proxy the request URL's host may not be the one the browser used.
  return new Response(null, {
    status: 303,
    headers: { location: safeNext(url.searchParams.get("next")), "set-cookie": cookie, "cache-control": "no-store" },
  });
}
