/**
 * The progress snapshot of a stored execution: what a card shows when the chat did not watch the run (it was
 * decided elsewhere, e.g. in the inspector), so the card still lists the run's calls and console lines, the same
 * shape as the snapshots the chat streams.
 */
import { storedCallState } from "../../runtime/stored-call-state.js";
import { isProgramApproval } from "../../runtime/program-approval.js";
import type { CodemodeOutput, ExecutionDetail } from "../../runtime/types.js";
import type { CodemodeProgress } from "../codemode-progress.js";
import { DEFAULT_PROGRESS_MAX_CALLS, DEFAULT_PROGRESS_MAX_LOGS, emptyCounts, progressArgs } from "../progress-feed.js";

/** The snapshot of `execution` as its output `status` ended it: every call counted, the latest ones listed. */
export function storedProgress(execution: ExecutionDetail, status: CodemodeOutput["status"]): CodemodeProgress {
  const counts = emptyCounts();
  // The whole-program approval is no connector call (progress never reports it).
  const calls = execution.calls
    .filter((call) => !isProgramApproval(call))
    .sort((a, b) => a.seq - b.seq)
    .map((call) => {
      const state = storedCallState(call, execution.status);
      counts[state] += 1;
      return {
        seq: call.seq,
        connector: call.connector,
        method: call.method,
        args: progressArgs(call.args),
        state,
        ...(call.startedAt !== undefined && call.finishedAt !== undefined && state === "applied"
          ? { durationMs: call.finishedAt - call.startedAt }
          : {}),
        ...(call.error === undefined ? {} : { error: call.error }),
      };
    });
  return {
    status,
    executionId: execution.executionId,
    calls: calls.slice(-DEFAULT_PROGRESS_MAX_CALLS),
    totalCalls: calls.length,
    counts,
    logs: execution.logs.slice(-DEFAULT_PROGRESS_MAX_LOGS),
    totalLogs: execution.logs.length,
  };
}
