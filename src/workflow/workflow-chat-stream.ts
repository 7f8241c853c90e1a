/**
 * The chat route of an agent that runs as a workflow (route side, Node): a new turn starts a run and streams it until
 * the run ends or a program pauses (the response ends there, so nothing waits on the connection while a person
 * decides); an answered codemode approval is decided through the runtime (which wakes the waiting workflow) and the
 * response streams the continuation of the same run, from the tool's outcome on. The model is never called here.
 */
import { createUIMessageStream, type UIMessage, type UIMessageChunk, type UIMessageStreamOnFinishCallback } from "ai";
import { answeredMessageIndex } from "../ai/ui/answered-message.js";
import { parseCodemodeApprovalId } from "../ai/ui/approval-id.js";
import { assertApprovalSecret, type CodemodeApprovalSecret } from "../ai/ui/approval-signature.js";
import { CHAT_REQUEST_OPTION_KEYS, type CodemodeChatRequestOptions } from "../ai/ui/chat-request-options.js";
import { DEFAULT_CODEMODE_TOOL_NAME } from "../ai/ui/codemode-approval-transform.js";
import { createCodemodeChatStream } from "../ai/ui/create-codemode-chat-stream.js";
import { createCodemodeApprovalRequest, type ToolApprovalRequestChunk } from "../ai/ui/paused-output.js";
import type { ResolvedCodemodeApproval } from "../ai/ui/resume-codemode-approvals.js";
import type { CodemodeApprovalRuntime } from "../ai/ui/types.js";
import { CodemodeArgumentError } from "../errors/codemode-argument-error.js";
import { assertKnownKeys, keysOf } from "../shared/known-keys.js";

/** Options of {@link codemodeWorkflowChatStream}: the chat request's, and how the workflow run is started and read. */
export interface CodemodeWorkflowChatStreamOptions<UI_MESSAGE extends UIMessage>
  extends CodemodeChatRequestOptions<UI_MESSAGE> {
  /**
   * Starts the workflow run of a new turn (a new user message, or an answer to the agent's own `needsApproval`,
   * which `WorkflowAgent` reads from the messages) and returns it: `(messages) => start(chat, [messages, userId])`
   * (`start` of `"workflow/api"`; convert the messages inside the workflow or here).
   */
  start: (messages: UI_MESSAGE[]) => PromiseLike<{
    /** The run's stream from its start (the `Run`'s own `getReadable()`). */
    getReadable(): ReadableStream<unknown>;
  }>;
  /**
   * Turns the run's stream into UI message chunks: `createModelCallToUIChunkTransform` of `@ai-sdk/workflow` for a
   * `WorkflowAgent` (its stream holds model call parts); `() => new TransformStream()` for a workflow that writes UI
   * message chunks itself.
   */
  transform: () => TransformStream<never, UIMessageChunk>;
  /** Turns an error into the text the client sees. */
  onError?: (error: unknown) => string;
  /**
   * Called with the answered codemode approvals before anything is streamed (for logging, audit, or to keep a stored
   * card as it was when every answer was refused: those are `status: "invalid"`). Not called for a new turn.
   */
  onResolved?: (resolved: ResolvedCodemodeApproval[]) => void | PromiseLike<void>;
  /**
   * Called with the final messages when the stream ends (to persist the conversation): `responseMessage` is the
   * message this request wrote or continued, as in `createCodemodeChatStream`.
   */
  onFinish?: UIMessageStreamOnFinishCallback<UI_MESSAGE>;
}

const WORKFLOW_CHAT_STREAM_OPTION_KEYS = [
  ...CHAT_REQUEST_OPTION_KEYS,
  ...keysOf<Omit<CodemodeWorkflowChatStreamOptions<UIMessage>, keyof CodemodeChatRequestOptions<UIMessage>>>({
    start: true,
    transform: true,
    onError: true,
    onResolved: true,
    onFinish: true,
  }),
];

type Part = Record<string, unknown> & { toolCallId?: unknown; approval?: { id?: unknown } };

