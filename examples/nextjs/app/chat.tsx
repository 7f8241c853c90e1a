"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { type CodemodeDecisions, useCodemodeDecisions } from "ai-codemode/react";
import { useEffect, useMemo, useState } from "react";
import { CodemodeRun } from "@/components/codemode-run";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

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
  api = "/api/chat",
  heading = "ai-codemode: approvals in useChat",
  intro = "The model writes one program; calls that need a human pause it until you approve or reject them.",
}: {
  chatId: string;
  userId: string;
  initialMessages: UIMessage[];
  /** A sign-in link (path) for this user and chat on another device. */
  deviceLink: string;
  /** The path of a new, empty chat. */
  newChat: string;
  /** The chat route (`/api/workflow` for the chat whose agent runs as a workflow). */
  api?: string;
  heading?: string;
  intro?: string;
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api,
        prepareSendMessagesRequest: ({ id, messages, messageId }) => ({
          body: { id, message: messages.find((message) => message.id === messageId) ?? messages.at(-1) },
        }),
      }),
    [api],
  );
  const chat = useChat({
    id: chatId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const { messages, sendMessage, status, error } = chat;
  // Approve, edit, reject through useChat's own approval flow; an older card (the chat went on while it waited) is
  // sent with its own message. While a card waits, the hook asks app/api/chat/status whether it was decided
  // elsewhere (the inspector, an approval link): then the card shows the stored outcome without a click.
  const decisions = useCodemodeDecisions(chat, { statusApi: "/api/chat/status" });
  const [input, setInput] = useState("");

  return (
    <main className="mx-auto max-w-3xl px-4 py-6">
      <div className="flex items-start justify-between gap-4">
        <h1 className="m-0 font-semibold text-xl">{heading}</h1>
        <ThemeToggle />
      </div>
      <p className="mt-1 text-muted-foreground text-sm">{intro}</p>
      <Session userId={userId} deviceLink={deviceLink} newChat={newChat} />
      {messages.map((message) => (
        <Message key={message.id} message={message} decisions={decisions} />
      ))}
      {error ? (
        <p data-testid="chat-error" role="alert" className="text-destructive">
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
        className="mt-4 flex gap-2"
      >
        <Input
          data-testid="prompt"
          aria-label="Message"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder='Try "Merge pull request 42", "Review the pull requests", "Merge 42, 43 and 44 at once"'
          className="flex-1"
        />
        <Button type="submit" disabled={status !== "ready" && status !== "error"}>
          Send
        </Button>
      </form>
      <p data-testid="status" className="text-muted-foreground text-xs">
        {status}
      </p>
    </main>
  );
}

/** Light or dark: the `dark` class on <html> (the shadcn/ui convention), remembered in localStorage. */
function ThemeToggle() {
  const [dark, setDark] = useState(false);
  useEffect(() => setDark(document.documentElement.classList.contains("dark")), []);
  const toggle = () => {
    const next = !dark;
    document.documentElement.classList.toggle("dark", next);
    localStorage.setItem("theme", next ? "dark" : "light");
    setDark(next);
  };
  return (
    <Button type="button" variant="outline" size="sm" data-testid="theme-toggle" aria-pressed={dark} onClick={toggle}>
      Dark theme
    </Button>
  );
}

/** Who is signed in, a new chat, and a sign-in link for the same user on another device. */
function Session({ userId, deviceLink, newChat }: { userId: string; deviceLink: string; newChat: string }) {
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  return (
    <div className="flex flex-wrap items-baseline gap-3 text-muted-foreground text-sm">
      <span>
        Signed in as <code data-testid="user-id">{userId}</code> (an anonymous user in a signed cookie)
      </span>
      <a href={newChat} className="underline underline-offset-4">
        New chat
      </a>
      <details>
        <summary className="cursor-pointer">Open on another device</summary>
        <Input
          data-testid="device-link"
          aria-label="Sign-in link for another device"
          readOnly
          value={`${origin}${deviceLink}`}
          onFocus={(event) => event.target.select()}
          className="my-1 w-[420px] max-w-full text-xs"
        />
        <div>Signs that device in as you, into this chat, for 15 minutes.</div>
      </details>
    </div>
  );
}

function Message({ message, decisions }: { message: UIMessage; decisions: CodemodeDecisions }) {
  return (
    <section data-testid={`message-${message.role}`} className="my-3">
      <strong className="text-sm">{message.role === "user" ? "You" : "Assistant"}</strong>
      {message.parts.map((part, index) => {
        if (part.type === "text")
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a text part has no id; parts are appended, never reordered.
            <p key={index} data-testid="text" className="my-2">
              {part.text}
            </p>
          );
        if (part.type === "tool-codemode")
          return <CodemodeRun key={part.toolCallId} part={part} decisions={decisions} />;
        return null;
      })}
    </section>
  );
}
