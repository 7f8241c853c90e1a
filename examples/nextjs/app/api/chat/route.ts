import { consumeStream, convertToModelMessages, createUIMessageStreamResponse, isStepCount, streamText } from "ai";
import { createCodemodeChatStream, hasPausedCodemode, type ResolvedCodemodeApproval } from "ai-codemode/ui";
import { openChatTurn, saveResponse } from "@/lib/chat-request";
import { getCodemodeRuntime } from "@/lib/codemode";
import { githubTools, toolApproval } from "@/lib/github-tools";
import { getModel } from "@/lib/model";
import { getSecret } from "@/lib/secrets";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const system =
  "You help with the acme/web repository. Use the codemode tool: write one async arrow function that calls " +
  "tools.list_pull_requests and tools.merge_pull_request. When a call is rejected, do not retry it.";

function refuse(status: number, error: string): Response {
  return new Response(error, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

export async function POST(request: Request): Promise<Response> {
  // The signed-in user, the stored chat with this request applied (lib/chat-request.ts).
  const opened = await openChatTurn(request);
  if ("error" in opened) return refuse(opened.status, opened.error);
  const { userId, chatId, turn } = opened;

  const codemode = getCodemodeRuntime();
  // The app's tools next to the codemode tool caller; the signed-in user owns the executions it starts.
  const tools = { ...githubTools, codemode: codemode.toolCaller({ scope: userId }) };
  // Signs approval requests: an answer without the signature issued with its request runs nothing (lib/secrets.ts).
  const toolApprovalSecret = await getSecret("toolApproval");
  let resolved: ResolvedCodemodeApproval[] = [];
  const stream = createCodemodeChatStream({
    runtime: codemode,
    messages: turn.messages,
    // The message whose approval was answered (it may be an older card than the last message).
    messageId: turn.kind === "answers" ? turn.messageId : undefined,
    scope: userId,
    toolApprovalSecret,
    respond: async ({ messages }) =>
      streamText({
        model: getModel(),
        system,
        tools,
        // AI SDK 7 tool callers: the GitHub tools are called from code only (the model's tools: codemode alone).
        experimental_toolCallers: {
          list_pull_requests: ["codemode"],
          get_pull_request: ["codemode"],
          merge_pull_request: ["codemode"],
          close_pull_request: ["codemode"],
        },
        toolApproval,
        experimental_toolApprovalSecret: toolApprovalSecret,
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
