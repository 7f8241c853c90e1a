import { createModelCallToUIChunkTransform } from "@ai-sdk/workflow";
import { consumeStream, convertToModelMessages, createUIMessageStreamResponse } from "ai";
import type { ResolvedCodemodeApproval } from "ai-codemode/ui";
import { codemodeWorkflowChatStream } from "ai-codemode/workflow";
import { start } from "workflow/api";
import { openChatTurn, saveResponse } from "@/lib/chat-request";
import { getCodemodeRuntime, workflowsWoken } from "@/lib/codemode";
import { getSecret } from "@/lib/secrets";
import { chat } from "@/workflows/chat";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function refuse(status: number, error: string): Response {
  return new Response(error, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The `/workflow` chat's route. A new message starts a workflow run (workflows/chat.ts) and streams it until the run
 * ends or a program pauses: the response ends with the pause's approval request, while the run waits on its hook.
 * An answer on a card is decided through the runtime, as on `/` (signature, user and call checked, who decided
 * journaled); the decision wakes the run, and the response streams the same run on, from the program's outcome.
 * The stored chat (lib/chat-store.ts) gets the response, so a reload or a restarted server shows the card again.
 */
export async function POST(request: Request): Promise<Response> {
  const opened = await openChatTurn(request, { workflow: true });
  if ("error" in opened) return refuse(opened.status, opened.error);
  const { userId, chatId, turn } = opened;

  const codemode = getCodemodeRuntime();
  // Decisions applied here wake the waiting run; the hook secret is the one the codemode step derives tokens with.
  await workflowsWoken();
  const toolApprovalSecret = await getSecret("toolApproval");
  // The tool's description (the namespaces and their types), computed here where the runtime lives.
  const { description } = codemode.tool({ scope: userId });
  let resolved: ResolvedCodemodeApproval[] = [];
  const stream = codemodeWorkflowChatStream({
    runtime: codemode,
    messages: turn.messages,
    messageId: turn.kind === "answers" ? turn.messageId : undefined,
    scope: userId,
    decidedBy: userId,
    toolApprovalSecret,
    start: async (messages) =>
      start(chat, [
        {
          messages: await convertToModelMessages(messages),
          userId,
          description: typeof description === "string" ? description : "",
          ...(process.env.OPENAI_API_KEY ? { openaiModel: process.env.OPENAI_MODEL ?? "gpt-5-mini" } : {}),
        },
      ]),
    transform: createModelCallToUIChunkTransform,
    // The answers of this request, as decided (a refused one is `invalid`: a wrong signature, another user's, stale).
    onResolved: (answered) => {
      resolved = answered;
    },
    // The response saved when it ends: a new assistant message, or the answered one with its outcome. When every
    // answer was refused, the stored card is kept as it was, still waiting (lib/chat-request.ts).
    onFinish: ({ responseMessage, isContinuation }) =>
      saveResponse({ chatId, userId, turn, resolved, responseMessage, isContinuation }),
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
  // Consumed to the end even if the browser goes away, so the outcome is saved.
  return createUIMessageStreamResponse({ stream, consumeSseStream: ({ stream }) => consumeStream({ stream }) });
}
