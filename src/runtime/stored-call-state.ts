/**
 * The state of a journaled call (`CallRecord`) in the one call vocabulary (`CallState`), read from the record and
 * its execution's status: what the inspector's timeline and a chat card showing a stored execution both say.
 */
import type { CallState } from "./call-state.js";
import { isProgramApproval } from "./program-approval.js";
import type { CallRecord, ExecutionStatus } from "./types.js";

/** A call that waited for approval and was never approved, in an execution a human rejected. */
function wasRejected(call: CallRecord, executionStatus: ExecutionStatus): boolean {
  return (
    executionStatus === "rejected" &&
    call.needsApproval &&
    call.approvedAt === undefined &&
    (call.status === "error" || call.status === "pending")
  );
}

/** Where a journaled call stands, in an execution of status `executionStatus`. */
export function storedCallState(call: CallRecord, executionStatus: ExecutionStatus): CallState {
  if (wasRejected(call, executionStatus)) return "rejected";
  // The program's approval row is applied by the approval itself: nothing ran for it.
  if (isProgramApproval(call) && call.approvedAt !== undefined) return "approved";
  switch (call.status) {
    case "pending":
      return call.approvedAt === undefined ? "pending" : "approved";
    case "reverted":
      return "reverted";
    case "error":
      return "error";
    case "executing":
      return executionStatus === "running" ? "executing" : "interrupted";
    case "applied":
      return call.replayedCount > 0 ? "replayed" : "applied";
  }
}
