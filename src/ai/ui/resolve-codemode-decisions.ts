/**
 * Applying a decisions document (`codemode-decisions.ts`) answered on a codemode tool part: every
 * entry is verified against the store like an approval id and must belong to the same execution as
 * the part's own approval; the rest (forged, stale, other executions) are ignored and change nothing.
 * The surviving decisions resume the execution once (`runtime.decide`).
 */
import type { CodeModeOutput, PendingAction } from "../../runtime/types.js";
import type { CodemodeApprovalRuntime, CodemodeResumeOptions } from "./types.js";
import { verifyCodemodeApproval } from "./verify-codemode-approval.js";

/** Decisions the store confirms, for the execution of `action`. */
export async function verifiedDecisions({
  runtime,
  action,
  decisions,
}: {
  runtime: CodemodeApprovalRuntime;
  action: PendingAction;
  decisions: Map<string, boolean>;
}): Promise<Array<{ seq: number; approved: boolean }>> {
  const accepted = new Map<number, boolean>();
  for (const [approvalId, approved] of decisions) {
    const verification = await verifyCodemodeApproval({ runtime, approvalId });
    if (!verification.valid || verification.action.executionId !== action.executionId) continue;
    accepted.set(verification.action.seq, approved);
  }
  return [...accepted].map(([seq, approved]) => ({ seq, approved }));
}

/**
 * Resumes the execution with the verified decisions; when none survive, nothing runs and the
 * pause is returned as it stands (the person is asked again).
 */
export async function applyDecisions({
  runtime,
  action,
  decisions,
  options = {},
}: {
  runtime: CodemodeApprovalRuntime;
  action: PendingAction;
  decisions: Map<string, boolean>;
  options?: CodemodeResumeOptions;
}): Promise<CodeModeOutput> {
  const verified = await verifiedDecisions({ runtime, action, decisions });
  if (verified.length > 0) return runtime.decide({ executionId: action.executionId, decisions: verified }, options);
  return { status: "paused", executionId: action.executionId, pending: await runtime.pending(action.executionId) };
}
