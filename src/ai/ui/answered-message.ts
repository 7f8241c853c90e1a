/**
 * Which assistant message a chat request answers. useChat sends the id of the message whose
 * approval the person answered (`messageId`, with `trigger: "submit-message"`); that may be an
 * earlier message than the last when the conversation went on while an approval waited. The
 * stream then continues that message (useChat updates it in place), not the last one.
 */
import type { UIMessage } from "ai";

/**
 * The index of the assistant message `messageId` names, else of the last message when it is an
 * assistant message, else -1 (a request carrying a new user message answers no approval).
 */
export function answeredMessageIndex(messages: readonly UIMessage[], messageId: string | undefined): number {
  if (messageId !== undefined) {
    const named = messages.findLastIndex((message) => message.id === messageId);
    if (named !== -1 && messages[named]?.role === "assistant") return named;
  }
  const last = messages.length - 1;
  return messages[last]?.role === "assistant" ? last : -1;
}
