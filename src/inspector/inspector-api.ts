/**
 * The inspector's JSON API (documented in docs/inspector.md). Everything the page
 * shows comes from here; actions call the runtime's public `approve`, `reject` and
 * `rollback`, whose outcomes (failures included) are returned as data. Every read and
 * action passes the request's granted `scope`: another owner's execution is not found.
 *
 *   GET  …/api/executions?status=&since=&limit=   the list
 *   GET  …/api/executions/:id                      one execution and its timeline (and its workflowRunUrl)
 *   GET  …/api/pending                             calls waiting for approval
 *   POST …/api/executions/:id/approve  { seq?, args? }      args: run call seq with these (an editable method)
 *   POST …/api/executions/:id/reject   { seq?, reason? }       ends the run
 *   POST …/api/executions/:id/decide   { decisions: [{ seq, approved, reason?, args? }] }
 *                                       several calls at once: a rejected one rejects inside the program
 *   POST …/api/executions/:id/rollback
 */
import type { CallDecision } from "../runtime/types.js";
import type { ExecutionStatus } from "../runtime/types.js";
import { executionTimeline } from "./execution-timeline.js";
import { inspectorJson } from "./inspector-json.js";
import type { InspectorRuntime } from "./inspector-runtime.js";
import { DEFAULT_INSPECTOR_LIST_LIMIT, EXECUTION_STATUSES, listExecutions } from "./list-executions.js";
import { type WorkflowRunUrl, workflowRunLink } from "./workflow-run-url.js";

/** Largest `limit` the list accepts. */
const MAX_API_LIST_LIMIT = 500;
/** Largest JSON body an action accepts (a call number and a reason, or one decision per pending call). */
const MAX_ACTION_BODY_CHARS = 64_000;
/** Most decisions one `decide` request carries. */
const MAX_API_DECISIONS = 200;

/** What the API needs besides the request. */
export interface InspectorApiContext {
  runtime: InspectorRuntime;
  readOnly: boolean;
  now: () => number;
  /** Who is signed in for a request (the inspector's `decidedBy` option), recorded on approve, reject and decide. */
  decidedBy?: ((request: Request) => string | undefined | Promise<string | undefined>) | undefined;
  /** The address of a workflow run (the inspector's `workflowRunUrl` option), checked by `workflowRunLink`. */
  workflowRunUrl?: WorkflowRunUrl | undefined;
}

/** The view `authorize` granted a request: the executions of `scope`, or every execution when it is undefined. */
export interface InspectorGrant {
  scope: string | undefined;
}

/** Headers of every API response. */
const API_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

/** A JSON response with the API's headers. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(inspectorJson(body), { status, headers: API_HEADERS });
}

function badRequest(error: string): Response {
  return jsonResponse(400, { error });
}

async function listRoute(
  context: InspectorApiContext,
  { scope }: InspectorGrant,
  params: URLSearchParams,
): Promise<Response> {
  const status = params.get("status") ?? undefined;
  if (status !== undefined && !EXECUTION_STATUSES.includes(status as ExecutionStatus)) {
    return badRequest(`status must be one of ${EXECUTION_STATUSES.join(", ")} (got "${status}")`);
  }
  const limitText = params.get("limit");
  const limit = limitText === null ? DEFAULT_INSPECTOR_LIST_LIMIT : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_API_LIST_LIMIT)
    return badRequest(`limit must be an integer from 1 to ${MAX_API_LIST_LIMIT}`);
  const sinceText = params.get("since");
  const since = sinceText === null ? undefined : Number(sinceText);
  if (since !== undefined && !Number.isFinite(since))
    return badRequest("since must be an instant in ms since the epoch");
  const executions = await listExecutions(context.runtime, {
    status: status as ExecutionStatus | undefined,
    since,
    limit,
    now: context.now,
    scope,
  });
  return jsonResponse(200, {
    runtime: context.runtime.name,
    now: context.now(),
    readOnly: context.readOnly,
    executions,
  });
}

async function showRoute(
  context: InspectorApiContext,
  { scope }: InspectorGrant,
  executionId: string,
): Promise<Response> {
  const execution = await context.runtime.execution(executionId, scope === undefined ? {} : { scope });
  if (execution === undefined)
    return jsonResponse(404, { error: `No execution ${executionId} in runtime "${context.runtime.name}".` });
  const workflowRunUrl = workflowRunLink(context.workflowRunUrl, execution.workflowRunId);
  return jsonResponse(200, {
    now: context.now(),
    readOnly: context.readOnly,
    execution,
    timeline: executionTimeline(execution),
    ...(workflowRunUrl === undefined ? {} : { workflowRunUrl }),
  });
}

async function readBody(request: Request): Promise<Record<string, unknown> | string> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json"))
    return "actions take a JSON body (content-type: application/json)";
  const text = await request.text();
  if (text.length > MAX_ACTION_BODY_CHARS) return `the body is larger than ${MAX_ACTION_BODY_CHARS} characters`;
  if (text.trim() === "") return {};
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : "the body must be a JSON object";
  } catch {
    return "the body is not valid JSON";
  }
}

/** The `decisions` of a decide body, or what is wrong with them. */
function readDecisions(value: unknown): CallDecision[] | string {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_API_DECISIONS)
    return `decisions must be a list of 1 to ${MAX_API_DECISIONS} { seq, approved, reason?, args? }`;
  const decisions: CallDecision[] = [];
  for (const entry of value as unknown[]) {
    const { seq, approved, reason, args } = (typeof entry === "object" && entry !== null ? entry : {}) as Record<
      string,
      unknown
    >;
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0 || typeof approved !== "boolean")
      return "each decision must be { seq: call number, approved: true | false, reason?: string }";
    if (reason !== undefined && typeof reason !== "string") return "a decision's reason must be a string";
    // The runtime validates an edit (an editable method, its input schema) and refuses the whole request otherwise.
    decisions.push({
      seq,
      approved,
      ...(reason === undefined ? {} : { reason }),
      ...(args === undefined ? {} : { args }),
    });
  }
  return decisions;
}

