/**
 * Checks a codemode approval id against the store before anything is approved or
 * rejected. Reads only: a failed check changes nothing.
 */
import type { PendingAction } from "../../runtime/types.js";
import { hashPendingAction, parseCodemodeApprovalId } from "./approval-id.js";
import type { CodemodeApprovalRuntime } from "./types.js";

/**
 * Why an approval id was refused:
 * - `malformed`: not a codemode approval id at all.
 * - `not-found`: no such execution in this runtime's store.
 * - `stale`: the execution ended or the call is no longer pending (approved or rejected before).
 * - `mismatch`: the call is pending but the id was made for other arguments (forged or tampered).
 */
export type CodemodeApprovalErrorKind = "malformed" | "not-found" | "stale" | "mismatch";

/** Outcome of verifying an approval id. */
export type CodemodeApprovalVerification =
  | { valid: true; action: PendingAction }
  | { valid: false; kind: CodemodeApprovalErrorKind; error: string };

/**
 * Verifies that `approvalId` names a call the store holds as pending, with the same
 * connector, method and arguments it was issued for.
 */
export async function verifyCodemodeApproval({
  runtime,
  approvalId,
}: {
  runtime: CodemodeApprovalRuntime;
  approvalId: string;
}): Promise<CodemodeApprovalVerification> {
  const parsed = parseCodemodeApprovalId(approvalId);
  if (parsed === undefined) {
    return refuse("malformed", `Approval id "${approvalId}" is not a codemode approval id (expected cm_<executionId>_<seq>_<hash>). Nothing was run.`);
  }
  const { executionId, seq, hash } = parsed;
  const pending = await runtime.pending(executionId);
  const action = pending.find((candidate) => candidate.executionId === executionId && candidate.seq === seq);
  if (action === undefined) {
    const execution = await runtime.execution(executionId);
    if (execution === undefined || execution === null) {
      return refuse("not-found", `Approval id "${approvalId}" names execution ${executionId}, which does not exist. Nothing was run.`);
    }
    const state = execution.status === "paused" ? `paused, but call ${seq} is not waiting for approval` : execution.status;
    return refuse("stale", `Approval id "${approvalId}" is stale: execution ${executionId} is ${state}. Nothing was run.`);
  }
  if ((await hashPendingAction(action)) !== hash) {
    return refuse(
      "mismatch",
      `Approval id "${approvalId}" does not match the pending call ${action.connector}.${action.method} at sequence ${seq} of execution ${executionId}. Nothing was run.`,
    );
  }
  return { valid: true, action };
}

function refuse(kind: CodemodeApprovalErrorKind, error: string): CodemodeApprovalVerification {
  return { valid: false, kind, error };
}
