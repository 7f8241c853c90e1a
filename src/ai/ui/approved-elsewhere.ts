/**
 * A chat approval answered after someone else already approved the same call (the web
 * inspector, the CLI, another tab or device): instead of a stale-id error, the chat gets the
 * execution's state from the store — its result or its error when it has ended, the next
 * pending calls when it paused again (the card then asks about those), with the calls it made
 * as the progress a chat card lists. Nothing runs again. An execution still running keeps the
 * stale-id answer.
 */
import type { CallState } from "../../runtime/call-state.js";
import type { CallRecord, CodemodeOutput, ExecutionDetail } from "../../runtime/types.js";
import type { CodemodeProgress } from "../codemode-progress.js";
import {
  DEFAULT_PROGRESS_MAX_CALLS,
  DEFAULT_PROGRESS_MAX_LOGS,
  DEFAULT_PROGRESS_THROTTLE_MS,
  ProgressFeed,
} from "../progress-feed.js";
import { hashPendingAction, parseCodemodeApprovalId } from "./approval-id.js";
import type { CodemodeApprovalRuntime } from "./types.js";

/** The stored outcome, and the calls and console lines of the execution as a progress snapshot. */
export interface ApprovedElsewhere {
  output: CodemodeOutput;
  progress: CodemodeProgress | undefined;
}

/**
 * The stored outcome of the execution an approval id names, when its call was approved
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
  const output = storedOutput(executionId, execution);
  return output === undefined ? undefined : { output, progress: storedProgress(executionId, execution) };
}

function storedOutput(executionId: string, execution: ExecutionDetail): CodemodeOutput | undefined {
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

/** A stored call in the progress vocabulary: a call decided and not approved was rejected. */
function storedState(call: CallRecord): CallState {
  if (call.status === "error" && call.decidedBy !== undefined && call.approvedAt === undefined) return "rejected";
  return call.status === "executing" ? "interrupted" : call.status;
}

/**
 * The journal's calls and console lines through the same feed as a live run (its limits on calls, lines and
 * argument sizes), so a card shows them as it would have shown them live. `undefined` when there are none.
 */
function storedProgress(executionId: string, execution: ExecutionDetail): CodemodeProgress | undefined {
  if (execution.calls.length === 0 && execution.logs.length === 0) return undefined;
  const feed = new ProgressFeed({
    options: {
      throttleMs: DEFAULT_PROGRESS_THROTTLE_MS,
      maxCalls: DEFAULT_PROGRESS_MAX_CALLS,
      maxLogs: DEFAULT_PROGRESS_MAX_LOGS,
    },
    publish: () => undefined,
  });
  for (const call of execution.calls) {
    const { seq, connector, method, args, startedAt, finishedAt, error } = call;
    feed.push({
      type: "call",
      executionId,
      seq,
      connector,
      method,
      args,
      state: storedState(call),
      ...(startedAt === undefined || finishedAt === undefined ? {} : { durationMs: finishedAt - startedAt }),
      ...(error === undefined ? {} : { error }),
    });
  }
  for (const line of execution.logs) feed.push({ type: "log", executionId, line });
  return feed.close();
}
