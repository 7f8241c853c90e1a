/**
 * Applying a decisions document (`codemode-decisions.ts`) answered on a codemode tool part: every
 * entry is verified against the store like an approval id and must belong to the same execution as
 * the part's own approval; the rest (forged, stale, other executions) are ignored and change nothing.
 * The surviving decisions resume the execution once (`runtime.decide`).
 */
import type { CodemodeOutput, PendingAction } from "../../runtime/types.js";
import type { CodemodeApprovalRuntime, CodemodeResumeOptions } from "./types.js";
import { verifyCodemodeApproval } from "./verify-codemode-approval.js";
import type { CodemodeDecision } from "./codemode-decisions.js";

/** A decisions document answered on the part whose own approval verified as `action`. */
interface DecisionsRequest {
  runtime: CodemodeApprovalRuntime;
  /** The call the part's own approval id names (already verified). */
  action: PendingAction;
  decisions: Map<string, CodemodeDecision>;
  /** The tool call of the part: every decision must be bound to it, like the part's own approval. */
  toolCallId: string;
  scope: string | undefined;
  /** Who decided, journaled on every decided call. */
  decidedBy?: string | undefined;
}

/**
 * Decisions the store confirms, for the execution of `action`. An edit travels under the approval id of the call it
 * changes, so it can only reach that call (verified like the id itself); the runtime checks it is `editable` and valid.
 */
async function verifiedDecisions({
  runtime,
  action,
  decisions,
  toolCallId,
  scope,
}: DecisionsRequest): Promise<Array<{ seq: number; approved: boolean; args?: unknown }>> {
  const accepted = new Map<number, CodemodeDecision>();
  for (const [approvalId, decision] of decisions) {
    const verification = await verifyCodemodeApproval({ runtime, approvalId, toolCallId, scope });
    if (!verification.valid || verification.action.executionId !== action.executionId) continue;
    accepted.set(verification.action.seq, decision);
  }
  return [...accepted].map(([seq, decision]) =>
    typeof decision === "boolean" ? { seq, approved: decision } : { seq, approved: true, args: decision.args },
  );
}

/**
 * Resumes the execution with the verified decisions; when none survive, nothing runs and the
 * pause is returned as it stands (the person is asked again).
 */
export async function applyDecisions({
  options = {},
  ...request
}: DecisionsRequest & { options?: CodemodeResumeOptions }): Promise<CodemodeOutput> {
  const { runtime, action, scope, decidedBy } = request;
  const verified = await verifiedDecisions(request);
  const scoped = scope === undefined ? {} : { scope };
  if (verified.length > 0) {
    const by = decidedBy === undefined ? {} : { decidedBy };
    return runtime.decide({ executionId: action.executionId, decisions: verified, ...scoped, ...by }, options);
  }
  return {
    status: "paused",
    executionId: action.executionId,
    pending: await runtime.pending(action.executionId, scoped),
  };
}
