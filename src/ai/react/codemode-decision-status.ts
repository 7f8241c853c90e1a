/**
 * Where a decision made on a card stands, read from the chat's messages (pure, no React): the answer is on its way
 * (`deciding`), the server applied it (`decided`, or decided elsewhere first), or it failed with a message.
 */
import { readCodemodeRefusal } from "../ui/codemode-refusal.js";

/**
 * Where the decision about one pending call (by its approval id) stands:
 * - `idle`: not decided on this card.
 * - `deciding`: answered; the server has not applied it yet.
 * - `decided`: applied. `elsewhere`: someone decided the call first (the inspector, the CLI, another tab); the card
 *   shows the stored outcome, or, when the other decision differed, that nothing ran for this answer.
 * - `failed`: not applied, with the reason to show (`expired`: nobody decided in time and the run was ended).
 * `approved` is what this card answered.
 */
export type CodemodeDecisionStatus =
  | { state: "idle" }
  | { state: "deciding"; approved: boolean }
  | { state: "decided"; approved: boolean; elsewhere: boolean }
  | { state: "failed"; approved: boolean; message: string; expired: boolean };

/** A decision this card sent: on which tool call, under which approval of the part, what it answered. */
export interface DecisionSubmission {
  toolCallId: string;
  /** The approval the part held when the answer was sent. */
  partApprovalId: string;
  approved: boolean;
  /** Why sending failed before the answer reached the chat (a refused edit, a chat that threw). */
  error?: string;
}

/** The chat's state that a status depends on. */
export interface DecisionChatState {
  status: string;
  error: Error | undefined;
}

export const IDLE: CodemodeDecisionStatus = Object.freeze({ state: "idle" });

/** The status of a submission, given the part of its tool call as the chat holds it now. */
export function decisionStatus(
  submission: DecisionSubmission | undefined,
  part: Record<string, unknown> | undefined,
  chat: DecisionChatState,
): CodemodeDecisionStatus {
  if (submission === undefined) return IDLE;
  const { approved } = submission;
  const failed = (message: string, expired = false): CodemodeDecisionStatus => ({
    state: "failed",
    approved,
    message,
    expired,
  });
  if (submission.error !== undefined) return failed(submission.error);
  const approval = part?.["approval"] as Record<string, unknown> | undefined;
  const sameApproval = approval?.["id"] === submission.partApprovalId;
  const undelivered = () =>
    chat.status === "error"
      ? failed(chat.error?.message ?? "The answer was not delivered.")
      : ({ state: "deciding", approved } as const);
  switch (part?.["state"]) {
    case undefined:
      return undelivered();
    case "approval-requested":
    case "approval-responded":
      // Paused again on other calls: this decision was applied.
      return sameApproval ? undelivered() : { state: "decided", approved, elsewhere: false };
    case "output-available": {
      const output = part["output"] as Record<string, unknown> | undefined;
      return { state: "decided", approved, elsewhere: output?.["decidedElsewhere"] === true };
    }
    case "output-denied":
      return { state: "decided", approved, elsewhere: false };
    case "output-error": {
      const errorText = typeof part["errorText"] === "string" ? part["errorText"] : "The answer was refused.";
      const refusal = readCodemodeRefusal(errorText);
      if (refusal === "decided-elsewhere") return { state: "decided", approved, elsewhere: true };
      return failed(errorText, refusal === "expired");
    }
    default:
      return undelivered();
  }
}
