/**
 * `createCodemodeInspector({ runtime, authorize })`: a Fetch-API handler serving the
 * inspector page and its JSON API, for a Next.js catch-all route or any server that
 * speaks `Request`/`Response`. Every request passes `authorize` first; without it,
 * only loopback requests in development are served.
 */
import { messageOf } from "../shared/message-of.js";
import { InvalidOptionError } from "../errors.js";
import { assertKnownKeys, keysOf } from "../shared/known-keys.js";
import { MIN_APPROVAL_LINK_SECRET_CHARS } from "../runtime/approval-link-token.js";
import { handleApprovalLink } from "./approval-link-route.js";
import { handleApiRequest, jsonResponse } from "./inspector-api.js";
import { isInspectorRuntime, type InspectorRuntime } from "./inspector-runtime.js";
import { inspectorPageHtml, inspectorPagePolicy } from "./inspector-page.js";

/** How often the page refreshes the executions list by default. */
const DEFAULT_INSPECTOR_REFRESH_MS = 2000;

/** Options of {@link createCodemodeInspector}. */
export interface CodemodeInspectorOptions {
  /** The app's runtime (`createCodemodeRuntime(...)`); actions run through it, with its connectors. */
  runtime: InspectorRuntime;
  /**
   * Decides whether a request may see the inspector and act (approve, reject, rollback).
   * Check your session or an admin token here. `true` serves the request; `false` answers
   * 401; a `Response` is sent as the refusal (e.g. a 401 with `WWW-Authenticate`). Without
   * it, only requests to a loopback host (`localhost`, `127.0.0.1`, `[::1]`) while
   * `NODE_ENV` is `development` are served.
   */
  authorize?: (request: Request) => boolean | Response | Promise<boolean | Response>;
  /**
   * Who is signed in for a request (e.g. read from the session `authorize` checked), called for each approve,
   * reject and decide: its answer is journaled as the decision's `decidedBy` (at most 200 characters; a longer
   * one refuses the action with a `validation` output, nothing changed). The request body cannot set it.
   * @default undefined (decisions record no one)
   */
  decidedBy?: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
   * Serve approval links (`<mount>/link/<token>`) issued by the MCP server with the same `secret`. A link owned by
   * a user is opened only by a request whose `scope` (e.g. the signed-in user's id, as the MCP route's `authorize`
   * grants it) is that owner; `authorize` runs first, as for every request. @default undefined (no links)
   */
  approvalLinks?: {
    /** The MCP server's `approvalLinks.secret` (at least 32 characters). */
    secret: string;
    /** The owner of the request's signed-in person, compared with the link's. */
    scope?: (request: Request) => string | undefined | Promise<string | undefined>;
  };
  /** Refuse approve, reject and rollback (shown, not offered). @default false */
  readOnly?: boolean;
  /** How often the page refreshes the list, in ms. @default 2000 */
  refreshMs?: number;
  /** Test seams. */
  _internal?: { now?: () => number; env?: Record<string, string | undefined> };
}

/** Every key of {@link CodemodeInspectorOptions} (a key added there and not here fails to compile). */
const KNOWN_OPTIONS = keysOf<CodemodeInspectorOptions>({
  runtime: true,
  authorize: true,
  decidedBy: true,
  approvalLinks: true,
  readOnly: true,
  refreshMs: true,
  _internal: true,
});
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const API_PATH = /^(.*)\/api(\/(?:executions(?:\/[^/]+(?:\/[a-z]+)?)?|pending))$/;
const LINK_PATH = /^(?:.*)\/link\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

function hostName(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
}

/** Development default: the URL and the Host header both name a loopback host (a rebound DNS name does not). */
function isLoopbackRequest(request: Request): boolean {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return LOOPBACK_HOSTS.has(url.hostname) && (host === null || LOOPBACK_HOSTS.has(hostName(host)));
}

/** A state-changing request from another site's page (its Origin names another host) is refused. */
function isCrossSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

