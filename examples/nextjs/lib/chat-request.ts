/**
 * What the browser sends, and how it meets the stored chat. The client sends one message per
 * request (`prepareSendMessagesRequest` in app/chat.tsx): a new user message, or the assistant
 * message whose approval the person answered. The server keeps the history: from an assistant
 * message it takes only the answers (approved, reason) to approval requests the stored message is
 * waiting for, never the client's parts, so a client cannot write tool results the model will read.
 * The signature an answer carries is the client's, not the stored one: the bridge checks that it is the one it
 * issued with the request (`toolApprovalSecret`), so an answer whose signature was altered or dropped runs nothing.
 */
import { safeValidateUIMessages, type UIMessage } from "ai";
import type { ResolvedCodemodeApproval } from "ai-codemode/ui";
import { appendMessage, isWorkflowChat, loadChat, type StoredMessage, updateMessage } from "./chat-store";
import { userOfRequest } from "./session";

/** An answer to one approval request, as the client sent it. */
export interface ApprovalAnswer {
  toolCallId: string;
  approvalId: string;
  approved: boolean;
  reason?: string;
  /** The signature the client echoes from the approval request (checked by the bridge). */
  signature?: string;
}

/** A request: a new user message, or answers to the approvals of an assistant message. */
export type ChatRequest =
  | { chatId: string; kind: "user-message"; message: UIMessage }
  | { chatId: string; kind: "answers"; messageId: string; answers: ApprovalAnswer[] };

/** A rejected request: the HTTP status and the text the chat shows. */
export interface ChatRequestError {
  status: number;
  error: string;
}

const CHAT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The longest prompt the example accepts. */
const MAX_TEXT_CHARS = 4_000;
/**
 * The longest approval reason: as long as the longest decisions document the bridge reads (64,000 characters; it
 * refuses a longer one itself, so this cap only keeps the request small).
 */
const MAX_REASON_CHARS = 64_000;
/** Longer than any signature (an HMAC-SHA256 in base64url is 43 characters). */
const MAX_SIGNATURE_CHARS = 200;
/** More tool parts than a message of this example holds. */
const MAX_PARTS = 100;

/** More than one message of this example can be (an assistant message carries its parts back). */
const MAX_BODY_CHARS = 2_000_000;

/** Reads and checks the request body. */
export async function readChatRequest(request: Request): Promise<ChatRequest | ChatRequestError> {
  const tooLarge = { status: 413, error: "The request is too large." };
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_CHARS) return tooLarge;
  const raw = await request.text();
  if (raw.length > MAX_BODY_CHARS) return tooLarge;
  let body: { id?: unknown; message?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    return { status: 400, error: "The request body is not JSON." };
  }
  if (typeof body.id !== "string" || !CHAT_ID.test(body.id))
    return { status: 400, error: "Missing or invalid chat id." };
  const sent = body.message as { id?: unknown; role?: unknown; parts?: unknown } | undefined;
  if (sent?.role === "assistant") return readAnswers(body.id, sent);
  const validated = await safeValidateUIMessages({ messages: [sent] });
  if (!validated.success) return { status: 400, error: `Invalid message: ${validated.error.message}` };
  const [message] = validated.data;
  const text =
    message?.role === "user" && message.parts.every((part) => part.type === "text")
      ? message.parts.map((part) => part.text).join("")
      : "";
  if (message === undefined || text.length === 0 || text.length > MAX_TEXT_CHARS) {
    return { status: 400, error: `A message is text of 1 to ${MAX_TEXT_CHARS} characters.` };
  }
  return { chatId: body.id, kind: "user-message", message };
}

/** From an assistant message, only the answers: which approval of which tool call, approved or not, and why. */
function readAnswers(chatId: string, sent: { id?: unknown; parts?: unknown }): ChatRequest | ChatRequestError {
  if (typeof sent.id !== "string" || !Array.isArray(sent.parts) || sent.parts.length > MAX_PARTS) {
    return { status: 400, error: "Invalid message." };
  }
  const answers: ApprovalAnswer[] = [];
  for (const part of sent.parts as Array<Record<string, unknown>>) {
    const approval = part?.["approval"] as Record<string, unknown> | undefined;
    if (
      part?.["state"] !== "approval-responded" ||
      typeof part["toolCallId"] !== "string" ||
      typeof approval?.["id"] !== "string" ||
      typeof approval["approved"] !== "boolean"
    )
      continue;
    const reason = typeof approval["reason"] === "string" ? approval["reason"].slice(0, MAX_REASON_CHARS) : undefined;
    const signature =
      typeof approval["signature"] === "string" ? approval["signature"].slice(0, MAX_SIGNATURE_CHARS) : undefined;
    answers.push({
      toolCallId: part["toolCallId"],
      approvalId: approval["id"],
      approved: approval["approved"],
      ...(reason === undefined ? {} : { reason }),
      ...(signature === undefined ? {} : { signature }),
    });
  }
  if (answers.length === 0) return { status: 400, error: "The message answers no approval." };
  return { chatId, kind: "answers", messageId: sent.id, answers };
}

