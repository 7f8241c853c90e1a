/**
 * Checks a codemode approval id against the store before anything is approved or
 * rejected. Reads only: a failed check changes nothing.
 */
import type { PendingAction } from "../../runtime/types.js";
import { hashPendingAction, parseCodemodeApprovalId } from "./approval-id.js";
import { staleApprovalError } from "./codemode-refusal.js";
import type { CodemodeApprovalRuntime } from "./types.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";

/**
 * Why an approval id was refused:
 * - `malformed`: not a codemode approval id at all.
 * - `not-found`: no such execution in this runtime's store.
 * - `stale`: the execution ended or the call is no longer pending (approved or rejected before).
 * - `mismatch`: the call is pending but the id was made for other arguments (forged or tampered).
 * - `foreign`: the execution was not started by the tool call whose part carries the approval (an approval id
 *   copied from another conversation).
 */
export type CodemodeApprovalErrorKind = "malformed" | "not-found" | "stale" | "mismatch" | "foreign";

/** Outcome of verifying an approval id. */
export type CodemodeApprovalVerification =
  | { valid: true; action: PendingAction }
  | { valid: false; kind: CodemodeApprovalErrorKind; error: string };

const VERIFY_OPTION_KEYS = keysOf<Parameters<typeof verifyCodemodeApproval>[0]>({
  runtime: true,
  approvalId: true,
  toolCallId: true,
  scope: true,
});

/**
 * Verifies that `approvalId` names a call the store holds as pending, with the same
 * connector, method and arguments it was issued for, of an execution that `toolCallId`
 * (the tool part carrying the approval) started and that `scope` (when given) owns.
 */
export async function verifyCodemodeApproval({
  runtime,
  approvalId,
  toolCallId,
  scope,
  ...unknown
}: {
  runtime: CodemodeApprovalRuntime;
  approvalId: string;
  /** The tool call of the part carrying the approval. */
  toolCallId: string;
  /** The owner the request acts for (see `createCodemodeChatStream({ scope })`). */
  scope?: string | undefined;
}): Promise<CodemodeApprovalVerification> {
  assertKnownKeys(unknown, VERIFY_OPTION_KEYS, "verifyCodemodeApproval");
  const parsed = parseCodemodeApprovalId(approvalId);
  if (parsed === undefined) {
    return refuse(
      "malformed",
      `Approval id "${approvalId}" is not a codemode approval id (expected cm_<executionId>_<seq>_<hash>). Nothing was run.`,
    );
  }
  const { executionId, seq, hash } = parsed;
  const scoped = scope === undefined ? {} : { scope };
  const execution = await runtime.execution(executionId, scoped);
  if (execution === undefined || execution === null) {
    return refuse(
      "not-found",
      `Approval id "${approvalId}" names execution ${executionId}, which does not exist. Nothing was run.`,
    );
  }
  if (execution.toolCallId !== toolCallId) {
    return refuse(
      "foreign",
      `Approval id "${approvalId}" names execution ${executionId}, which was not started by tool call ${toolCallId}. An approval ` +
        "is accepted only on the tool part whose call paused. Nothing was run.",
    );
  }
  const pending = await runtime.pending(executionId, scoped);
  const action = pending.find((candidate) => candidate.executionId === executionId && candidate.seq === seq);
  if (action === undefined) {
    const state =
      execution.status === "paused" ? `paused, but call ${seq} is not waiting for approval` : execution.status;
    return refuse(
      "stale",
      staleApprovalError({ approvalId, executionId, state, expired: execution.kind === "expired" }),
    );
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
