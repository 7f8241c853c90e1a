/**
 * Several pending calls of one paused execution decided in one request (`decide`): approved calls
 * run, rejected calls reject inside the program with an error it can catch, undecided calls stay
 * pending. One compare-and-set claims the execution and writes every decision; then one pass runs.
 * A rejection is journaled as an `error` row that needed approval and was never approved, so replay
 * gives the program the same rejection on every later pass.
 */
import { loadRequested, refusal } from "./approvals.js";
import { failure } from "./failure-output.js";
import type { RuntimeCore } from "./runtime-core.js";
import { traceResumedPass } from "./tracing/runtime-tracing.js";
import { claimPaused } from "./claim-paused.js";
import { runClaimedPass } from "./run-claimed-pass.js";
import { WHOLE_PROGRAM_SEQ, type CallJournalRecord } from "./journal/records.js";
import type { CallDecision, CodemodeOutput, ExecuteOptions } from "./types.js";
import { isRecord } from "../shared/is-record.js";
import { unknownKeyProblem } from "../shared/known-keys.js";
import { DECISION_KEYS } from "./request-keys.js";
import { approvedRecord, checkedEdit, type ApprovalEdit } from "./approval-edits.js";

/** The rejection a program receives for a call a human rejected. */
function rejectionMessage(
  call: Pick<CallJournalRecord, "connector" | "method" | "seq">,
  reason: string | undefined,
): string {
  const because = reason === undefined || reason.trim() === "" ? "" : `: ${reason}`;
  return `Rejected by a human${because} (${call.connector}.${call.method}, call #${call.seq}). The call did not run.`;
}

function invalid(executionId: string, decisions: unknown): CodemodeOutput | undefined {
  if (!Array.isArray(decisions) || decisions.length === 0) {
    return failure(
      executionId,
      "validation",
      "decide() needs at least one decision { seq, approved }. Nothing was changed.",
    );
  }
  const seen = new Set<number>();
  for (const decision of decisions as unknown[]) {
    const unknownKey = isRecord(decision) ? unknownKeyProblem(decision, DECISION_KEYS) : undefined;
    if (unknownKey !== undefined)
      return failure(executionId, "validation", `decide(): in a decision, ${unknownKey}. Nothing was changed.`);
    if (!isRecord(decision) || !Number.isInteger(decision.seq) || typeof decision.approved !== "boolean") {
      return failure(
        executionId,
        "validation",
        "Each decision must be { seq: integer, approved: boolean, reason?: string, args? }. Nothing was changed.",
      );
    }
    if (decision.approved === false && decision.args !== undefined) {
      return failure(
        executionId,
        "validation",
        `decide(): call #${String(decision.seq)} is rejected but has args; args changes a call that is approved. Nothing was changed.`,
      );
    }
    const seq = decision.seq as number;
    if (seq === WHOLE_PROGRAM_SEQ) {
      return failure(
        executionId,
        "validation",
        "The whole-program approval (call #0) is decided with approve() or reject(), not decide(). Nothing was changed.",
      );
    }
    if (seen.has(seq)) return failure(executionId, "validation", `Call #${seq} is decided twice. Nothing was changed.`);
    seen.add(seq);
  }
  return undefined;
}

/**
 * Applies `decisions` to the paused execution and runs one pass; an approved decision with `args` runs its call with
 * them (an editable method only). Any decision that cannot apply refuses them all, before anything is claimed.
 */
export async function decidePending(
  core: RuntimeCore,
  request: { executionId: string; decisions: CallDecision[]; scope?: string; decidedBy?: string },
  options: ExecuteOptions = {},
): Promise<CodemodeOutput> {
  const read = await loadRequested(core, "decide", request, {
    options,
    check: (given) => invalid(typeof given["executionId"] === "string" ? given["executionId"] : "", given["decisions"]),
  });
  if (!read.ok) return read.error;
  const { decisions } = request;
  const {
    loaded,
    request: { decidedBy },
  } = read.value;
  for (const decision of decisions) {
    const refused = refusal(loaded, decision.approved ? "approve" : "reject", decision.seq);
    if (refused !== undefined) return refused;
  }
  const bySeq = new Map(loaded.calls.map((call) => [call.seq, call]));
  const edits: ApprovalEdit[] = [];
  for (const decision of decisions) {
    const call = bySeq.get(decision.seq);
    if (decision.args === undefined || call === undefined) continue;
    const checked = await checkedEdit(core, loaded.execution.executionId, call, decision.args);
    if (!checked.ok) return checked.error;
    if (checked.value !== undefined) edits.push(checked.value);
  }
  const reject = decisions
    .filter((decision) => !decision.approved)
    .map((decision) => ({
      seq: decision.seq,
      error: rejectionMessage(
        bySeq.get(decision.seq) ?? { connector: "?", method: "?", seq: decision.seq },
        decision.reason,
      ),
    }));
  const approve = decisions.filter((decision) => decision.approved).map((decision) => decision.seq);
  const claimed = await claimPaused(core, loaded, {
    decisions: { approve, reject },
    ...(decidedBy === undefined ? {} : { decidedBy }),
    ...(edits.length === 0 ? {} : { edits }),
  });
  if (!claimed.ok) return claimed.error;
  const { leaseToken, at, snippets } = claimed.value;
  const rejected = new Map(reject.map((entry) => [entry.seq, entry.error]));
  const by = decidedBy === undefined ? {} : { decidedBy };
  const edited = new Map(edits.map((edit) => [edit.seq, edit]));
  const calls = loaded.calls.map((call): CallJournalRecord => {
    if (approve.includes(call.seq)) return { ...approvedRecord(call, at, edited.get(call.seq)), ...by };
    const error = rejected.get(call.seq);
    return error === undefined ? call : { ...call, status: "error", error, finishedAt: at, ...by };
  });
  const execution = { ...loaded.execution, status: "running" as const, passes: loaded.execution.passes + 1 };
  const trace = await traceResumedPass(core.tracing, execution, { approved: approve, rejected: [...rejected.keys()] });
  return runClaimedPass(core, { execution, calls, snippets, leaseToken, options, trace });
}
