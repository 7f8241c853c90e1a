import { timingSafeEqual } from "node:crypto";
import { createCodemodeInspector } from "ai-codemode/inspector";
import { getCodemodeRuntime } from "@/lib/codemode";

// The web inspector at /codemode: the executions list, timelines, Approve / Reject / Rollback.
// Its JSON API lives under /codemode/api/… in the same handler.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * HTTP Basic auth against CODEMODE_INSPECTOR_TOKEN (any user name): the browser asks once and
 * sends the credentials with the page's own API calls. Without the variable, nobody gets in.
 * The token holder is an admin and sees every user's executions ({ unscoped: true }); a real app
 * checks its own session here, and gives a user who is not an admin { scope: userId } (their own).
 */
function authorize(request: Request): { unscoped: true } | Response {
  const token = process.env.CODEMODE_INSPECTOR_TOKEN;
  const header = request.headers.get("authorization") ?? "";
  if (token !== undefined && token !== "" && header.startsWith("Basic ")) {
    const decoded = Buffer.from(header.slice("Basic ".length), "base64").toString("utf8");
    const given = Buffer.from(decoded.slice(decoded.indexOf(":") + 1));
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { unscoped: true };
  }
  // Only a page load asks the browser for credentials; the page's API calls just get 401.
  const navigation =
    request.headers.get("sec-fetch-mode") === "navigate" || (request.headers.get("accept") ?? "").includes("text/html");
  return new Response(JSON.stringify({ error: "Not authorized: sign in with the inspector token." }), {
    status: 401,
    headers: {
      "content-type": "application/json",
      ...(navigation ? { "www-authenticate": 'Basic realm="codemode inspector", charset="UTF-8"' } : {}),
    },
  });
}

/** Who decides (journaled as `decidedBy`): the Basic user name `authorize` let in. A real app names its signed-in admin. */
function decidedBy(request: Request): string | undefined {
  const header = request.headers.get("authorization") ?? "";
  if (!header.startsWith("Basic ")) return undefined;
  const decoded = Buffer.from(header.slice("Basic ".length), "base64").toString("utf8");
  const name = decoded.slice(0, Math.max(decoded.indexOf(":"), 0)).trim();
  return name === "" ? undefined : name;
}

let inspector: ((request: Request) => Promise<Response>) | undefined;

function handle(request: Request): Promise<Response> {
  inspector ??= createCodemodeInspector({ runtime: getCodemodeRuntime(), authorize, decidedBy });
  return inspector(request);
}

export { handle as GET, handle as POST };
