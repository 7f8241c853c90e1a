/**
 * What a pass left unfinished, settled before its end is written:
 * - A `codemode.step` still open when the pass pauses did not finish: its row is removed, so the resumed pass
 *   runs it again (see `step-policy.ts`).
 * - An approved call the pass never started (the resumed program took another path) did not run: it is recorded
 *   `error`, and a pass that would have completed ends `approval-unreached` instead, so neither the approver nor
 *   the model reads the run as done. A pass that paused again keeps it approved for the next pass.
 * - A call still running when a failed pass ends (a connector that never settles, past the program's deadline and
 *   the grace after it) is recorded `error`: its outcome is unknown, and the ended execution must not show a call
 *   `executing`. Its connector may still finish; that late outcome is not recorded (the pass's lease is gone).
 */
import type { PassContext } from "./pass-context.js";
import type { PassOutcome } from "./pass-outcome.js";

/** Seqs of calls approved for this pass that it never started. */
function unreachedApprovals(pass: PassContext): number[] {
  const seqs: number[] = [];
  for (const call of pass.recorded.values()) {
    if (call.status === "pending" && call.approvedAt !== undefined && !pass.startedApprovals.has(call.seq))
      seqs.push(call.seq);
  }
  return seqs;
}

/** Records every call still running as failed, its effect unknown (the pass is ending `error` or `completed`). */
function failStillRunning(pass: PassContext, outcome: PassOutcome): void {
  const ended = outcome.status === "error" ? `ended (${outcome.kind})` : "ended";
  for (const [seq, call] of pass.executing) {
    const error =
      `Call #${seq} (${call}) was still running when the run ${ended}: its outcome is unknown, so it is recorded ` +
      "as failed and never run again. Check the target system before starting a new execution.";
    pass.journal.failCall({ seq, error, now: pass.deps.now() });
  }
  pass.executing.clear();
}

/** Queues the writes for unfinished work and returns the outcome to record. */
export function settleUnfinishedWork(pass: PassContext, outcome: PassOutcome): PassOutcome {
  if (outcome.status === "paused") {
    for (const seq of pass.openSteps) pass.journal.dropStep({ seq });
    return outcome;
  }
  failStillRunning(pass, outcome);
  const unreached = unreachedApprovals(pass);
  if (unreached.length === 0) return outcome;
  const calls = unreached.map((seq) => `#${seq}`).join(", ");
  const reason =
    `Approved call ${calls} was not run: the resumed program ended without reaching it (it took another path, ` +
    "e.g. a caught error or data that changed between passes). Nothing was done for the approval; start a new " +
    "execution if the action is still wanted.";
  pass.journal.failUnreachedApprovals({ seqs: unreached, reason, now: pass.deps.now() });
  if (outcome.status === "error") return outcome;
  return {
    status: "error",
    executionId: outcome.executionId,
    kind: "approval-unreached",
    error: reason,
    logs: outcome.logs,
  };
}
