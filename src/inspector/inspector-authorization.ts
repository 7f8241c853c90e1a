/**
 * Whom the inspector's page and JSON API serve, and how much of the journal they see: the answer of the app's
 * `authorize`, read into a grant. `{ scope }` confines every read and action to that owner's executions;
 * `{ unscoped: true }` (an admin) sees every execution and must be said explicitly, so that "signed in" never
 * silently means "sees everyone's".
 */
import { scopeProblem } from "../runtime/execution-request.js";
import { type InspectorGrant, jsonResponse } from "./inspector-api.js";

/**
 * What the inspector's `authorize` grants a request: `{ scope }` shows and decides only the executions of that
 * owner (e.g. the signed-in user's id, the `scope` the app runs their programs with); `{ unscoped: true }` shows
 * and decides every execution (an admin).
 */
export type InspectorAuthorization = { scope: string } | { unscoped: true };

/** What `authorize` may answer. */
type InspectorAuthorize = (
  request: Request,
) => InspectorAuthorization | false | Response | Promise<InspectorAuthorization | false | Response>;

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function hostName(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
}

/** Development default: the URL and the Host header both name a loopback host (a rebound DNS name does not). */
function isLoopbackRequest(request: Request): boolean {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return LOOPBACK_HOSTS.has(url.hostname) && (host === null || LOOPBACK_HOSTS.has(hostName(host)));
}

/** `authorize`'s answer as a grant, or undefined for anything else (a confused grant is a refusal). */
function readGrant(answer: unknown): InspectorGrant | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const record = answer as Record<string, unknown>;
  const scope = record["scope"];
  if (record["unscoped"] === true) return scope === undefined ? { scope: undefined } : undefined;
  return typeof scope === "string" && scopeProblem(scope) === undefined ? { scope } : undefined;
}

/**
 * The grant of `request`, or the response refusing it. Without `authorize`, only loopback requests while
 * `NODE_ENV` is `development` are served, with every execution (a developer's own machine).
 */
export async function authorizeRequest(
  authorize: InspectorAuthorize | undefined,
  request: Request,
  env: Record<string, string | undefined>,
): Promise<InspectorGrant | Response> {
  if (authorize === undefined) {
    if (env["NODE_ENV"] === "development" && isLoopbackRequest(request)) return { scope: undefined };
    return jsonResponse(403, {
      error:
        "Not authorized: this inspector has no authorize option, so it only answers loopback requests while NODE_ENV is development.",
    });
  }
  const answer: unknown = await authorize(request);
  if (answer instanceof Response) return answer;
  if (answer === true)
    return jsonResponse(500, {
      error:
        "The inspector's authorize returned true, which grants no view: return { scope: userId } for a signed-in " +
        "user (their own executions), { unscoped: true } for an admin (every execution), or false.",
    });
  return readGrant(answer) ?? jsonResponse(401, { error: "Not authorized." });
}
