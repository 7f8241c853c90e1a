/**
 * The refusal a chat card reads when its answer came too late: the call was decided elsewhere first (the inspector,
 * the CLI, another tab), or nobody decided in time and the run expired. The bridge writes it as the part's
 * `errorText` (a UI part carries no other field for it); the words are made here and read here, so the card and the
 * bridge cannot drift apart.
 */

/** How a refused answer reads to a card: decided elsewhere first, or expired. */
export type CodemodeRefusal = "decided-elsewhere" | "expired";

const STALE = /^Approval id "[^"]*" is stale: /;
const EXPIRED_NOTE = "(it expired: nobody decided in time)";

/** The error of an answer whose call is no longer pending: `state` is how the execution stands. */
export function staleApprovalError({
  approvalId,
  executionId,
  state,
  expired,
}: {
  approvalId: string;
  executionId: string;
  state: string;
  /** The execution ended because nobody decided in time (`expirePaused`). */
  expired: boolean;
}): string {
  return `Approval id "${approvalId}" is stale: execution ${executionId} is ${state}${expired ? ` ${EXPIRED_NOTE}` : ""}. Nothing was run.`;
}

/** Whether a part's `errorText` is a too-late answer, and which; `undefined` for any other error. */
export function readCodemodeRefusal(errorText: unknown): CodemodeRefusal | undefined {
  if (typeof errorText !== "string" || !STALE.test(errorText)) return undefined;
  return errorText.includes(EXPIRED_NOTE) ? "expired" : "decided-elsewhere";
}
