/**
 * The text the model (and the person, on the denied card) reads when a codemode approval is
 * rejected in the chat: which call was refused, that the program stopped, and which calls of
 * the execution had already taken effect and stay applied — so that after "approve #43, reject
 * #44" nobody is left believing that nothing happened.
 */
import { isProgramApproval } from "../../runtime/program-approval.js";
import type { AppliedCall, PendingAction } from "../../runtime/types.js";
import { boundedText } from "../../shared/bounded-text.js";

/** Calls named one by one; the rest are counted (a model needs the gist, not a 1,000-call log). */
export const MAX_LISTED_APPLIED_CALLS = 20;
/** Characters of one call's arguments quoted in the text. */
export const MAX_QUOTED_ARGS_CHARS = 300;

/** The denial text for `action`, rejected with `userReason`, after `applied` had run. */
export function describeDenial({
  action,
  applied,
  userReason,
}: {
  action: PendingAction;
  applied: readonly AppliedCall[];
  userReason: string | undefined;
}): string {
  const because = userReason === undefined || userReason === "" ? "" : ` Reason given: ${userReason}`;
  if (isProgramApproval(action)) {
    return `The user rejected the program (execution ${action.executionId}) before it ran: nothing ran.${because}`;
  }
  return (
    `The user rejected ${callText(action)} (call ${action.seq} of execution ${action.executionId}). ` +
    `The program was stopped: that call did not run. ${appliedText(applied)}${because}`
  );
}

function appliedText(applied: readonly AppliedCall[]): string {
  if (applied.length === 0) return "No call of this execution had taken effect before it.";
  const listed = applied.slice(0, MAX_LISTED_APPLIED_CALLS).map((call) => `${callText(call)} (call ${call.seq})`);
  const more = applied.length - listed.length;
  const rest = more > 0 ? `, and ${more} more` : "";
  return `Calls that had already run stay applied (they were not undone): ${listed.join(", ")}${rest}.`;
}

function callText(call: { connector: string; method: string; args: unknown }): string {
  return `${call.connector}.${call.method}(${boundedText(safeJson(call.args), MAX_QUOTED_ARGS_CHARS)})`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return String(value);
  }
}
