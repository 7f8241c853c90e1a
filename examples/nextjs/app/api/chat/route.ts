import {
  consumeStream,
  convertToModelMessages,
  createUIMessageStreamResponse,
  isStepCount,
  streamText,
  type UIMessage,
} from "ai";
import { createCodemodeChatStream, hasPausedCodemode, type ResolvedCodemodeApproval } from "ai-codemode/ui";
import { applyRequest, readChatRequest, type ChatTurn } from "@/lib/chat-request";
import { appendMessage, loadChat, updateMessage } from "@/lib/chat-store";
import { getCodemodeRuntime } from "@/lib/codemode";
import { getModel } from "@/lib/model";
import { userOfRequest } from "@/lib/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const system =
  "You help with the acme/web repository. Use the codemode tool: write one async arrow function that calls " +
  "github.list_pull_requests and github.merge_pull_request. When a call is rejected, do not retry it.";

function refuse(status: number, error: string): Response {
  return new Response(error, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

export async function POST(request: Request): Promise<Response> {
  // Who asks: the signed session cookie (lib/session.ts). It owns the chat and is the codemode `scope`.
  const userId = await userOfRequest(request);
  if (userId === undefined) return refuse(401, "Not signed in: reload the page.");
  const sent = await readChatRequest(request);
  if ("error" in sent) return refuse(sent.status, sent.error);
  const chat = await loadChat({ chatId: sent.chatId, userId });
  // Another user's chat is answered exactly like a chat that does not exist: nothing is run or revealed.
  if (chat.status === "foreign") return refuse(404, "No such chat.");
  const turn = applyRequest(chat.status === "mine" ? chat.messages : [], sent);
  if ("error" in turn) return refuse(turn.status, turn.error);
  if (turn.kind === "user-message" && !(await appendMessage({ chatId: sent.chatId, userId, message: turn.message }))) {
    return refuse(409, "This chat changed meanwhile: reload the page.");
  }

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
      saveResponse({ chatId: sent.chatId, userId, turn, resolved, responseMessage, isContinuation }),
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
  // Consumed to the end even if the browser goes away, so the outcome is saved.
  return createUIMessageStreamResponse({ stream, consumeSseStream: ({ stream }) => consumeStream({ stream }) });
}

/**
 * Keeps what the person saw. An answered message is replaced only if nobody changed it since it was read
 * (the first outcome of two tabs wins), and not at all when every answer was refused (a stale or forged
 * approval id): the stored card stays as it was and can still be decided.
 */
async function saveResponse({
  chatId,
  userId,
  turn,
  resolved,
  responseMessage,
  isContinuation,
}: {
  chatId: string;
  userId: string;
  turn: ChatTurn;
  resolved: ResolvedCodemodeApproval[];
  responseMessage: UIMessage;
  isContinuation: boolean;
}): Promise<void> {
  if (!isContinuation) {
    await appendMessage({ chatId, userId, message: responseMessage });
    return;
  }
  if (turn.kind !== "answers") return;
  if (resolved.length > 0 && resolved.every((answer) => answer.status === "invalid")) return;
  await updateMessage({ chatId, message: responseMessage, version: turn.version });
}
