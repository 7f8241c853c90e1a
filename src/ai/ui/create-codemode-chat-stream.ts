/**
 * One call for a chat route: resolve answered codemode approvals, then (unless an
 * execution paused again) let the model continue, with paused results shown as
 * approval requests.
 */
import { createUIMessageStream, type UIMessage, type UIMessageChunk, type UIMessageStreamOnFinishCallback } from "ai";
import { answeredMessageIndex } from "./answered-message.js";
import { CHAT_REQUEST_OPTION_KEYS, type CodemodeChatRequestOptions } from "./chat-request-options.js";
import { codemodeApprovalTransform, DEFAULT_CODEMODE_TOOL_NAME } from "./codemode-approval-transform.js";
import { resumeCodemodeApprovals, type ResolvedCodemodeApproval } from "./resume-codemode-approvals.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";

/** Options of {@link createCodemodeChatStream}: the chat request's, and how the model is called after it. */
export interface CreateCodemodeChatStreamOptions<UI_MESSAGE extends UIMessage>
  extends CodemodeChatRequestOptions<UI_MESSAGE> {
  /**
   * Calls the model with the resolved conversation and returns its UI message stream,
   * typically `streamText({ ..., messages: await convertToModelMessages(messages), stopWhen: [isStepCount(10), hasPausedCodemode()] }).toUIMessageStream()`.
   * Not called when an execution paused again or an approval id was refused.
   */
  respond: (input: {
    messages: UI_MESSAGE[];
  }) => ReadableStream<UIMessageChunk> | PromiseLike<ReadableStream<UIMessageChunk>>;
  /** Called with the answered approvals before anything is streamed (for logging or audit). */
  onResolved?: (resolved: ResolvedCodemodeApproval[]) => void | PromiseLike<void>;
  /** Turns an error into the text the client sees. */
  onError?: (error: unknown) => string;
  /**
   * Called with the final messages when the stream ends (to persist the conversation). `responseMessage` is the
   * message this request wrote or updated; `messages` is the whole conversation, including the messages after an
   * earlier message that was answered.
   */
  onFinish?: UIMessageStreamOnFinishCallback<UI_MESSAGE>;
}

const CHAT_STREAM_OPTION_KEYS = [
  ...CHAT_REQUEST_OPTION_KEYS,
  ...keysOf<Omit<CreateCodemodeChatStreamOptions<UIMessage>, keyof CodemodeChatRequestOptions<UIMessage>>>({
    respond: true,
    onResolved: true,
    onError: true,
    onFinish: true,
  }),
];

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
 *
 * With useChat's default transport the body also carries `messageId`: pass it as `messageId` so that an
 * approval answered on an older card (after the conversation went on) is resolved on that card.
 */
export function createCodemodeChatStream<UI_MESSAGE extends UIMessage>({
  runtime,
  messages,
  messageId,
  respond,
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  scope,
  decidedBy,
  toolApprovalSecret,
  onResolved,
  onError,
  onFinish,
  ...unknown
}: CreateCodemodeChatStreamOptions<UI_MESSAGE>): ReadableStream<UIMessageChunk> {
  assertKnownKeys(unknown, CHAT_STREAM_OPTION_KEYS, "createCodemodeChatStream");
  // Checked now, before anything streams (a bad secret is a misconfiguration, not a chat error).
  const transform = codemodeApprovalTransform({
    toolName,
    ...(toolApprovalSecret === undefined ? {} : { toolApprovalSecret }),
  });
  const index = answeredMessageIndex(messages, messageId);
  // An earlier message is continued where it is: the stream's message is that one, and the ones after it come back
  // in `onFinish`.
  const later = index === -1 ? [] : messages.slice(index + 1);
  const continued = later.length === 0 ? messages : messages.slice(0, index + 1);
  const finish: UIMessageStreamOnFinishCallback<UIMessage> | undefined =
    onFinish === undefined
      ? undefined
      : (event) => onFinish({ ...event, messages: [...event.messages, ...later] } as Parameters<typeof onFinish>[0]);
  return createUIMessageStream<UIMessage>({
    originalMessages: continued,
    ...(onError === undefined ? {} : { onError }),
    ...(finish === undefined ? {} : { onFinish: finish }),
    execute: async ({ writer }) => {
      // Progress of resumed runs streams as it comes (preliminary results), before the outcome chunks.
      const writeProgress = (chunk: UIMessageChunk): void => writer.write(chunk);
      const resumed = await resumeCodemodeApprovals({
        runtime,
        messages,
        messageId,
        toolName,
        writeProgress,
        ...(scope === undefined ? {} : { scope }),
        ...(decidedBy === undefined ? {} : { decidedBy }),
        ...(toolApprovalSecret === undefined ? {} : { toolApprovalSecret }),
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
      writer.merge(stream.pipeThrough(transform));
    },
  });
}
