/**
 * `useCodemodeDecisions(chat)`: approve, approve with changes, reject, or decide several pending calls at once, on
 * the stock `useChat` approval flow (`addToolApprovalResponse`), with each decision's status for the card.
 */
import { useCallback, useMemo, useRef, useState } from "react";
import {
  type CodemodeDecision,
  encodeCodemodeDecisions,
  MAX_DECISIONS,
  MAX_DECISIONS_CHARS,
} from "../ui/codemode-decisions.js";
import type { CodemodeRunView } from "./codemode-run-view.js";
import {
  type CodemodeDecisionStatus,
  type DecisionSubmission,
  decisionStatus,
  IDLE,
} from "./codemode-decision-status.js";
import { useDecidedElsewhere } from "./use-decided-elsewhere.js";

/**
 * What the hook needs of `useChat()`'s return value (pass it whole: `useCodemodeDecisions(useChat(...))`).
 */
export interface CodemodeChat {
  /** The chat's messages. */
  readonly messages: readonly { id: string; role: string; parts: readonly unknown[] }[];
  /** `submitted` / `streaming` while a reply is on its way (answers wait for it), `ready` or `error`. */
  readonly status: string;
  /** The last request's error, when `status` is `error`. */
  readonly error?: Error | undefined;
  /** `useChat`'s own: records the answer on the part (keeping the server's signature) and sends it when due. */
  addToolApprovalResponse(response: { id: string; approved: boolean; reason?: string }): void | PromiseLike<void>;
  /** `useChat`'s own: sends the answered message when it is not the last one (`sendAutomaticallyWhen` does only that). */
  sendMessage(): void | PromiseLike<void>;
}

/** Options of an approval: the changed arguments (approve with changes; the call must be `editable`). */
interface CodemodeApproveOptions {
  /** Which pending call (`run.pending[i].approvalId`); default: the part's own approval (the first pending call). */
  approvalId?: string;
  /** Run the call with these arguments instead of the program's (only for an `editable` call). */
  args?: unknown;
}

/** Options of a rejection. */
interface CodemodeRejectOptions {
  /**
   * Which pending call. Default, or the part's own approval id with one pending call: the program stops (the run
   * ends `rejected`). Another call of several: only that call is refused, and the program gets its error.
   */
  approvalId?: string;
  /** Why, as the model reads it (only when the program stops). */
  reason?: string;
}

/** What `useCodemodeDecisions(chat)` returns. */
export interface CodemodeDecisions {
  /** Approves a pending call of `run` (with `args`: approve with changes). */
  approve(run: CodemodeRunView, options?: CodemodeApproveOptions): Promise<void>;
  /** Rejects: stops the program, or refuses one call of several (`options.approvalId`: that call only). */
  reject(run: CodemodeRunView, options?: CodemodeRejectOptions): Promise<void>;
  /**
   * Decides several pending calls of `run` in one answer, keyed by their approval ids: `true`, `false` (the program
   * gets that call's error) or `{ approved: true, args }` (an `editable` call with changed arguments). Calls left
   * out stay pending.
   */
  decide(run: CodemodeRunView, decisions: Readonly<Record<string, CodemodeDecision>>): Promise<void>;
  /** Where the decision about a pending call stands, by its approval id. */
  statusOf(approvalId: string): CodemodeDecisionStatus;
  /** A reply is streaming: answers wait until it ends (a decision made now fails with {@link waitReason}). */
  busy: boolean;
  /** Why deciding is not possible right now, or `undefined` when it is. */
  waitReason: string | undefined;
}

/** Why an answer is not sent while a reply streams. */
const WAIT_FOR_REPLY = "Wait for the current reply to finish before answering.";

/** Options of `useCodemodeDecisions`. */
export interface CodemodeDecisionsOptions {
  /**
   * The app's status route (answered by `codemodeApprovalStatus` from `ai-codemode/ui`). With it, while a card
   * waits, the hook asks whether its call was decided elsewhere (the inspector, an approval link, the CLI, an MCP
   * client): first after a second, then less and less often (at most every 30 seconds), only while the tab is
   * visible and no reply streams, and not at all once nothing waits. When it was, the hook sends the answer an
   * Approve click would, once; the chat route answers it with the stored outcome (decided elsewhere, with the run's
   * calls) and runs nothing again. The request is a same-origin `fetch` POST (cookies go with it).
   * @default undefined (a decision made elsewhere shows when the person answers on the card)
   */
  statusApi?: string;
}