/** The tool calls of the answered message whose codemode approval (`cm_…`) the person answered. */
function answeredCodemodeCalls(messages: UIMessage[], messageId: string | undefined, toolName: string): string[] {
  const answered = messages[answeredMessageIndex(messages, messageId)];
  if (answered === undefined) return [];
  return (answered.parts as Part[]).flatMap((part) => {
    const isCodemode =
      part["type"] === `tool-${toolName}` || (part["type"] === "dynamic-tool" && part["toolName"] === toolName);
    const id = part.approval?.id;
    return isCodemode &&
      part["state"] === "approval-responded" &&
      typeof part.toolCallId === "string" &&
      typeof id === "string" &&
      parseCodemodeApprovalId(id) !== undefined
      ? [part.toolCallId]
      : [];
  });
}

/**
 * The UI message stream of one chat request whose agent runs as a workflow (a `WorkflowAgent` with
 * `codemodeWorkflowTool`, its step given `chat`). Give it to `createUIMessageStreamResponse({ stream })`.
 *
 * - A request that answers no codemode approval (a new user message, or the agent's own approval) calls `start` and
 *   streams the new run until it ends or a program pauses: the response ends with the pause's approval request
 *   (rebuilt from the journal, signed with `toolApprovalSecret`), while the run waits on its hook.
 * - A request that answers a codemode approval decides it as `createCodemodeChatStream` does (signature, scope and
 *   tool call checked; `decidedBy` journaled; the approved pass runs here) and, when the model should go on, streams
 *   the same run (`getRun(workflowRunId)`) from that tool call's outcome on, until it ends or the next pause. A
 *   refused answer decides nothing and the run keeps waiting.
 *
 * Call `wakeCodemodeWorkflows()` in the process, so the decision resumes the run at once.
 *
 * @example
 * ```ts
 * import { createModelCallToUIChunkTransform } from "@ai-sdk/workflow";
 * import { createUIMessageStreamResponse } from "ai";
 * import { codemodeWorkflowChatStream } from "ai-codemode/workflow";
 * import { start } from "workflow/api";
 *
 * export async function POST(request: Request) {
 *   const { messages, messageId } = await request.json();
 *   const userId = await currentUserId(request);
 *   const stream = codemodeWorkflowChatStream({
 *     runtime,
 *     messages,
 *     messageId,
 *     scope: userId,
 *     decidedBy: userId,
 *     toolApprovalSecret: process.env.TOOL_APPROVAL_SECRET,
 *     start: (messages) => start(chat, [messages, userId]),
 *     transform: createModelCallToUIChunkTransform,
 *   });
 *   return createUIMessageStreamResponse({ stream });
 * }
 * ```
 */
export function codemodeWorkflowChatStream<UI_MESSAGE extends UIMessage>({
  runtime,
  messages,
  messageId,
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  scope,
  decidedBy,
  toolApprovalSecret,
  start,
  transform,
  onError,
  onResolved,
  onFinish,
  ...unknown
}: CodemodeWorkflowChatStreamOptions<UI_MESSAGE>): ReadableStream<UIMessageChunk> {
  assertKnownKeys(unknown, WORKFLOW_CHAT_STREAM_OPTION_KEYS, "codemodeWorkflowChatStream");
  if (typeof start !== "function" || typeof transform !== "function") {
    throw new CodemodeArgumentError({
      argument: "codemodeWorkflowChatStream(options)",
      message: "`start` (starts the workflow run) and `transform` (its stream to UI message chunks) are required",
    });
  }
  if (toolApprovalSecret !== undefined) assertApprovalSecret(toolApprovalSecret, "toolApprovalSecret");
  const reading: RunReading = {
    runtime,
    transform,
    signing: toolApprovalSecret === undefined ? undefined : { secret: toolApprovalSecret, toolName },
    ...(scope === undefined ? {} : { scope }),
  };
  if (answeredCodemodeCalls(messages, messageId, toolName).length === 0) {
    // An answer to the agent's own approval continues its message (the start chunk keeps that message's id).
    return createUIMessageStream<UIMessage>({
      originalMessages: messages,
      ...(onError === undefined ? {} : { onError }),
      ...(onFinish === undefined ? {} : { onFinish: onFinish as UIMessageStreamOnFinishCallback<UIMessage> }),
      execute: async ({ writer }) => {
        const run = await start(messages);
        writer.merge(untilPause(reading, run.getReadable(), new Set()));
      },
    });
  }
  let resolved: ResolvedCodemodeApproval[] = [];
  return createCodemodeChatStream({
    runtime,
    messages,
    toolName,
    ...(messageId === undefined ? {} : { messageId }),
    ...(scope === undefined ? {} : { scope }),
    ...(decidedBy === undefined ? {} : { decidedBy }),
    ...(toolApprovalSecret === undefined ? {} : { toolApprovalSecret }),
    ...(onError === undefined ? {} : { onError }),
    ...(onFinish === undefined ? {} : { onFinish }),
    onResolved: async (answered) => {
      resolved = answered;
      await onResolved?.(answered);
    },
    // Called only when every answer was valid and no program paused again: the run goes on from the outcome.
    respond: async () => {
      const runIds = new Set<string>();
      for (const { approvalId } of resolved) {
        const executionId = parseCodemodeApprovalId(approvalId)?.executionId;
        const detail =
          executionId === undefined
            ? undefined
            : await runtime.execution(executionId, scope === undefined ? {} : { scope });
        if (detail?.workflowRunId !== undefined) runIds.add(detail.workflowRunId);
      }
      const [runId, ...others] = runIds;
      // Decided all the same; only the continuation has no single run to come from.
      if (runId === undefined || others.length > 0) {
        const errorText =
          runId === undefined
            ? "The answered codemode approval was decided, but its execution belongs to no workflow run."
            : "The answered codemode approvals were decided, but they belong to several workflow runs.";
        return new ReadableStream<UIMessageChunk>({
          start(controller) {
            controller.enqueue({ type: "error", errorText });
            controller.close();
          },
        });
      }
      const { getRun } = await import("workflow/api");
      const outcomes = new Set(resolved.map((answer) => answer.toolCallId));
      return untilPause(reading, getRun(runId).getReadable(), outcomes);
    },
  });
}

