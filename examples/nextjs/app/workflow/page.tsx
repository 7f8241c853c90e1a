import { randomUUID } from "node:crypto";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { isWorkflowChat, loadChat, WORKFLOW_CHAT_PREFIX } from "@/lib/chat-store";
import { deviceLinkToken, SESSION_COOKIE, userFromCookie } from "@/lib/session";
import { ChatClient } from "../chat-client";

export const dynamic = "force-dynamic";

const CHAT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The second chat: the same GitHub tools, cards and signed-in user as `/`, but its agent runs as a Vercel Workflow
 * (workflows/chat.ts, served by app/api/workflow/route.ts). Rendered with the stored messages like `/`: after a
 * reload, or a server restart, the paused card is shown again and can be decided; the workflow waits for it.
 */
export default async function WorkflowPage({ searchParams }: { searchParams: Promise<{ chat?: string | string[] }> }) {
  const { chat } = await searchParams;
  const requested = typeof chat === "string" && CHAT_ID.test(chat) ? chat : undefined;
  const userId = await userFromCookie((await cookies()).get(SESSION_COOKIE)?.value);
  const here = requested === undefined ? "/workflow" : `/workflow?chat=${requested}`;
  if (userId === undefined) redirect(`/session?next=${encodeURIComponent(here)}`);
  if (requested === undefined) redirect(`/workflow?chat=${WORKFLOW_CHAT_PREFIX}${randomUUID()}`);
  // A conversation of `/` opens there (its agent is not a workflow).
  if (!isWorkflowChat(requested)) redirect(`/?chat=${requested}`);
  const loaded = await loadChat({ chatId: requested, userId });
  if (loaded.status === "foreign") notFound();
  return (
    <ChatClient
      chatId={requested}
      userId={userId}
      initialMessages={loaded.status === "mine" ? loaded.messages.map((entry) => entry.message) : []}
      deviceLink={`/session?link=${encodeURIComponent(await deviceLinkToken(userId))}&next=${encodeURIComponent(here)}`}
      newChat={`/workflow?chat=${WORKFLOW_CHAT_PREFIX}${randomUUID()}`}
      api="/api/workflow"
      heading="ai-codemode: the chat agent as a Vercel Workflow"
      intro="The agent runs as a durable workflow; a program that pauses for approval waits on a workflow hook, through reloads and server restarts, until you decide on its card."
    />
  );
}
