import { randomUUID } from "node:crypto";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { isWorkflowChat, latestChatId, loadChat } from "@/lib/chat-store";
import { deviceLinkToken, SESSION_COOKIE, userFromCookie } from "@/lib/session";
import { ChatClient } from "./chat-client";

export const dynamic = "force-dynamic";

const CHAT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The chat page, rendered with the stored messages: a reload (or another device signed in as the
 * same user) shows the conversation as it is, pending approvals included, and they can be decided.
 */
export default async function Page({ searchParams }: { searchParams: Promise<{ chat?: string | string[] }> }) {
  const { chat } = await searchParams;
  const requested = typeof chat === "string" && CHAT_ID.test(chat) ? chat : undefined;
  const userId = await userFromCookie((await cookies()).get(SESSION_COOKIE)?.value);
  if (userId === undefined) {
    redirect(`/session?next=${encodeURIComponent(requested === undefined ? "/" : `/?chat=${requested}`)}`);
  }
  if (requested === undefined) redirect(`/?chat=${(await latestChatId(userId)) ?? randomUUID()}`);
  // A conversation of the chat whose agent runs as a workflow opens on its own page.
  if (isWorkflowChat(requested)) redirect(`/workflow?chat=${requested}`);
  const loaded = await loadChat({ chatId: requested, userId });
  // Someone else's chat looks like one that does not exist.
  if (loaded.status === "foreign") notFound();
  const next = encodeURIComponent(`/?chat=${requested}`);
  return (
    <ChatClient
      chatId={requested}
      userId={userId}
      initialMessages={loaded.status === "mine" ? loaded.messages.map((entry) => entry.message) : []}
      deviceLink={`/session?link=${encodeURIComponent(await deviceLinkToken(userId))}&next=${next}`}
      newChat={`/?chat=${randomUUID()}`}
    />
  );
}
