import { consumeStream, convertToModelMessages, createUIMessageStreamResponse, isStepCount, streamText } from "ai";
import { createCodemodeChatStream, hasPausedCodemode, type ResolvedCodemodeApproval } from "ai-codemode/ui";
import { openChatTurn, saveResponse } from "@/lib/chat-request";
import { getCodemodeRuntime } from "@/lib/codemode";
import { getModel } from "@/lib/model";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const system =
  "You help with the acme/web repository. Use the codemode tool: write one async arrow function that calls " +
  "github.list_pull_requests and github.merge_pull_request. When a call is rejected, do not retry it.";

function refuse(status: number, error: string): Response {
  return new Response(error, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

export async function POST(request: Request): Promise<Response> {
  // The signed-in user, the stored chat with this request applied (lib/chat-request.ts).
  const opened = await openChatTurn(request);
  if ("error" in opened) return refuse(opened.status, opened.error);
  const { userId, chatId, turn } = opened;

  const codemode = getCodemodeRuntime();
  const tools = { codemode: codemode.tool({ scope: userId }) };
  let resolved: ResolvedCodemodeApproval[] = [];
  const stream = createCodemodeChatStream({
    runtime: codemode,
    messages: turn.messages,
    // The message whose approval was answered (it may be an older card than the last message).
    messageId: turn.kind === "answers" ? turn.messageId : undefined,
    scope: userId,
    respond: async ({ messages }) =>
      streamText({
        model: getModel(),
        system,
        tools,
        messages: await convertToModelMessages(messages, { tools }),
        stopWhen: [isStepCount(8), hasPausedCodemode()],
      }).toUIMessageStream(),
    onResolved: (answered) => {
      resolved = answered;
    },
    onFinish: ({ responseMessage, isContinuation }) =>
      saveResponse({ chatId, userId, turn, resolved, responseMessage, isContinuation }),
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
  // Consumed to the end even if the browser goes away, so the outcome is saved.
  return createUIMessageStreamResponse({ stream, consumeSseStream: ({ stream }) => consumeStream({ stream }) });
}
