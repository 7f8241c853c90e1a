/**
 * Rollback: compensation, not isolation. Walks applied calls newest
 * first and calls each method's `revert` — whether or not it needed approval.
 * Methods without one stay applied; missing connectors are skipped; a failing
 * revert does not stop the others; errors are reported after all were tried.
 * The execution becomes `rolled_back` only if at least one call was reverted.
 * Idempotent: reverted calls are never reverted again, even when a rollback died
 * between a revert and its record (the call is marked before its revert runs).
 */
import { decodeJournalValue } from "./journal/journal-values.js";
import { disposeExecution } from "./pass/lifecycle-hooks.js";
import type { RuntimeCore } from "./shared-parts.js";
import { isAppliedEffect } from "./execution-views.js";
import { outputId, readExecutionRequest } from "./execution-request.js";
import { loadForRequest } from "./load-execution.js";
import type { CallJournalRecord, ExecutionRecord } from "./journal/records.js";
import { traceOutsidePass } from "./tracing/start-spans.js";
import { ROLLBACK_REQUEST_KEYS } from "./request-keys.js";
import type { RollbackOutput } from "./types.js";
import { messageOf } from "../shared/message-of.js";

/**
 * Written to an applied call's `error` just before its `revert` runs and cleared with the
 * outcome: a rollback that finds it knows an earlier one died mid-revert and never reverts twice.
 */
const REVERTING_NOTE = "reverting: a rollback started reverting this call and has not recorded the outcome";

interface Tally {
  reverted: number[];
  skipped: number[];
  errors: Array<{ seq: number; error: string }>;
}

function refused(
  executionId: string,
  kind: "not-found" | "stale" | "conflict" | "store" | "validation",
  error: string,
  tally: Tally = { reverted: [], skipped: [], errors: [] },
): RollbackOutput {
  return { status: "error", executionId, error, kind, ...tally };
}

async function revertOne(
  core: RuntimeCore,
  executionId: string,
  token: string,
  call: CallJournalRecord,
  tally: Tally,
): Promise<void> {
  const connector = core.connectors[call.connector];
  const method =
    connector !== undefined && Object.hasOwn(connector.methods, call.method)
      ? connector.methods[call.method]
      : undefined;
  if (method?.revert === undefined) {
    tally.skipped.push(call.seq);
    return;
  }
  if (call.error === REVERTING_NOTE) {
    // An earlier rollback recorded that it was reverting this call, then died before recording the outcome.
    tally.errors.push({
      seq: call.seq,
      error: `an earlier rollback was interrupted while reverting this call, so whether it was reverted is unknown; it is not reverted again (check the target system; idempotency key ${executionId}:${call.seq})`,
    });
    return;
  }
  if (!(await core.store.markReverting({ executionId, token, seq: call.seq, note: REVERTING_NOTE }))) {
    tally.errors.push({
      seq: call.seq,
      error: "not reverted: the journal could not record the revert (the rollback lost its lease)",
    });
    return;
  }
  try {
    // A call approved with changes is reverted with the arguments it ran with.
    const args = decodeJournalValue(call.approvedArgsText ?? call.argsText);
    const result = call.resultText === undefined ? undefined : decodeJournalValue(call.resultText);
    await method.revert(args, result, {
      executionId,
      seq: call.seq,
      idempotencyKey: `${executionId}:${call.seq}`,
      connector: call.connector,
      method: call.method,
    });
  } catch (error) {
    tally.errors.push({ seq: call.seq, error: messageOf(error) });
    await core.store.clearReverting({ executionId, token, seq: call.seq });
    return;
  }
  if (await core.store.markReverted({ executionId, token, seq: call.seq, now: core.options.now() }))
    tally.reverted.push(call.seq);
  else
    tally.errors.push({
      seq: call.seq,
      error: "reverted, but the journal could not record it (the rollback lost its lease)",
    });
}

/** Rolls back an ended execution. */
export async function rollbackExecution(core: RuntimeCore, request: unknown): Promise<RollbackOutput> {
  const read = readExecutionRequest("rollback", request, { seq: false, keys: ROLLBACK_REQUEST_KEYS });
  if (!read.ok)
    return refused(outputId((request as { executionId?: unknown } | undefined)?.executionId), "validation", read.error);
  const { executionId } = read.value;
  const loaded = await loadForRequest(core, read.value);
  if (!loaded.ok) {
    const why = loaded.error.kind === "store" ? `${loaded.error.error} Nothing was reverted.` : loaded.error.error;
    return refused(outputId(executionId), loaded.error.kind, why);
  }
  const { execution, calls } = loaded.value;
  if (execution.status === "running" || execution.status === "paused") {
    return refused(
      executionId,
      "stale",
      `Cannot roll back execution ${executionId} while it is ${execution.status}. Reject it first (or let it finish), then roll back.`,
    );
  }
  return traceOutsidePass(
    core.tracing,
    execution,
    "rollback",
    () => rollbackEnded(core, execution, calls),
    (output) => ({
      attributes: {
        "codemode.rollback.reverted": output.reverted,
        "codemode.rollback.skipped": output.skipped,
        "codemode.rollback.errors": output.errors.map((entry) => entry.seq),
      },
      ...(output.status === "error" ? { error: output.error, kind: output.kind } : {}),
    }),
  );
}

/** Claims an ended execution for its rollback, reverts its applied calls newest first and records the outcome. */
async function rollbackEnded(
  core: RuntimeCore,
  execution: ExecutionRecord,
  calls: CallJournalRecord[],
): Promise<RollbackOutput> {
  const tally: Tally = { reverted: [], skipped: [], errors: [] };
  const { executionId } = execution;
  const { now, generateId, leaseMs } = core.options;
  const token = generateId();
  try {
    const at = now();
    const claimed = await core.store.claimForRollback({
      executionId,
      status: execution.status,
      token,
      leaseUntil: at + leaseMs,
      now: at,
    });
    if (!claimed)
      return refused(
        executionId,
        "conflict",
        `Execution ${executionId} is being changed by another invocation (another rollback?). Nothing was reverted.`,
      );
    const applied = calls.filter(isAppliedEffect).sort((a, b) => b.seq - a.seq);
    for (const call of applied) {
      if (!Object.hasOwn(core.connectors, call.connector)) tally.skipped.push(call.seq);
      else await revertOne(core, executionId, token, call, tally);
    }
    await core.store.finishRollback({ executionId, token, rolledBack: tally.reverted.length > 0, now: now() });
  } catch (error) {
    return refused(
      executionId,
      "store",
      `The journal database failed during rollback (${messageOf(error)}). Reverted so far: ${tally.reverted.join(", ") || "none"}.`,
      tally,
    );
  }
  if (tally.reverted.length > 0) await disposeExecution(core.hooks, executionId, "rolled_back");
  if (tally.reverted.length > 0 || execution.status === "rolled_back")
    return { status: "rolled_back", executionId, ...tally };
  const why =
    tally.errors.length > 0
      ? `every revert failed: ${tally.errors.map((entry) => `#${entry.seq}: ${entry.error}`).join("; ")}`
      : "no applied call has a revert (or its connector is not configured)";
  return {
    status: "error",
    executionId,
    kind: tally.errors.length > 0 ? "exception" : "nothing-to-revert",
    error: `Nothing was rolled back: ${why}.`,
    ...tally,
  };
}
