/**
 * A chat approval answered after someone else already approved the same call (the web
 * inspector, the CLI, another tab or device): instead of a stale-id error, the chat gets the
 * execution's state from the store — its result or its error when it has ended, the next
 * pending calls when it paused again (the card then asks about those). Nothing runs again.
 * An execution still running keeps the stale-id answer.
 */
import type { CodemodeOutput, ExecutionDetail } from "../../runtime/types.js";
import type { CodemodeProgress } from "../codemode-progress.js";
import { hashPendingAction, parseCodemodeApprovalId } from "./approval-id.js";
import { storedProgress } from "./stored-progress.js";
import type { CodemodeApprovalRuntime } from "./types.js";

/** What the chat gets for a call approved elsewhere: the stored output, and the run's calls as a snapshot. */
export interface ApprovedElsewhere {
  output: CodemodeOutput;
  progress: CodemodeProgress;
}

/**
 * The stored outcome (with its calls) of the execution an approval id names, when its call was approved
 * elsewhere with the same arguments and the execution has since completed, failed, or paused
 * again on other calls. `undefined` otherwise (the id stays stale).
 */
export async function outcomeApprovedElsewhere({
  runtime,
  approvalId,
  scope,
}: {
  runtime: CodemodeApprovalRuntime;
  approvalId: string;
  /** The owner the request acts for: another scope's execution is not found. */
  scope?: string | undefined;
}): Promise<ApprovedElsewhere | undefined> {
  const parsed = parseCodemodeApprovalId(approvalId);
  if (parsed === undefined) return undefined;
  const { executionId, seq, hash } = parsed;
  const execution = await runtime.execution(executionId, scope === undefined ? {} : { scope });
  const call = execution?.calls.find((candidate) => candidate.seq === seq);
  if (execution === undefined || execution === null || call?.approvedAt === undefined) return undefined;
  if (
    (await hashPendingAction({ executionId, seq, connector: call.connector, method: call.method, args: call.args })) !==
    hash
  )
    return undefined;
  const output = storedOutput(execution);
  // The card did not watch the run: it lists the stored calls (as the snapshots the chat streams would have).
  return output === undefined ? undefined : { output, progress: storedProgress(execution, output.status) };
}

/** The output of a stored execution that completed, failed or paused again; `undefined` for any other status. */
function storedOutput(execution: ExecutionDetail): CodemodeOutput | undefined {
  const { executionId } = execution;
  const logs = execution.logs.length > 0 ? { logs: execution.logs } : {};
  if (execution.status === "completed") return { status: "completed", executionId, result: execution.result, ...logs };
  if (execution.status === "paused" && execution.pending.length > 0) {
    return { status: "paused", executionId, pending: execution.pending };
  }
  if (execution.status === "error" && execution.kind !== undefined) {
    return {
      status: "error",
      executionId,
      error: execution.error ?? "The execution failed.",
      kind: execution.kind,
      ...logs,
    };
  }
  return undefined;
}
