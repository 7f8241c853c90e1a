/**
 * Retention and cleanup: `expirePaused`, `deleteExecution`,
 * `pruneExecutions`, `clearHistory`, `deleteAllData`. Running and paused runs are
 * never pruned; they end through `expirePaused` (or an explicit delete), which
 * disposes their execution resources. The retention rule itself: `retention-options.ts`.
 */
import { CodemodeArgumentError } from "../errors/codemode-argument-error.js";
import { disposeExecution } from "./pass/lifecycle-hooks.js";
import { described, readId, readOptions } from "./read-arguments.js";
import { EXPIRE_OPTION_KEYS } from "./request-keys.js";
import { DEFAULT_PAUSED_MAX_AGE_MS } from "./runtime-options.js";
import { PRUNE_BATCH_LIMIT, pruneRule } from "./retention-options.js";
import type { RuntimeCore } from "./runtime-core.js";
import { storeOperation } from "./store-operation.js";
import { TERMINAL_EXECUTION_STATUSES } from "./journal/records.js";
import type { ExpirePausedOutput } from "./types.js";

/**
 * Ends stale runs: paused for longer than `maxAgeMs` → `rejected`; running
 * with an expired lease (its process died) → `error`, its interrupted calls
 * marked `error` and never re-run. Disposes each.
 */
export async function expirePaused(core: RuntimeCore, options?: { maxAgeMs?: number }): Promise<ExpirePausedOutput> {
  const { maxAgeMs = DEFAULT_PAUSED_MAX_AGE_MS } = readOptions("expirePaused(options)", options, EXPIRE_OPTION_KEYS);
  if (typeof maxAgeMs !== "number" || !Number.isFinite(maxAgeMs) || maxAgeMs < 0) {
    throw new CodemodeArgumentError({
      argument: "expirePaused({ maxAgeMs })",
      message: `maxAgeMs must be a non-negative number of milliseconds (got ${described(maxAgeMs)})`,
    });
  }
  const now = core.options.now();
  const expired = await storeOperation("expire stale executions", () =>
    core.store.expire({
      now,
      pausedBefore: now - maxAgeMs,
      runningMessage:
        "Expired: the process running this execution stopped (its lease ran out) before the run ended. Calls that were in flight are not run again.",
      pausedMessage: `Expired: nobody approved or rejected this execution within ${maxAgeMs} ms.`,
    }),
  );
  for (const entry of expired) await disposeExecution(core.hooks, entry.executionId, entry.status);
  return { expired };
}

/** Deletes one execution and its call log; an unfinished one is disposed. */
export async function deleteExecution(core: RuntimeCore, executionId: unknown): Promise<{ deleted: boolean }> {
  const id = readId("deleteExecution(executionId)", executionId);
  if (id === undefined) return { deleted: false };
  const loaded = await storeOperation("read the execution", () => core.store.load(id));
  if (loaded === undefined) return { deleted: false };
  const deleted = await storeOperation("delete the execution", () => core.store.deleteExecution(id));
  if (deleted && !TERMINAL_EXECUTION_STATUSES.includes(loaded.execution.status)) {
    await disposeExecution(core.hooks, id, "error");
  }
  return { deleted };
}

/**
 * Applies the retention rule to every owner, in bounded batches until nothing is left to prune: ended executions
 * beyond the newest `keep` per owner (default `maxExecutions`) and past `retention.maxAgeMs`, never one that ended
 * less than `retention.minAgeMs` ago.
 */
export async function pruneExecutions(
  core: RuntimeCore,
  keep = core.options.retention.maxExecutions,
): Promise<{ deleted: string[] }> {
  if (keep !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(keep) || keep < 0)) {
    throw new CodemodeArgumentError({
      argument: "pruneExecutions(keep)",
      message: `keep must be a non-negative integer or Infinity (got ${described(keep)})`,
    });
  }
  const rule = pruneRule(core.options.retention, { now: core.options.now(), keep, limit: PRUNE_BATCH_LIMIT });
  const deleted: string[] = [];
  for (;;) {
    const batch = await storeOperation("prune executions", () => core.store.prune(rule));
    deleted.push(...batch);
    if (batch.length === 0) return { deleted };
  }
}

/** Deletes every terminal execution of this runtime name (running and paused ones stay). */
export async function clearHistory(core: RuntimeCore): Promise<{ deleted: string[] }> {
  return { deleted: await storeOperation("clear the history", () => core.store.clearHistory()) };
}

/** Deletes every row of this runtime name (executions, calls, snippets); unfinished runs are disposed. */
export async function deleteAllData(core: RuntimeCore): Promise<void> {
  const unfinished = await storeOperation("delete this runtime's data", () => core.store.deleteAllData());
  for (const executionId of unfinished) await disposeExecution(core.hooks, executionId, "error");
}
