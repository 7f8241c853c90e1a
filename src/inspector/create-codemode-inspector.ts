/**
 * `createCodemodeInspector({ runtime, authorize })`: a Fetch-API handler serving the
 * inspector page and its JSON API, for a Next.js catch-all route or any server that
 * speaks `Request`/`Response`. Every page and API request passes `authorize` first, which
 * grants one owner's executions or, said explicitly, all of them; without it, only loopback
 * requests in development are served. Approval links are checked against their own owner.
 */
import { messageOf } from "../shared/message-of.js";
import { InvalidOptionError } from "../errors.js";
import { assertKnownKeys, keysOf } from "../shared/known-keys.js";
import { MIN_APPROVAL_LINK_SECRET_CHARS } from "../runtime/approval-link-token.js";
import { handleApprovalLink } from "./approval-link-route.js";
import { isCrossSiteRequest } from "./cross-site-request.js";
import { handleApiRequest, jsonResponse } from "./inspector-api.js";
import { authorizeRequest, type InspectorAuthorization } from "./inspector-authorization.js";
import { isInspectorRuntime, type InspectorRuntime } from "./inspector-runtime.js";
import { inspectorPageHtml, inspectorPagePolicy } from "./inspector-page.js";

/** How often the page refreshes the executions list by default. */
const DEFAULT_INSPECTOR_REFRESH_MS = 2000;

/** Options of {@link createCodemodeInspector}. */
export interface CodemodeInspectorOptions {
  /** The app's runtime (`createCodemodeRuntime(...)`); actions run through it, with its connectors. */
  runtime: InspectorRuntime;
  /**
   * Decides whether a request may see the inspector's page and API, and whose executions: `{ scope }` shows and
   * decides only that owner's (the signed-in user's id, as their programs run with it), `{ unscoped: true }`
   * every execution (an admin); `false` answers 401; a `Response` is sent as the refusal (e.g. a 401 with
   * `WWW-Authenticate`). Approval links are not gated by it (see `approvalLinks`). Without it, only requests
   * to a loopback host (`localhost`, `127.0.0.1`, `[::1]`) while `NODE_ENV` is `development` are served.
   */
  authorize?: (
    request: Request,
  ) => InspectorAuthorization | false | Response | Promise<InspectorAuthorization | false | Response>;
  /**
   * Who is signed in for a request (e.g. read from the session `authorize` checked), called for each approve,
   * reject and decide: its answer is journaled as the decision's `decidedBy` (at most 200 characters; a longer
   * one refuses the action with a `validation` output, nothing changed). The request body cannot set it.
   * @default undefined (decisions record no one)
   */
  decidedBy?: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
   * Serve approval links (`<mount>/link/<token>`) issued by the MCP server with the same `secret`: each opens
   * only the decision page of the calls it was minted for. A link of an owner opens only for a request whose
   * `scope` is that owner, whatever `authorize` answers (so an admin-only inspector still serves each owner's
   * links); a link of an execution without an owner only for a request `authorize` grants `{ unscoped: true }`.
   * @default undefined (no links)
   */
  approvalLinks?: {
    /** The MCP server's `approvalLinks.secret` (at least 32 characters). */
    secret: string;
    /**
     * The signed-in user of a request (the same id the MCP route's `authorize` gives as `scope`), or
     * `undefined` when no one is signed in. Without it, only links of executions without an owner open.
     */
    scope?: (request: Request) => string | undefined | Promise<string | undefined>;
  };
  /** Refuse approve, reject and rollback (shown, not offered). @default false */
  readOnly?: boolean;
  /** How often the page refreshes the list, in ms. @default 2000 */
  refreshMs?: number;
  /**
   * Test seams; not part of the published types.
   * @internal
   */
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
const API_PATH = /^(.*)\/api(\/(?:executions(?:\/[^/]+(?:\/[a-z]+)?)?|pending))$/;
const LINK_PATH = /^(?:.*)\/link\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

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
      message:
        "must be a function (request) => { scope } | { unscoped: true } | false | Response (or a promise of one)",
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
 * under `<mount>/api/…` (see docs/inspector.md), confined to what `authorize` grants.
 *
 * @example
 * // app/codemode/[[...path]]/route.ts
 * import { createCodemodeInspector } from "ai-codemode/inspector";
 * const inspector = createCodemodeInspector({
 *   runtime,
 *   // each signed-in user sees their own executions; an admin every one
 *   authorize: async (request) => {
 *     const user = await signedInUser(request);
 *     return user === undefined ? false : user.isAdmin ? { unscoped: true } : { scope: user.id };
 *   },
 * });
 * export { inspector as GET, inspector as POST };
 */
export function createCodemodeInspector(options: CodemodeInspectorOptions): (request: Request) => Promise<Response> {
  validate(options);
  const { runtime, authorize, readOnly = false, refreshMs = DEFAULT_INSPECTOR_REFRESH_MS } = options;
  const now = options._internal?.now ?? Date.now;
  const env = options._internal?.env ?? process.env;
  const context = { runtime, readOnly, now, decidedBy: options.decidedBy };
  const links = options.approvalLinks;
  const grantOf = (request: Request) => authorizeRequest(authorize, request, env);
  const linkContext =
    links === undefined
      ? undefined
      : { runtime, secret: links.secret, scope: links.scope, grantOf, decidedBy: options.decidedBy, now };
  return async (request) => {
    const url = new URL(request.url);
    const link = LINK_PATH.exec(url.pathname);
    // A link page is for its holder, checked against the link's owner: not gated by authorize.
    if (link !== null && linkContext !== undefined) {
      if (request.method !== "GET" && isCrossSiteRequest(request))
        return jsonResponse(403, { error: "Cross-site requests may not decide approval links." });
      try {
        return await handleApprovalLink(linkContext, request, link[1] ?? "");
      } catch (error) {
        return jsonResponse(503, { error: `The inspector could not read the journal: ${messageOf(error)}` });
      }
    }
    const grant = await grantOf(request);
    if (grant instanceof Response) return grant;
    const match = API_PATH.exec(url.pathname.replace(/\/+$/, ""));
    if (match === null) {
      if (request.method !== "GET" && request.method !== "HEAD") return jsonResponse(405, { error: "use GET" });
      return pageResponse(refreshMs, request.method);
    }
    if (request.method !== "GET" && isCrossSiteRequest(request))
      return jsonResponse(403, { error: "Cross-site requests may not act on executions." });
    try {
      return await handleApiRequest(context, grant, request, match[2] ?? "", url.searchParams);
    } catch (error) {
      return jsonResponse(503, {
        error: `The inspector could not read the journal: ${messageOf(error)}`,
      });
    }
  };
}