async function actionRoute(
  context: InspectorApiContext,
  { scope }: InspectorGrant,
  request: Request,
  executionId: string,
  action: string,
): Promise<Response> {
  if (context.readOnly) {
    return jsonResponse(403, {
      error: `This inspector is read-only: ${action} needs the app's connectors. Start it with the app's runtime (ai-codemode inspect --web --runtime <module>).`,
    });
  }
  const body = await readBody(request);
  if (typeof body === "string") return badRequest(body);
  const seq = body["seq"];
  if (seq !== undefined && (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0))
    return badRequest("seq must be a call number");
  const reason = body["reason"];
  if (reason !== undefined && typeof reason !== "string") return badRequest("reason must be a string");
  const signedIn = action === "rollback" ? undefined : await context.decidedBy?.(request);
  const by = signedIn === undefined ? {} : { decidedBy: signedIn };
  const owner = scope === undefined ? {} : { scope };
  const target = seq === undefined ? { executionId, ...owner, ...by } : { executionId, seq, ...owner, ...by };
  switch (action) {
    case "approve": {
      const args = body["args"];
      return jsonResponse(200, {
        output: await context.runtime.approve(args === undefined ? target : { ...target, args }),
      });
    }
    case "reject":
      return jsonResponse(200, {
        output: await context.runtime.reject(reason === undefined ? target : { ...target, reason }),
      });
    case "decide": {
      const decisions = readDecisions(body["decisions"]);
      if (typeof decisions === "string") return badRequest(decisions);
      return jsonResponse(200, {
        output: await context.runtime.decide({ executionId, decisions, ...owner, ...by }),
      });
    }
    default:
      return jsonResponse(200, { output: await context.runtime.rollback({ executionId, ...owner }) });
  }
}

const ROUTE = /^\/executions(?:\/([^/]+)(?:\/(approve|reject|decide|rollback))?)?$/;

/** Answers one API request within the view `grant`; `path` is what follows `/api`. */
export async function handleApiRequest(
  context: InspectorApiContext,
  grant: InspectorGrant,
  request: Request,
  path: string,
  params: URLSearchParams,
): Promise<Response> {
  if (path === "/pending") {
    if (request.method !== "GET") return jsonResponse(405, { error: "use GET" });
    const scoped = grant.scope === undefined ? {} : { scope: grant.scope };
    return jsonResponse(200, { pending: await context.runtime.pending(undefined, scoped) });
  }
  const match = ROUTE.exec(path);
  if (match === null) return jsonResponse(404, { error: `No API route ${path}.` });
  const [, encodedId, action] = match;
  const expected = action === undefined ? "GET" : "POST";
  if (request.method !== expected) return jsonResponse(405, { error: `use ${expected}` });
  if (encodedId === undefined) return listRoute(context, grant, params);
  let executionId: string;
  try {
    executionId = decodeURIComponent(encodedId);
  } catch {
    return badRequest("the execution id is not valid percent-encoding");
  }
  return action === undefined
    ? showRoute(context, grant, executionId)
    : actionRoute(context, grant, request, executionId, action);
}
