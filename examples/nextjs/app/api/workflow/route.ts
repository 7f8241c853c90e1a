import { createModelCallToUIChunkTransform } from "@ai-sdk/workflow";
import { consumeStream, convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { start } from "workflow/api";
import { openChatTurn, saveResponse } from "@/lib/chat-request";
import { getCodemodeRuntime } from "@/lib/codemode";
import { chat } from "@/workflows/chat";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function refuse(status: number, error: string): Response {
  return new Response(error, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

export async function POST(request: Request): Promise<Response> {
  const opened = await openChatTurn(request);
  if ("error" in opened) return refuse(opened.status, opened.error);
  const { userId, chatId, turn } = opened;
  if (turn.kind !== "user-message") return refuse(501, "not yet");
  const { description } = getCodemodeRuntime().tool({ scope: userId });
  const run = await start(chat, [
    {
      messages: await convertToModelMessages(turn.messages),
      userId,
      description: typeof description === "string" ? description : "",
      ...(process.env.OPENAI_API_KEY ? { openaiModel: process.env.OPENAI_MODEL ?? "gpt-5-mini" } : {}),
    },
  ]);
  const stream = createUIMessageStream({
    originalMessages: turn.messages,
    execute: ({ writer }) => writer.merge(run.readable.pipeThrough(createModelCallToUIChunkTransform())),
    onFinish: ({ responseMessage, isContinuation }) =>
      saveResponse({ chatId, userId, turn, resolved: [], responseMessage, isContinuation }),
  });
  return createUIMessageStreamResponse({ stream, consumeSseStream: ({ stream }) => consumeStream({ stream }) });
}
