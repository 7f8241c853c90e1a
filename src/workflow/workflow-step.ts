/**
 * The step side of `ai-codemode/workflow` (runs in a `"use step"` function, with Node and the app's runtime): one
 * execution per workflow run and tool call, found again by its deterministic id when the Workflow SDK retries the
 * step or a restarted process replays the run; the pause answered with the hook token the workflow waits on.
 * Everything the step answers is read from the journal, never from a hook's payload.
 */
import { getWritable } from "workflow";
import { assertApprovalSecret, type CodemodeApprovalSecret } from "../ai/ui/approval-signature.js";
import { DEFAULT_CODEMODE_TOOL_NAME } from "../ai/ui/codemode-approval-transform.js";
import { createCodemodeApprovalRequest } from "../ai/ui/paused-output.js";
import { assertHmacSecret, type HmacSecret, hmacSign } from "../shared/hmac.js";
import { addDecisionListener } from "../runtime/decision-listeners.js";
import type { DurableRuntime } from "../runtime/durable-runtime-handle.js";
import type { CodemodeOutput, ExecutionDetail, PendingAction } from "../runtime/types.js";

/** What the workflow asks its codemode step: start (or find again) the program of one tool call, or read it again. */
export type CodemodeWorkflowStepRequest =
  | {
      /** Start the program of this tool call, or find the execution an earlier attempt started. */
      action: "run";
      code: string;
      /** The workflow run (`getWorkflowMetadata().workflowRunId`). */
      workflowRunId: string;
      /** The outer `codemode` tool call. */
      toolCallId: string;
      /** The owner of a new execution (`execute({ code, scope })`): the chat's user, so the chat can decide it. */
      scope?: string;
    }
  | {
      /** Read the execution again after its hook was resumed (the journal says what was decided). */
      action: "check";
      workflowRunId: string;
      toolCallId: string;
      /**
       * The sequence numbers of the pause the workflow already waits on: a pause on the same calls is not written
       * to the run's stream again (with `chat`).
       */
      waitingOn?: number[];
    };

/** The step's answer: the program's outcome, or a pause with the hook token the workflow waits on. */
export type CodemodeWorkflowStepResult =
  | Exclude<CodemodeOutput, { status: "paused" }>
  | { status: "paused"; executionId: string; pending: PendingAction[]; hookToken: string };

/** Options of {@link runCodemodeWorkflowStep}. */
export interface CodemodeWorkflowStepOptions {
  /**
   * The secret hook tokens are derived with (HMAC-SHA256, at least 32 bytes). Every process that decides and
   * should wake the workflow needs the same one.
   * @default process.env.CODEMODE_WORKFLOW_SECRET
   */
  secret?: HmacSecret;
  /**
   * Shows each new pause in the chat: the step writes it to the workflow run's stream (`getWritable()`) as the
   * codemode tool call's `tool-approval-request`, built as `createCodemodeChatStream` builds it, so the chat's card
   * shows it unchanged and `codemodeWorkflowChatStream` ends the response there.
   * @default undefined (a pause is not written to the run's stream)
   */
  chat?: CodemodeWorkflowChatOptions;
}

/** How {@link runCodemodeWorkflowStep} writes a pause to the run's stream for the chat (its `chat` option). */
export interface CodemodeWorkflowChatOptions {
  /**
   * Signs the approval requests: the `toolApprovalSecret` the chat route gives `codemodeWorkflowChatStream` (or
   * `createCodemodeChatStream`), which refuses an answer without its signature. At least 32 bytes.
   * @default undefined (unsigned)
   */
  toolApprovalSecret?: CodemodeApprovalSecret;
  /**
   * Name of the codemode tool in the agent's `tools`.
   * @default "codemode"
   */
  toolName?: string;
}

const EXECUTION_ID_PREFIX = "wf_";
const HOOK_TOKEN_PREFIX = "codemode-hook:";

/** The execution id of one workflow run's tool call: the same on every attempt, unique per run and call. */
export async function workflowExecutionId(workflowRunId: string, toolCallId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${workflowRunId}\n${toolCallId}`));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${EXECUTION_ID_PREFIX}${hex.slice(0, 40)}`;
}

/** The hook token of an execution: derived from it under the secret, so nobody without the secret can name it. */
async function workflowHookToken(secret: HmacSecret, executionId: string): Promise<string> {
  return `${HOOK_TOKEN_PREFIX}${executionId}:${await hmacSign(secret, `codemode-workflow-hook\n${executionId}`)}`;
}

/** The secret of the options, else of the environment; refused (thrown, construction misuse) when missing or short. */
function resolveWorkflowSecret(options: CodemodeWorkflowStepOptions | undefined): HmacSecret {
  const secret = options?.secret ?? globalThis.process?.env?.["CODEMODE_WORKFLOW_SECRET"];
  assertHmacSecret(secret, "secret (or CODEMODE_WORKFLOW_SECRET)");
  return secret;
}

/** Resumes the hook of a decided execution; a missing hook (no workflow waits on it) is not an error. */
async function wakeWorkflow(secret: HmacSecret, executionId: string): Promise<void> {
  if (!executionId.startsWith(EXECUTION_ID_PREFIX)) return;
  const { resumeHook } = await import("workflow/api");
  // The payload carries nothing the step trusts: the step reads the decision from the journal.
  await resumeHook(await workflowHookToken(secret, executionId), { executionId });
}

const installed = new Map<string, () => void>();