function validate(options: CodemodeInspectorOptions): void {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError({ path: "options", message: "must be { runtime, authorize }" });
  assertKnownKeys(options, KNOWN_OPTIONS, "createCodemodeInspector");
  if (!isInspectorRuntime(options.runtime)) {
    throw new InvalidOptionError({
      path: "runtime",
      message:
        "must be a runtime from createCodemodeRuntime() (with executions, execution, pending, approve, reject, decide, rollback)",
    });
  }
  if (options.authorize !== undefined && typeof options.authorize !== "function") {
    throw new InvalidOptionError({
      path: "authorize",
      message: "must be a function (request) => boolean | Response (or a promise of one)",
    });
  }
  if (options.decidedBy !== undefined && typeof options.decidedBy !== "function") {
    throw new InvalidOptionError({
      path: "decidedBy",
      message: "must be a function (request) => string | undefined (or a promise of one)",
    });
  }
  validateApprovalLinks(options.approvalLinks);
  if (options.approvalLinks !== undefined && options.readOnly === true)
    throw new InvalidOptionError({
      path: "approvalLinks",
      message: "cannot be served by a read-only inspector (readOnly: true): a link decides calls",
    });
  const { refreshMs } = options;
  if (
    refreshMs !== undefined &&
    (typeof refreshMs !== "number" || !Number.isSafeInteger(refreshMs) || refreshMs < 250)
  ) {
    throw new InvalidOptionError({
      path: "refreshMs",
      message: `must be an integer of at least 250 ms (got ${String(refreshMs)})`,
    });
  }
}

function validateApprovalLinks(links: unknown): void {
  if (links === undefined) return;
  const record = typeof links === "object" && links !== null ? (links as Record<string, unknown>) : undefined;
  if (record === undefined)
    throw new InvalidOptionError({ path: "approvalLinks", message: "must be { secret, scope? }" });
  assertKnownKeys(record, ["secret", "scope"], "approvalLinks");
  const { secret, scope } = record;
  if (typeof secret !== "string" || secret.length < MIN_APPROVAL_LINK_SECRET_CHARS)
    throw new InvalidOptionError({
      path: "approvalLinks.secret",
      message: `must be a string of at least ${MIN_APPROVAL_LINK_SECRET_CHARS} characters (the MCP server's approvalLinks.secret)`,
    });
  if (scope !== undefined && typeof scope !== "function")
    throw new InvalidOptionError({
      path: "approvalLinks.scope",
      message: "must be a function (request) => string | undefined (or a promise of one)",
    });
}

async function pageResponse(refreshMs: number, method: string): Promise<Response> {
  const html = inspectorPageHtml({ refreshMs });
  return new Response(method === "HEAD" ? null : html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": await inspectorPagePolicy(),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
    },
  });
}

/**
 * Creates the inspector's request handler: the page at the mount path, its JSON API
 * under `<mount>/api/…` (see docs/inspector.md).
 *
 * @example
 * // app/codemode/[[...path]]/route.ts
 * import { createCodemodeInspector } from "ai-codemode/inspector";
 * const inspector = createCodemodeInspector({ runtime, authorize: (request) => isAdmin(request) });
 * export { inspector as GET, inspector as POST };
 */
export function createCodemodeInspector(options: CodemodeInspectorOptions): (request: Request) => Promise<Response> {
  validate(options);
  const { runtime, authorize, readOnly = false, refreshMs = DEFAULT_INSPECTOR_REFRESH_MS } = options;
  const now = options._internal?.now ?? Date.now;
  const env = options._internal?.env ?? process.env;
  const context = { runtime, readOnly, now, decidedBy: options.decidedBy };
  const links = options.approvalLinks;
  const linkContext =
    links === undefined
      ? undefined
      : { runtime, secret: links.secret, scope: links.scope, decidedBy: options.decidedBy, now };
  return async (request) => {
    const allowed =
      authorize === undefined
        ? env["NODE_ENV"] === "development" && isLoopbackRequest(request)
        : await authorize(request);
    if (allowed instanceof Response) return allowed;
    if (allowed !== true) {
      const why =
        authorize === undefined
          ? "Not authorized: this inspector has no authorize option, so it only answers loopback requests while NODE_ENV is development."
          : "Not authorized.";
      return jsonResponse(authorize === undefined ? 403 : 401, { error: why });
    }
    const url = new URL(request.url);
    const link = LINK_PATH.exec(url.pathname);
    if (link !== null && linkContext !== undefined) {
      if (request.method !== "GET" && isCrossSite(request))
        return jsonResponse(403, { error: "Cross-site requests may not decide approval links." });
      try {
        return await handleApprovalLink(linkContext, request, link[1] ?? "");
      } catch (error) {
        return jsonResponse(503, { error: `The inspector could not read the journal: ${messageOf(error)}` });
      }
    }
    const match = API_PATH.exec(url.pathname.replace(/\/+$/, ""));
    if (match === null) {
      if (request.method !== "GET" && request.method !== "HEAD") return jsonResponse(405, { error: "use GET" });
      return pageResponse(refreshMs, request.method);
    }
    if (request.method !== "GET" && isCrossSite(request))
      return jsonResponse(403, { error: "Cross-site requests may not act on executions." });
    try {
      return await handleApiRequest(context, request, match[2] ?? "", url.searchParams);
    } catch (error) {
      return jsonResponse(503, {
        error: `The inspector could not read the journal: ${messageOf(error)}`,
      });
    }
  };
}
