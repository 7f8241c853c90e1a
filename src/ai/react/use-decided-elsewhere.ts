/**
 * The `statusApi` option of `useCodemodeDecisions`: while a codemode part of the chat waits for an answer, asks the
 * app's status route (`codemodeApprovalStatus` from `ai-codemode/ui`) whether it was decided elsewhere (the
 * inspector, an approval link, the CLI, an MCP client), with backoff and only while the tab is visible and no reply
 * streams. When it was, sends the answer an Approve click would, once: the chat route then answers it with the
 * stored outcome (marked decided elsewhere, with the run's calls), and nothing runs again.
 */
import { useEffect, useMemo, useRef } from "react";
import { parseCodemodeApprovalId } from "../ui/approval-id.js";

/** The first check after a card starts waiting (or the tab becomes visible again). */
const FIRST_CHECK_MS = 1_000;
/** Each later check waits this much longer than the one before… */
const BACKOFF_FACTOR = 1.5;
/** …up to this: a card left open for an hour asks about twice a minute. */
const MAX_CHECK_INTERVAL_MS = 30_000;

/** What the hook needs of the chat (a subset of `CodemodeChat`). */
interface WatchedChat {
  readonly messages: readonly { id: string; role: string; parts: readonly unknown[] }[];
  addToolApprovalResponse(response: { id: string; approved: boolean }): void | PromiseLike<void>;
  sendMessage(): void | PromiseLike<void>;
}

/** An approval a card waits on, as the status route reads it. */
interface WaitingApproval {
  approvalId: string;
  toolCallId: string;
  signature?: string;
}

/**
 * Watches the chat's waiting codemode approvals through `statusApi` (nothing without it) and answers those decided
 * elsewhere. `busy`: a reply streams (no check, no answer until it ends).
 */
export function useDecidedElsewhere(chat: WatchedChat, statusApi: string | undefined, busy: boolean): void {
  const latest = useRef(chat);
  latest.current = chat;
  // Approvals answered here: each is sent once, even if the chat has not shown the answer yet.
  const answered = useRef(new Set<string>());
  const waiting = useMemo(() => waitingApprovals(chat.messages, answered.current), [chat.messages]);
  // The effect restarts only when the set of waiting approvals changes, not on every streamed chunk.
  const key = waiting.map((approval) => approval.approvalId).join(" ");

  useEffect(() => {
    if (statusApi === undefined || busy || key === "") return;
    const asked = waitingApprovals(latest.current.messages, answered.current);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delayMs = FIRST_CHECK_MS;
    let checking = false;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), delayMs);
    };
    const check = async () => {
      // A hidden tab is not asked about; it is checked again when it becomes visible.
      if (checking || controller.signal.aborted || document.visibilityState === "hidden") return;
      checking = true;
      const decided = await askStatus(statusApi, asked, controller.signal);
      checking = false;
      if (controller.signal.aborted) return;
      if (decided.length > 0) {
        // The answer changes the chat's messages, which restarts this effect for whatever still waits.
        await answer(latest.current, decided, answered.current);
        return;
      }
      delayMs = Math.min(delayMs * BACKOFF_FACTOR, MAX_CHECK_INTERVAL_MS);
      schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState !== "visible") return;
      delayMs = FIRST_CHECK_MS;
      void check();
    };
    document.addEventListener("visibilitychange", onVisibility);
    schedule();
    return () => {
      controller.abort();
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [statusApi, busy, key]);
}

/** The codemode approvals of the chat that wait for an answer (and were not answered here). */
function waitingApprovals(messages: WatchedChat["messages"], answered: ReadonlySet<string>): WaitingApproval[] {
  const waiting: WaitingApproval[] = [];
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.parts) {
      const record = typeof part === "object" && part !== null ? (part as Record<string, unknown>) : {};
      const approval = record["approval"] as Record<string, unknown> | undefined;
      const approvalId = approval?.["id"];
      const toolCallId = record["toolCallId"];
      if (
        record["state"] !== "approval-requested" ||
        typeof toolCallId !== "string" ||
        typeof approvalId !== "string" ||
        parseCodemodeApprovalId(approvalId) === undefined ||
        answered.has(approvalId)
      )
        continue;
      const signature = approval?.["signature"];
      waiting.push({ approvalId, toolCallId, ...(typeof signature === "string" ? { signature } : {}) });
    }
  }
  return waiting;
}

/** The approval ids (of those asked) the route says were decided elsewhere; none when the check fails. */
async function askStatus(statusApi: string, asked: WaitingApproval[], signal: AbortSignal): Promise<string[]> {
  try {
    const response = await fetch(statusApi, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ approvals: asked }),
      signal,
    });
    if (!response.ok) return [];
    const decided = ((await response.json()) as { decided?: unknown }).decided;
    if (!Array.isArray(decided)) return [];
    return asked.map((approval) => approval.approvalId).filter((id) => decided.includes(id));
  } catch {
    // Offline, or the card went away: the next check (or none) tells.
    return [];
  }
}

/**
 * Sends, for each approval decided elsewhere that still waits in the chat, the answer an Approve click sends
 * (`useChat` keeps the server's signature); a card whose message is not the last one is sent with its own message.
 */
async function answer(chat: WatchedChat, decided: string[], answered: Set<string>): Promise<void> {
  let olderMessage = false;
  for (const approvalId of decided) {
    const waiting = waitingApprovals(chat.messages, answered).find((approval) => approval.approvalId === approvalId);
    if (waiting === undefined) continue;
    answered.add(approvalId);
    const message = chat.messages.find((candidate) =>
      candidate.parts.some(
        (part) =>
          typeof part === "object" &&
          part !== null &&
          (part as Record<string, unknown>)["toolCallId"] === waiting.toolCallId,
      ),
    );
    if (message !== undefined && chat.messages.at(-1)?.id !== message.id) olderMessage = true;
    try {
      await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    } catch {
      // The chat refused it (the part changed meanwhile): nothing was sent.
    }
  }
  // useChat sends an answer by itself only when its message is the last one.
  if (olderMessage) await Promise.resolve(chat.sendMessage()).catch(() => undefined);
}