interface RunReading {
  runtime: CodemodeApprovalRuntime;
  transform: CodemodeWorkflowChatStreamOptions<UIMessage>["transform"];
  signing: { secret: CodemodeApprovalSecret; toolName: string } | undefined;
  scope?: string;
}

const OUTCOME_CHUNKS = new Set(["tool-output-available", "tool-output-error", "tool-output-denied"]);

/**
 * The run's UI message chunks, after the outcomes of `skipUntil`'s tool calls (the client has those from the
 * decision), ending after the run's last chunk or after the next codemode approval request.
 */
function untilPause(
  { runtime, transform, signing, scope }: RunReading,
  source: ReadableStream<unknown>,
  skipUntil: Set<string>,
): ReadableStream<UIMessageChunk> {
  const reader = (source as ReadableStream<never>).pipeThrough(transform()).getReader();
  const waiting = new Set(skipUntil);
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        if (waiting.size > 0) {
          const toolCallId = (value as { toolCallId?: unknown }).toolCallId;
          if (OUTCOME_CHUNKS.has(value.type) && typeof toolCallId === "string") waiting.delete(toolCallId);
          continue;
        }
        if (value.type === "tool-approval-request" && parseCodemodeApprovalId(value.approvalId) !== undefined) {
          const request = await fromJournal(runtime, value, signing, scope);
          // Decided already (by another door): its outcome follows in the run's stream.
          if (request === undefined) continue;
          controller.enqueue(request);
          controller.enqueue({ type: "finish-step" });
          controller.enqueue({ type: "finish" });
          controller.close();
          await reader.cancel();
          return;
        }
        controller.enqueue(value);
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * The approval request of a pause that is still waiting, built from the journal as the chat builds it (the run's
 * copy may have lost its descriptor on the way through `transform`), or nothing when it was decided meanwhile.
 */
async function fromJournal(
  runtime: CodemodeApprovalRuntime,
  chunk: Extract<UIMessageChunk, { type: "tool-approval-request" }>,
  signing: { secret: CodemodeApprovalSecret; toolName: string } | undefined,
  scope: string | undefined,
): Promise<ToolApprovalRequestChunk | undefined> {
  const executionId = parseCodemodeApprovalId(chunk.approvalId)?.executionId;
  if (executionId === undefined) return undefined;
  const detail = await runtime.execution(executionId, scope === undefined ? {} : { scope });
  if (detail?.status !== "paused" || detail.pending.length === 0) return undefined;
  const request = await createCodemodeApprovalRequest({
    toolCallId: chunk.toolCallId,
    output: { status: "paused", executionId, pending: detail.pending },
    signing,
  });
  return request.approvalId === chunk.approvalId ? request : undefined;
}