/**
 * Makes every decision this process applies (the chat's decision endpoint, the inspector, an approval link, MCP, a
 * script calling `runtime.approve`) wake the workflow waiting on that execution, through `resumeHook` of the
 * configured workflow world. Call it once where the doors run (the codemode step calls it too); calling it again
 * with the same secret does nothing. The returned function stops it.
 */
export function wakeCodemodeWorkflows(options?: CodemodeWorkflowStepOptions): () => void {
  const secret = resolveWorkflowSecret(options);
  const key = typeof secret === "string" ? secret : Array.from(secret).join(",");
  const known = installed.get(key);
  if (known !== undefined) return known;
  const remove = addDecisionListener(({ executionId }) => wakeWorkflow(secret, executionId));
  const stop = () => {
    installed.delete(key);
    remove();
  };
  installed.set(key, stop);
  return stop;
}

function fromDetail(detail: ExecutionDetail): CodemodeOutput {
  const { executionId } = detail;
  switch (detail.status) {
    case "completed":
      return { status: "completed", executionId, result: detail.result };
    case "paused":
      return { status: "paused", executionId, pending: detail.pending };
    case "rejected":
      return { status: "error", executionId, kind: "rejected", error: detail.error ?? "Rejected by a human." };
    default:
      return {
        status: "error",
        executionId,
        kind: detail.kind ?? "exception",
        error: detail.error ?? `The execution ended ${detail.status}.`,
      };
  }
}

async function withHook(secret: HmacSecret, output: CodemodeOutput): Promise<CodemodeWorkflowStepResult> {
  if (output.status !== "paused") return output;
  return {
    status: "paused",
    executionId: output.executionId,
    pending: output.pending,
    hookToken: await workflowHookToken(secret, output.executionId),
  };
}

/**
 * The body of the app's codemode step: runs (or finds again) the program of one workflow tool call with `runtime`.
 * A retried step finds the execution its earlier attempt started and answers from the journal; a paused program
 * answers with the hook token to wait on. Call it from a `"use step"` function that holds the runtime.
 *
 * @example
 * ```ts
 * async function codemodeStep(request: CodemodeWorkflowStepRequest) {
 *   "use step";
 *   return runCodemodeWorkflowStep(runtime, request);
 * }
 * ```
 */
export async function runCodemodeWorkflowStep(
  runtime: Pick<DurableRuntime, "execute" | "execution">,
  request: CodemodeWorkflowStepRequest,
  options?: CodemodeWorkflowStepOptions,
): Promise<CodemodeWorkflowStepResult> {
  const secret = resolveWorkflowSecret(options);
  const chat = options?.chat;
  if (chat?.toolApprovalSecret !== undefined) assertApprovalSecret(chat.toolApprovalSecret, "chat.toolApprovalSecret");
  wakeCodemodeWorkflows(options);
  const result = await runOrRead(runtime, request, secret);
  if (chat !== undefined && result.status === "paused" && isNewPause(request, result.pending)) {
    await announcePause(chat, request.toolCallId, result);
  }
  return result;
}

/** Whether the workflow does not wait on this pause yet (a first run, or a pass that paused on other calls). */
function isNewPause(request: CodemodeWorkflowStepRequest, pending: PendingAction[]): boolean {
  if (request.action === "run" || request.waitingOn === undefined) return true;
  const now = pending.map((action) => action.seq).sort((a, b) => a - b);
  const before = [...request.waitingOn].sort((a, b) => a - b);
  return now.length !== before.length || now.some((seq, index) => seq !== before[index]);
}

/** Writes the pause to the run's stream as the codemode tool call's approval request (a retried step: same id). */
async function announcePause(
  chat: CodemodeWorkflowChatOptions,
  toolCallId: string,
  paused: Extract<CodemodeWorkflowStepResult, { status: "paused" }>,
): Promise<void> {
  const { toolApprovalSecret, toolName = DEFAULT_CODEMODE_TOOL_NAME } = chat;
  const chunk = await createCodemodeApprovalRequest({
    toolCallId,
    output: { status: "paused", executionId: paused.executionId, pending: paused.pending },
    signing: toolApprovalSecret === undefined ? undefined : { secret: toolApprovalSecret, toolName },
  });
  const writer = getWritable<unknown>().getWriter();
  try {
    await writer.write(chunk);
  } finally {
    writer.releaseLock();
  }
}

async function runOrRead(
  runtime: Pick<DurableRuntime, "execute" | "execution">,
  request: CodemodeWorkflowStepRequest,
  secret: HmacSecret,
): Promise<CodemodeWorkflowStepResult> {
  const executionId = await workflowExecutionId(request.workflowRunId, request.toolCallId);
  const known = await runtime.execution(executionId);
  if (known === undefined && request.action === "check") {
    return {
      status: "error",
      executionId,
      kind: "not-found",
      error: `Execution ${executionId} is not in the journal.`,
    };
  }
  if (known !== undefined && known.status !== "running") return withHook(secret, fromDetail(known));
  // New, or running: a process that died mid-pass left it running; once its lease expires, execute takes it over
  // and replays the journal. While the lease is live (a pass runs elsewhere, e.g. a door's approved pass), the
  // workflow waits on the hook again: that pass's decision wakes it, the recheck after a lease is the backstop.
  const code = known?.code ?? (request as { code: string }).code;
  const scope = request.action === "run" ? request.scope : undefined;
  const output = await runtime.execute(
    { code, ...(scope === undefined ? {} : { scope }) },
    { executionId, toolCallId: request.toolCallId, workflowRunId: request.workflowRunId },
  );
  if (known !== undefined && output.status === "error" && output.kind === "conflict") {
    return withHook(secret, { status: "paused", executionId, pending: known.pending });
  }
  return withHook(secret, output);
}
