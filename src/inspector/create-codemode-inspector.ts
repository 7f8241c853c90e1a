/**
 * `createCodemodeInspector({ runtime, authorize })`: a Fetch-API handler serving the
 * inspector page and its JSON API, for a Next.js catch-all route or any server that
 * speaks `Request`/`Response`. Every page and API request passes `authorize` first, which
 * grants one owner's executions or, said explicitly, all of them; without it, only loopback
 * requests in development are served. Approval links are checked against their own owner.
 */
import { messageOf } from "../shared/message-of.js";
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option } from "../shared/options/declare-options.js";
import { booleanOption, functionOption } from "../shared/options/option-checks.js";
import { assertHmacSecret, type HmacSecret } from "../shared/hmac.js";
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
    /** The MCP server's `approvalLinks.secret` (a string or bytes, at least 32 bytes). */
    secret: HmacSecret;
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
   * Where the app's workflow runs are observed: the address of the Workflow SDK run an execution belongs to
   * (`workflowRunId`, recorded by `ai-codemode/workflow`). The execution's view then links its run id there (opened
   * with `rel="noopener noreferrer"`), and `GET …/api/executions/:id` answers it as `workflowRunUrl`. Only an
   * absolute `http:` or `https:` URL becomes a link; any other answer (`javascript:…`, a relative path,
   * `undefined`, a throw) leaves the run id as text. The run id is journaled data: encode it
   * (`encodeURIComponent`).
   * @default undefined (the run id is shown as text)
   * @example
   * // the local web UI of `npx workflow web` (port 3456, route /run/<runId>)
   * workflowRunUrl: (workflowRunId) => `http://localhost:3456/run/${encodeURIComponent(workflowRunId)}`,
   * // on Vercel, the project's dashboard:
   * // `https://vercel.com/<team>/<project>/workflows/runs/${encodeURIComponent(workflowRunId)}?environment=production`
   */
  workflowRunUrl?: (workflowRunId: string) => string | undefined;
  /**
   * Test seams; not part of the published types.
   * @internal
   */
  _internal?: { now?: () => number; env?: Record<string, string | undefined> };
}

const API_PATH = /^(.*)\/api(\/(?:executions(?:\/[^/]+(?:\/[a-z]+)?)?|pending))$/;
const LINK_PATH = /^(?:.*)\/link\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/** `approvalLinks: { … }` of the inspector. */
type InspectorApprovalLinks = NonNullable<CodemodeInspectorOptions["approvalLinks"]>;

const APPROVAL_LINK_OPTIONS = declareOptions<InspectorApprovalLinks>()({
  secret: option((value, path) => {
    assertHmacSecret(value, path);
    return value;
  }),
  scope: functionOption<NonNullable<InspectorApprovalLinks["scope"]>>(
    "(request) => string | undefined (or a promise of one)",
  ),
});

/** How each option of {@link CodemodeInspectorOptions} is checked and defaulted. */
const INSPECTOR_OPTIONS = declareOptions<CodemodeInspectorOptions>()({
  runtime: option((value, path) => {
    if (!isInspectorRuntime(value))
      throw new InvalidOptionError({
        path,
        message:
          "must be a runtime from createCodemodeRuntime() (with executions, execution, pending, approve, reject, decide, rollback)",
      });
    return value;
  }),
  authorize: functionOption<NonNullable<CodemodeInspectorOptions["authorize"]>>(
    "(request) => { scope } | { unscoped: true } | false | Response (or a promise of one)",
  ),
  decidedBy: functionOption<NonNullable<CodemodeInspectorOptions["decidedBy"]>>(
    "(request) => string | undefined (or a promise of one)",
  ),
  approvalLinks: option((value, path) => {
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be { secret, scope? }" });
    return APPROVAL_LINK_OPTIONS.resolve(value, path);
  }),
  readOnly: booleanOption(false),
  workflowRunUrl: functionOption<NonNullable<CodemodeInspectorOptions["workflowRunUrl"]>>(
    "(workflowRunId) => string | undefined",
  ),
  refreshMs: option((value, path) => {
    if (value === undefined) return DEFAULT_INSPECTOR_REFRESH_MS;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 250)
      throw new InvalidOptionError({ path, message: `must be an integer of at least 250 ms (got ${String(value)})` });
    return value;
  }),
  _internal: option((value) => (isRecord(value) ? value : {}) as NonNullable<CodemodeInspectorOptions["_internal"]>),
});

function readOptions(options: CodemodeInspectorOptions) {
  if (!isRecord(options)) throw new InvalidOptionError({ path: "options", message: "must be { runtime, authorize }" });
  const read = INSPECTOR_OPTIONS.resolve(options, "createCodemodeInspector");
  if (read.approvalLinks !== undefined && read.readOnly)
    throw new InvalidOptionError({
      path: "createCodemodeInspector.approvalLinks",
      message: "cannot be served by a read-only inspector (readOnly: true): a link decides calls",
    });
  return read;
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
  const {
    runtime,
    authorize,
    decidedBy,
    approvalLinks: links,
    readOnly,
    refreshMs,
    workflowRunUrl,
    _internal,
  } = readOptions(options);
  const now = _internal.now ?? Date.now;
  const env = _internal.env ?? process.env;
  const context = { runtime, readOnly, now, decidedBy, workflowRunUrl };
  const grantOf = (request: Request) => authorizeRequest(authorize, request, env);
  const linkContext =
    links === undefined ? undefined : { runtime, secret: links.secret, scope: links.scope, grantOf, decidedBy, now };
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
