"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useEffect, useMemo, useState } from "react";
import { type Answer, CodemodeCall, type CodemodePart } from "./codemode-call";

/**
 * The chat: stock useChat, seeded with the stored messages. The transport sends one message per
 * request (the server keeps the history, lib/chat-request.ts): the new user message, or the
 * message whose approval was answered.
 */
export function Chat({
  chatId,
  userId,
  initialMessages,
  deviceLink,
  newChat,
}: {
  chatId: string;
  userId: string;
  initialMessages: UIMessage[];
  /** A sign-in link (path) for this user and chat on another device. */
  deviceLink: string;
  /** The path of a new, empty chat. */
  newChat: string;
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ id, messages, messageId }) => ({
          body: { id, message: messages.find((message) => message.id === messageId) ?? messages.at(-1) },
        }),
      }),
    [],
  );
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    id: chatId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
  const busy = status === "submitted" || status === "streaming";

  const answer: Answer = async ({ messageId, approvalId, approved, reason }) => {
    await addToolApprovalResponse({ id: approvalId, approved, ...(reason === undefined ? {} : { reason }) });
    // useChat sends an answer by itself only when it is in the last message. An older card (the chat went on
    // while it waited) is sent here, with its message's id: the server resolves it on that card.
    if (messages.at(-1)?.id !== messageId) await sendMessage();
  };

  return (
    <main style={{ maxWidth: 760, margin: "0 auto", padding: "24px 16px" }}>
      <h1 style={{ fontSize: 20 }}>ai-codemode: approvals in useChat</h1>
      <p style={{ color: "#555", marginTop: -8 }}>
        The model writes one program; calls that need a human pause it until you approve or reject them.
      </p>
      <Session userId={userId} deviceLink={deviceLink} newChat={newChat} />
      {messages.map((message) => (
        <Message key={message.id} message={message} busy={busy} failed={status === "error"} onAnswer={answer} />
      ))}
      {error ? (
        <p data-testid="chat-error" style={{ color: "#b00020" }}>
          {error.message}
        </p>
      ) : null}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() === "") return;
          void sendMessage({ text: input });
          setInput("");
        }}
        style={{ display: "flex", gap: 8, marginTop: 16 }}
      >
        <input
          data-testid="prompt"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder='Try "Merge pull request 42", "Review the pull requests", "Merge 42, 43 and 44 at once"'
          style={{ flex: 1, padding: 8, fontSize: 15 }}
        />
        <button type="submit" disabled={status !== "ready" && status !== "error"} style={{ padding: "8px 16px" }}>
          Send
        </button>
      </form>
      <p data-testid="status" style={{ color: "#888", fontSize: 12 }}>
        {status}
      </p>
    </main>
  );
}

/** Who is signed in, a new chat, and a sign-in link for the same user on another device. */
function Session({ userId, deviceLink, newChat }: { userId: string; deviceLink: string; newChat: string }) {
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  return (
    <div style={{ display: "flex", gap: 12, alignItems: "baseline", fontSize: 13, color: "#555", flexWrap: "wrap" }}>
      <span>
        Signed in as <code data-testid="user-id">{userId}</code> (an anonymous user in a signed cookie)
      </span>
      <a href={newChat}>New chat</a>
      <details>
        <summary>Open on another device</summary>
        <input
          data-testid="device-link"
          readOnly
          value={`${origin}${deviceLink}`}
          onFocus={(event) => event.target.select()}
          style={{ width: 420, fontSize: 12 }}
        />
        <div>Signs that device in as you, into this chat, for 15 minutes.</div>
      </details>
    </div>
  );
}

function Message({
  message,
  busy,
  failed,
  onAnswer,
}: {
  message: UIMessage;
  busy: boolean;
  failed: boolean;
  onAnswer: Answer;
}) {
  return (
    <section data-testid={`message-${message.role}`} style={{ margin: "12px 0" }}>
      <strong>{message.role === "user" ? "You" : "Assistant"}</strong>
      {message.parts.map((part, index) => {
        if (part.type === "text")
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a text part has no id; parts are appended, never reordered.
            <p key={index} data-testid="text">
              {part.text}
            </p>
          );
        if (part.type === "tool-codemode") {
          const codemodePart = part as unknown as CodemodePart;
          return (
            <CodemodeCall
              key={codemodePart.toolCallId}
              part={codemodePart}
              messageId={message.id}
              busy={busy}
              failed={failed}
              onAnswer={onAnswer}
            />
          );
        }
        return null;
      })}
    </section>
  );
}
