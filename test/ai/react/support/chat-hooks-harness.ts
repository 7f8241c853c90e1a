/**
 * The hooks against the real thing: `useChat` from `@ai-sdk/react` with a transport that calls the chat route in
 * process (`createCodemodeChatStream` with an approval secret, a real runtime on a file database, a scripted model),
 * the chunks crossing JSON as over the wire. `useHarness` is what a card component does: the two hooks over the
 * conversation's codemode part.
 */
import { useChat } from "@ai-sdk/react";
import {
  type ChatTransport,
  convertToModelMessages,
  isStepCount,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  streamText,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { useCodemodeDecisions } from "../../../../src/ai/react/use-codemode-decisions.js";
import { useCodemodeRun } from "../../../../src/ai/react/use-codemode-run.js";
import type { CodemodeToolOptions } from "../../../../src/ai/build-codemode-tool.js";
import { createCodemodeChatStream } from "../../../../src/ai/ui/create-codemode-chat-stream.js";
import { hasPausedCodemode } from "../../../../src/ai/ui/has-paused-codemode.js";
import type { CodemodeApprovalRuntime } from "../../../../src/ai/ui/types.js";

/** The app's approval secret (at least 32 bytes). */
export const SECRET = "react-hooks-approval-secret-0123456789abcdef";

/** What the transport sent, per request: the messages as the route received them. */
export interface SentRequest {
  messages: UIMessage[];
  messageId: string | undefined;
}

/** A transport that answers each request with the codemode chat route, run in process. */
export function routeTransport({
  runtime,
  model,
  sent,
  toolOptions = {},
  secret = SECRET,
}: {
  runtime: CodemodeApprovalRuntime & { tool(options?: CodemodeToolOptions): ToolSet[string] };
  model: MockLanguageModelV4;
  sent: SentRequest[];
  toolOptions?: CodemodeToolOptions;
  secret?: string;
}): ChatTransport<UIMessage> {
  return {
    async sendMessages({ messages, messageId }) {
      const wire = JSON.parse(JSON.stringify(messages)) as UIMessage[];
      sent.push({ messages: wire, messageId });
      const tools = { codemode: runtime.tool(toolOptions) };
      const stream = createCodemodeChatStream({
        runtime,
        messages: wire,
        messageId,
        toolApprovalSecret: secret,
        respond: async ({ messages: resolved }) =>
          streamText({
            model,
            tools,
            experimental_toolApprovalSecret: secret,
            messages: await convertToModelMessages(resolved, { tools }),
            stopWhen: [isStepCount(5), hasPausedCodemode()],
          }).toUIMessageStream(),
      });
      // As over the wire: each chunk through JSON.
      return stream.pipeThrough(
        new TransformStream<UIMessageChunk, UIMessageChunk>({
          transform: (chunk, controller) => controller.enqueue(JSON.parse(JSON.stringify(chunk)) as UIMessageChunk),
        }),
      );
    },
    reconnectToStream: async () => null,
  };
}

/** What a card does: `useChat`, and the hooks over its last codemode part (and its first, an older card). */
export function useHarness(transport: ChatTransport<UIMessage>, options?: Parameters<typeof useCodemodeDecisions>[1]) {
  const chat = useChat({ transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  const decisions = useCodemodeDecisions(chat, options);
  const parts = chat.messages.flatMap((message) => message.parts).filter((p) => p.type === "tool-codemode");
  const run = useCodemodeRun(parts.at(-1));
  const firstRun = useCodemodeRun(parts[0]);
  return { chat, decisions, run, firstRun };
}