/**
 * Decides the pending calls of codemode runs in a `useChat` conversation. Answers go through `useChat`'s own
 * `addToolApprovalResponse`, which keeps the signature the server issued with the approval request (a route with
 * `toolApprovalSecret` refuses answers without it); several decisions travel as one answer
 * (`encodeCodemodeDecisions`). A card left behind while the conversation went on is sent with its own message.
 * With `statusApi`, a card also learns by itself that its call was decided elsewhere.
 *
 * @example
 * ```tsx
 * const chat = useChat({ sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
 * const decisions = useCodemodeDecisions(chat);
 * // or, to learn of decisions made in the inspector while the card is open (a route answered by codemodeApprovalStatus):
 * // useCodemodeDecisions(chat, { statusApi: "/api/chat/status" });
 * // in a card, with run = useCodemodeRun(part):
 * run.pending.map((call) => (
 *   <button key={call.approvalId} disabled={decisions.busy} onClick={() => decisions.approve(run, { approvalId: call.approvalId })}>
 *     Approve {call.connector}.{call.method} ({decisions.statusOf(call.approvalId).state})
 *   </button>
 * ));
 * ```
 */
export function useCodemodeDecisions(
  chat: CodemodeChat,
  { statusApi }: CodemodeDecisionsOptions = {},
): CodemodeDecisions {
  const [submissions, setSubmissions] = useState<ReadonlyMap<string, DecisionSubmission>>(() => new Map());
  const { messages, status, error } = chat;
  const busy = status === "submitted" || status === "streaming";
  useDecidedElsewhere(chat, statusApi, busy);
  // The latest chat for the answer functions, so they keep their identity across renders (useChat returns a new
  // object each render) and memoized cards taking them do not re-render for it.
  const latest = useRef(chat);
  latest.current = chat;
  // Only the parts of the tool calls answered here are looked up, once per change of the messages.
  const tracked = useMemo(() => partsOf(messages, submissions), [messages, submissions]);

  const submit = useCallback(async (run: CodemodeRunView, answer: Answer): Promise<void> => {
    const current = latest.current;
    const record = (entries: Array<[string, DecisionSubmission]>) =>
      setSubmissions((previous) => new Map([...previous, ...entries]));
    const ids = answer.calls.map(([id]) => id);
    const refuse = (message: string) =>
      record(
        answer.calls.map(([id, approved]) => [
          id,
          { toolCallId: run.toolCallId ?? "", partApprovalId: run.approvalId ?? "", approved, error: message },
        ]),
      );
    if (answer.refusal !== undefined) return refuse(answer.refusal);
    if (current.status === "submitted" || current.status === "streaming") return refuse(WAIT_FOR_REPLY);
    if (run.toolCallId === undefined || run.approvalId === undefined || run.outcome.status !== "awaiting-approval")
      return refuse("This run is not waiting for a decision.");
    const unknown = ids.filter((id) => !run.pending.some((call) => call.approvalId === id));
    if (unknown.length > 0) return refuse(`Not a pending call of this run: ${unknown.join(", ")}.`);
    const { toolCallId, approvalId: partApprovalId } = run;
    // The chat as it is now, not as the card last rendered it: an approval answered a moment ago is not answered again.
    const found = findPart(current.messages, toolCallId);
    if (found === undefined) return refuse(`Tool call ${toolCallId} is not in this chat's messages.`);
    const approval = found.part["approval"] as Record<string, unknown> | undefined;
    if (found.part["state"] !== "approval-requested" || approval?.["id"] !== partApprovalId) return;
    record(answer.calls.map(([id, approved]) => [id, { toolCallId, partApprovalId, approved }]));
    try {
      await current.addToolApprovalResponse({
        id: partApprovalId,
        approved: answer.approved,
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      });
      // useChat sends an answer by itself only when its message is the last one.
      if (current.messages.at(-1)?.id !== found.messageId) await current.sendMessage();
    } catch (cause) {
      refuse(cause instanceof Error ? cause.message : String(cause));
    }
  }, []);

  const approve = useCallback(
    (run: CodemodeRunView, options: CodemodeApproveOptions = {}) => {
      const id = options.approvalId ?? run.approvalId ?? "";
      if (!("args" in options) && id === run.approvalId && run.pending.length <= 1)
        return submit(run, { approved: true, calls: [[id, true]] });
      return decideMany(run, { [id]: "args" in options ? { approved: true, args: options.args } : true }, submit);
    },
    [submit],
  );

  const reject = useCallback(
    (run: CodemodeRunView, options: CodemodeRejectOptions = {}) => {
      const id = options.approvalId ?? run.approvalId ?? "";
      if (id === run.approvalId || run.pending.length <= 1) {
        // Stops the program: every pending call of the pause is refused with it.
        const calls = run.pending.map((call): [string, boolean] => [call.approvalId, false]);
        return submit(run, {
          approved: false,
          calls: calls.length > 0 ? calls : [[id, false]],
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        });
      }
      return decideMany(run, { [id]: false }, submit);
    },
    [submit],
  );

  const decide = useCallback(
    (run: CodemodeRunView, decisions: Readonly<Record<string, CodemodeDecision>>) => decideMany(run, decisions, submit),
    [submit],
  );

  const statusOf = useCallback(
    (approvalId: string) => {
      const submission = submissions.get(approvalId);
      if (submission === undefined) return IDLE;
      return decisionStatus(submission, tracked.get(submission.toolCallId), { status, error });
    },
    [submissions, tracked, status, error],
  );

  return useMemo(
    () => ({ approve, reject, decide, statusOf, busy, waitReason: busy ? WAIT_FOR_REPLY : undefined }),
    [approve, reject, decide, statusOf, busy],
  );
}

