/**
 * Progress reports of a connector call (`ExecuteOptions.onProgress`): `executing` when it starts on
 * this pass, then `applied` or `error` with its duration; `pending` when the pass pauses on it;
 * `replayed`, `error` or `rejected` when the journal answers it. Reports are never journaled.
 */
import { messageOf } from "../../shared/message-of.js";
import type { CallState } from "../call-state.js";
import { reportProgress } from "./progress-events.js";
import type { CallJournalRecord } from "../journal/records.js";
import type { PassContext } from "./pass-context.js";

/** The call a report is about. */
export interface ProgressCall {
  seq: number;
  connector: string;
  method: string;
  args: unknown;
}

/** Reports `state` for `call`; `startedAt` (from `pass.deps.now()`) adds the duration. */
export function reportCall(
  pass: PassContext,
  call: ProgressCall,
  state: CallState,
  extra: { startedAt?: number; error?: string } = {},
): void {
  const listener = pass.options.onProgress;
  if (listener === undefined) return;
  reportProgress(listener, {
    type: "call",
    executionId: pass.execution.executionId,
    ...call,
    state,
    ...(extra.startedAt === undefined ? {} : { durationMs: Math.max(0, pass.deps.now() - extra.startedAt) }),
    ...(extra.error === undefined ? {} : { error: extra.error }),
  });
}

/**
 * Whether a journaled `error` row is a human's rejection rather than a failure: it needed approval
 * and was never approved (the row shape `reject()` and `decide()` leave).
 */
export function isRejectedRow(row: CallJournalRecord): boolean {
  return row.status === "error" && row.needsApproval && row.approvedAt === undefined;
}

/** Runs `body` between an `executing` report and an `applied` / `error` one with the duration. */
export async function reportedRun<T>(pass: PassContext, call: ProgressCall, body: () => Promise<T>): Promise<T> {
  if (pass.options.onProgress === undefined) return body();
  const startedAt = pass.deps.now();
  reportCall(pass, call, "executing");
  try {
    const result = await body();
    reportCall(pass, call, "applied", { startedAt });
    return result;
  } catch (error) {
    reportCall(pass, call, "error", { startedAt, error: messageOf(error) });
    throw error;
  }
}
