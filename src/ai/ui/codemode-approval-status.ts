/**
 * The status check behind a card that learns by itself that its pending call was decided elsewhere (the inspector,
 * an approval link, the CLI, an MCP client): the client posts the approvals its open cards wait on, the server
 * answers which of them no longer wait (the call was decided and the execution is not running). The card then sends
 * the answer a click would, and the bridge answers it with the stored outcome (`approved-elsewhere.ts`).
 *
 * A chat client may be hostile: it learns only about approvals it could answer itself. Each one must name an
 * execution of `scope` started by the tool call it comes with, whose call at that sequence has the arguments the id
 * was made for; with an approval secret its signature must verify first (before the store is read). Anything else
 * (forged, foreign, unknown, still pending, running) is simply not listed, so an answer never tells a made-up id from
 * a real one that still waits.
 */
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";
import { hashPendingAction, parseCodemodeApprovalId } from "./approval-id.js";
import { assertApprovalSecret, type CodemodeApprovalSecret, signatureProblem } from "./approval-signature.js";
import { DEFAULT_CODEMODE_TOOL_NAME } from "./codemode-approval-transform.js";
import type { CodemodeApprovalRuntime } from "./types.js";

/** More approvals than the open cards of one chat wait on; a larger request is refused. */
const MAX_APPROVALS = 100;
/** Far more than {@link MAX_APPROVALS} approvals take (an id, a tool call id, a signature: under 300 characters). */
const MAX_BODY_CHARS = 64_000;
/** Longer than any approval id, tool call id or signature the package issues. */
const MAX_FIELD_CHARS = 500;

const STATUS_OPTION_KEYS = keysOf<CodemodeApprovalStatusOptions>({
  runtime: true,
  request: true,
  scope: true,
  toolApprovalSecret: true,
  toolName: true,
});

/** One approval the client asks about. */
interface AskedApproval {
  approvalId: string;
  toolCallId: string;
  signature?: string;
}

/** Options of `codemodeApprovalStatus`. */
export interface CodemodeApprovalStatusOptions {
  /** The runtime behind the codemode tool (the one the chat route gives `createCodemodeChatStream`). */
  runtime: CodemodeApprovalRuntime;
  /**
   * The request `useCodemodeDecisions(chat, { statusApi })` sent: a POST whose JSON body is
   * `{ approvals: [{ approvalId, toolCallId, signature? }] }`.
   */
  request: Request;
  /**
   * The owner the request acts for (the signed-in user's id), as given to `createCodemodeChatStream({ scope })`:
   * another owner's executions are never reported.
   */
  scope?: string;
  /**
   * The chat route's `toolApprovalSecret`: an approval is checked only when its signature is the one the route
   * issued with the request.
   * @default undefined (unsigned: an approval that carries a signature is not reported)
   */
  toolApprovalSecret?: CodemodeApprovalSecret;
  /**
   * Name of the codemode tool in `tools` (part of what a signature binds).
   * @default "codemode"
   */
  toolName?: string;
}

/**
 * Answers a card's status check: `200 { decided: string[] }`, the approval ids (of those asked) that were decided
 * elsewhere, so the card answers them now and the chat continues with the stored outcome. Reads only; a malformed
 * or oversized request gets `400`/`413` and reveals nothing.
 *
 * @example
 * ```ts
 * // app/api/chat/status/route.ts
 * export async function POST(request: Request) {
 *   const userId = await signedInUser(request);
 *   return codemodeApprovalStatus({ runtime, request, scope: userId, toolApprovalSecret });
 * }
 * // the chat: useCodemodeDecisions(chat, { statusApi: "/api/chat/status" })
 * ```
 */
export async function codemodeApprovalStatus({
  runtime,
  request,
  scope,
  toolApprovalSecret,
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  ...unknown
}: CodemodeApprovalStatusOptions): Promise<Response> {
  assertKnownKeys(unknown, STATUS_OPTION_KEYS, "codemodeApprovalStatus");
  if (toolApprovalSecret !== undefined) assertApprovalSecret(toolApprovalSecret, "toolApprovalSecret");
  const asked = await readAsked(request);
  if (typeof asked === "number") return json(asked, { error: STATUS_ERRORS[asked] });
  const decided: string[] = [];
  for (const approval of asked) {
    if (await isDecidedElsewhere({ runtime, approval, scope, toolApprovalSecret, toolName }))
      decided.push(approval.approvalId);
  }
  return json(200, { decided });
}

const STATUS_ERRORS: Record<number, string> = {
  400: `Expected a JSON body { approvals: [{ approvalId, toolCallId, signature? }] } with at most ${MAX_APPROVALS} approvals.`,
  405: "Use POST.",
  413: "The request is too large.",
};

/** The approvals asked about, or the HTTP status that refuses the request. */
async function readAsked(request: Request): Promise<AskedApproval[] | number> {
  if (request.method !== "POST") return 405;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_CHARS) return 413;
  const raw = await request.text().catch(() => "");
  if (raw.length > MAX_BODY_CHARS) return 413;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return 400;
  }
  const approvals = (body as { approvals?: unknown } | null)?.approvals;
  if (!Array.isArray(approvals) || approvals.length > MAX_APPROVALS) return 400;
  const asked: AskedApproval[] = [];
  for (const entry of approvals) {
    const { approvalId, toolCallId, signature } = (entry ?? {}) as Record<string, unknown>;
    if (!isField(approvalId) || !isField(toolCallId) || (signature !== undefined && !isField(signature))) return 400;
    asked.push({ approvalId, toolCallId, ...(signature === undefined ? {} : { signature }) });
  }
  return asked;
}

function isField(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_FIELD_CHARS;
}

/**
 * Whether answering `approval` now gets the stored outcome rather than a pause: its signature verifies (with a
 * secret), its execution is `scope`'s and was started by its tool call, the id names that call with its arguments,
 * and the call no longer waits while the execution is not running (it completed, failed, paused on other calls, or
 * was rejected or expired).
 */
async function isDecidedElsewhere({
  runtime,
  approval,
  scope,
  toolApprovalSecret,
  toolName,
}: {
  runtime: CodemodeApprovalRuntime;
  approval: AskedApproval;
  scope: string | undefined;
  toolApprovalSecret: CodemodeApprovalSecret | undefined;
  toolName: string;
}): Promise<boolean> {
  const { approvalId, toolCallId, signature } = approval;
  // Checked before the store is read: without the route's signature, nothing is looked up.
  if (
    (await signatureProblem({
      secret: toolApprovalSecret,
      signature,
      approval: { approvalId, toolCallId, toolName },
    })) !== undefined
  )
    return false;
  const parsed = parseCodemodeApprovalId(approvalId);
  if (parsed === undefined) return false;
  const { executionId, seq, hash } = parsed;
  const scoped = scope === undefined ? {} : { scope };
  try {
    const execution = await runtime.execution(executionId, scoped);
    if (execution === undefined || execution === null || execution.toolCallId !== toolCallId) return false;
    if (execution.status === "running") return false;
    const call = execution.calls.find((candidate) => candidate.seq === seq);
    if (call === undefined) return false;
    const { connector, method, args } = call;
    if ((await hashPendingAction({ executionId, seq, connector, method, args })) !== hash) return false;
    const pending = await runtime.pending(executionId, scoped);
    return !pending.some((action) => action.seq === seq);
  } catch {
    // A store that cannot answer now: asked again later.
    return false;
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}
