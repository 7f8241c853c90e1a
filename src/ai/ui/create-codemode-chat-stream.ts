/**
 * One call for a chat route: resolve answered codemode approvals, then (unless an
 * execution paused again) let the model continue, with paused results shown as
 * approval requests.
 */
import { createUIMessageStream, type UIMessage, type UIMessageChunk, type UIMessageStreamOnFinishCallback } from "ai";
import { codemodeApprovalTransform, DEFAULT_CODEMODE_TOOL_NAME } from "./codemode-approval-transform.js";
import { resumeCodemodeApprovals, type ResolvedCodemodeApproval } from "./resume-codemode-approvals.js";
import type { CodemodeApprovalRuntime } from "./types.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";

/** Options of {@link createCodemodeChatStream}. */
export interface CreateCodemodeChatStreamOptions<UI_MESSAGE extends UIMessage> {
  /** The runtime behind the codemode tool (any instance on the same store and name). */
  runtime: CodemodeApprovalRuntime;
  /** The conversation as the client sent it. */
  messages: UI_MESSAGE[];
  /**
   * Calls the model with the resolved conversation and returns its UI message stream,
   * typically `streamText({ ..., messages: await convertToModelMessages(messages), stopWhen: [isStepCount(10), hasPausedCodemode()] }).toUIMessageStream()`.
   * Not called when an execution paused again or an approval id was refused.
   */
  respond: (input: {
    messages: UI_MESSAGE[];
  }) => ReadableStream<UIMessageChunk> | PromiseLike<ReadableStream<UIMessageChunk>>;
  /**
   * Name of the codemode tool in `tools`.
   * @default "codemode"
   */
  toolName?: string;
  /**
   * The owner this request acts for (e.g. the signed-in user's id); give the same value to `runtime.tool({ scope })`.
   * Approvals of executions of another scope are refused as `not-found`.
   */
  scope?: string;
  /** Called with the answered approvals before anything is streamed (for logging or audit). */
  onResolved?: (resolved: ResolvedCodemodeApproval[]) => void | PromiseLike<void>;
  /** Turns an error into the text the client sees. */
  onError?: (error: unknown) => string;
  /** Called with the final messages when the stream ends (to persist the conversation). */
  onFinish?: UIMessageStreamOnFinishCallback<UI_MESSAGE>;
}

const CHAT_STREAM_OPTION_KEYS = keysOf<CreateCodemodeChatStreamOptions<UIMessage>>({
  runtime: true,
  messages: true,
  respond: true,
  toolName: true,
  scope: true,
  onResolved: true,
  onError: true,
  onFinish: true,
});

/**
 * The UI message stream for one chat request with codemode approvals. Give it to
 * `createUIMessageStreamResponse({ stream })`.
 *
 * @example
 * ```ts
 * export async function POST(request: Request) {
 *   const { messages } = await request.json();
 *   const stream = createCodemodeChatStream({
 *     runtime,
 *     messages,
 *     respond: async ({ messages }) =>
 *       streamText({ model, tools, messages: await convertToModelMessages(messages), stopWhen: [isStepCount(10), hasPausedCodemode()] })
 *         .toUIMessageStream(),
 *   });
 *   return createUIMessageStreamResponse({ stream });
 * }
 * ```
 */
export function createCodemodeChatStream<UI_MESSAGE extends UIMessage>({
  runtime,
  messages,
  respond,
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  scope,
  onResolved,
  onError,
  onFinish,
  ...unknown
}: CreateCodemodeChatStreamOptions<UI_MESSAGE>): ReadableStream<UIMessageChunk> {
  assertKnownKeys(unknown, CHAT_STREAM_OPTION_KEYS, "createCodemodeChatStream");
  return createUIMessageStream<UIMessage>({
    originalMessages: messages,
    ...(onError === undefined ? {} : { onError }),
    ...(onFinish === undefined ? {} : { onFinish: onFinish as UIMessageStreamOnFinishCallback<UIMessage> }),
    execute: async ({ writer }) => {
      // Progress of resumed runs streams as it comes (preliminary results), before the outcome chunks.
      const writeProgress = (chunk: UIMessageChunk): void => writer.write(chunk);
      const resumed = await resumeCodemodeApprovals({
        runtime,
        messages,
        toolName,
        writeProgress,
        ...(scope === undefined ? {} : { scope }),
      });
      if (resumed.resolved.length > 0) await onResolved?.(resumed.resolved);
      if (!resumed.continueModel) {
        writer.write({ type: "start" });
        for (const chunk of resumed.chunks) writer.write(chunk);
        writer.write({ type: "finish" });
        return;
      }
      for (const chunk of resumed.chunks) writer.write(chunk);
      const stream = await respond({ messages: resumed.messages });
      writer.merge(stream.pipeThrough(codemodeApprovalTransform({ toolName })));
    },
  });
}