/** A request that may go on: who asks, in which chat, and what to answer. */
export interface OpenedTurn {
  userId: string;
  chatId: string;
  turn: ChatTurn;
}

/**
 * Everything before the model: the user from the signed cookie (the owner of the chat and the codemode
 * `scope`), the request read, the stored chat with it applied, and a new user message saved. `workflow`: the
 * request is the `/workflow` chat's (its conversations are answered by its route only, and `/`'s by `/`'s).
 */
export async function openChatTurn(
  request: Request,
  { workflow = false }: { workflow?: boolean } = {},
): Promise<OpenedTurn | ChatRequestError> {
  const userId = await userOfRequest(request);
  if (userId === undefined) return { status: 401, error: "Not signed in: reload the page." };
  const sent = await readChatRequest(request);
  if ("error" in sent) return sent;
  if (isWorkflowChat(sent.chatId) !== workflow) {
    return { status: 400, error: `This chat is answered on ${workflow ? "/" : "/workflow"}: open it there.` };
  }
  const chat = await loadChat({ chatId: sent.chatId, userId });
  // Another user's chat is answered exactly like a chat that does not exist: nothing is run or revealed.
  if (chat.status === "foreign") return { status: 404, error: "No such chat." };
  const turn = applyRequest(chat.status === "mine" ? chat.messages : [], sent);
  if ("error" in turn) return turn;
  if (turn.kind === "user-message" && !(await appendMessage({ chatId: sent.chatId, userId, message: turn.message }))) {
    return { status: 409, error: "This chat changed meanwhile: reload the page." };
  }
  return { userId, chatId: sent.chatId, turn };
}

/** The conversation to answer, and the stored version of the message the request updates. */
export type ChatTurn =
  | { kind: "user-message"; messages: UIMessage[]; message: UIMessage }
  | { kind: "answers"; messages: UIMessage[]; messageId: string; version: number };

/** The stored chat with this request applied, or why it cannot be. */
export function applyRequest(stored: StoredMessage[], request: ChatRequest): ChatTurn | ChatRequestError {
  const history = stored.map((entry) => entry.message);
  if (request.kind === "user-message") {
    if (history.some((message) => message.id === request.message.id)) {
      return { status: 409, error: "That message was already sent. Reload the page." };
    }
    return { kind: "user-message", messages: [...history, request.message], message: request.message };
  }
  const index = history.findIndex((message) => message.id === request.messageId);
  const entry = stored[index];
  if (entry === undefined || entry.message.role !== "assistant") {
    return { status: 409, error: "This chat has no such message: reload the page to see it as it is now." };
  }
  const answered = withAnswers(entry.message, request.answers);
  if (answered === undefined) {
    return {
      status: 409,
      error:
        "This approval was already answered (in another tab or on another device?). Reload the page to see the chat as it is now.",
    };
  }
  return {
    kind: "answers",
    messages: history.map((candidate, position) => (position === index ? answered : candidate)),
    messageId: request.messageId,
    version: entry.version,
  };
}

type ToolPart = Extract<UIMessage["parts"][number], { toolCallId: string }>;

/** The stored message with the answers to its open approvals applied, or undefined when it answers none. */
function withAnswers(stored: UIMessage, answers: ApprovalAnswer[]): UIMessage | undefined {
  let applied = 0;
  const parts = stored.parts.map((part) => {
    if (!("toolCallId" in part) || part.state !== "approval-requested") return part;
    const answer = answers.find(
      (candidate) => candidate.toolCallId === part.toolCallId && candidate.approvalId === part.approval.id,
    );
    if (answer === undefined) return part;
    applied += 1;
    const { reason, signature } = answer;
    // The stored request keeps its signature; the answer is checked with the one the client sent back.
    const { signature: _issued, ...request } = part.approval;
    return {
      ...part,
      state: "approval-responded",
      approval: {
        ...request,
        approved: answer.approved,
        ...(reason === undefined ? {} : { reason }),
        ...(signature === undefined ? {} : { signature }),
      },
    } as ToolPart;
  });
  return applied === 0 ? undefined : { ...stored, parts };
}

/**
 * Keeps what the person saw. An answered message is replaced only if nobody changed it since it was read
 * (the first outcome of two tabs wins), and not at all when every answer was refused (a stale or forged
 * approval id): the stored card stays as it was and can still be decided.
 */
export async function saveResponse({
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