/** One answer to the part's approval, and what it says of each call (by approval id). */
interface Answer {
  approved: boolean;
  reason?: string;
  calls: Array<[string, boolean]>;
  /** Why the answer is not sent (checked before anything is). */
  refusal?: string;
}

function decideMany(
  run: CodemodeRunView,
  decisions: Readonly<Record<string, CodemodeDecision>>,
  submit: (run: CodemodeRunView, answer: Answer) => Promise<void>,
): Promise<void> {
  const calls = Object.entries(decisions).map(([id, decision]): [string, boolean] => [id, decision !== false]);
  const notEditable = Object.entries(decisions).flatMap(([id, decision]) => {
    if (typeof decision === "boolean") return [];
    const call = run.pending.find((candidate) => candidate.approvalId === id);
    return call === undefined || call.editable ? [] : [`${call.connector}.${call.method}`];
  });
  if (calls.length === 0) return Promise.resolve();
  if (notEditable.length > 0) {
    const refusal = `${notEditable.join(", ")} ${notEditable.length === 1 ? "is" : "are"} not editable: approve as it is, or reject.`;
    return submit(run, { approved: true, calls, refusal });
  }
  const reason = encodeCodemodeDecisions({ ...decisions });
  // The server refuses a larger document (nothing decided): say so on the card instead of sending it.
  if (calls.length > MAX_DECISIONS || reason.length > MAX_DECISIONS_CHARS) {
    const refusal =
      `Too much in one answer (at most ${MAX_DECISIONS} decisions and ${MAX_DECISIONS_CHARS} characters): ` +
      "decide fewer calls at once, or with smaller edits.";
    return submit(run, { approved: true, calls, refusal });
  }
  return submit(run, { approved: true, calls, reason });
}

/** The part of tool call `toolCallId` as the chat holds it now, with its message. */
function findPart(
  messages: CodemodeChat["messages"],
  toolCallId: string,
): { messageId: string; part: Record<string, unknown> } | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== "assistant") continue;
    for (const part of message.parts)
      if (typeof part === "object" && part !== null && (part as Record<string, unknown>)["toolCallId"] === toolCallId)
        return { messageId: message.id, part: part as Record<string, unknown> };
  }
  return undefined;
}

/** The current part of each tool call a submission names. */
function partsOf(
  messages: CodemodeChat["messages"],
  submissions: ReadonlyMap<string, DecisionSubmission>,
): Map<string, Record<string, unknown>> {
  const parts = new Map<string, Record<string, unknown>>();
  if (submissions.size === 0) return parts;
  const wanted = new Set([...submissions.values()].map((submission) => submission.toolCallId));
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.parts) {
      const toolCallId =
        typeof part === "object" && part !== null ? (part as Record<string, unknown>)["toolCallId"] : undefined;
      if (typeof toolCallId === "string" && wanted.has(toolCallId))
        parts.set(toolCallId, part as Record<string, unknown>);
    }
  }
  return parts;
}
