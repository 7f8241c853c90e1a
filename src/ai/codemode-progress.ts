/**
 * The preliminary output of the `codemode` tool while a program runs (`status: "running"`):
 * the latest connector calls with their state, counts over all calls, and the latest console
 * lines. The final output carries the last snapshot as `progress`, with the run's final status;
 * the model never reads it (`toModelOutput` keeps only status, result, error, logs and pending calls).
 */
import type { CallState } from "../runtime/call-state.js";
import type { CallProgress } from "../runtime/pass/progress-events.js";
import type { CodemodeOutput } from "../runtime/types.js";

const PROGRESS_STATUSES: ReadonlySet<unknown> = new Set(["running", "completed", "paused", "error"]);

/**
 * A snapshot of a program's calls and console lines: yielded as an AI SDK preliminary tool result while it
 * runs (`status: "running"`), and kept on the final output as `progress` with the run's final status.
 */
export interface CodemodeProgress {
  /** `running` while the program runs; on the snapshot kept with a final output, how the run ended. */
  status: "running" | CodemodeOutput["status"];
  /** Set from the first report on. */
  executionId?: string;
  /** The latest calls (at most `maxCalls`), in the order they started. */
  calls: CallProgress[];
  /** Every call reported so far, including those no longer in `calls`. */
  totalCalls: number;
  /**
   * Number of calls in each state, over all calls (progress reports `executing`, `applied`, `replayed`,
   * `pending`, `rejected` and `error`; the other states stay 0).
   */
  counts: Record<CallState, number>;
  /** The latest console lines (at most `maxLogs`). */
  logs: string[];
  /** Every console line reported so far. */
  totalLogs: number;
}

/** A final `codemode` output as the tool returns it when progress is on: the runtime's output plus the last snapshot. */
export type WithProgress<T> = T & { progress?: CodemodeProgress };

/**
 * The final output with the last snapshot as `progress`, saying how the run ended (a snapshot that still said
 * `running` on a completed run misled every reader of the part).
 */
export function withFinalProgress<T extends CodemodeOutput>(output: T, last: CodemodeProgress): WithProgress<T> {
  return { ...output, progress: { ...last, status: output.status } };
}

/** Whether a value is a progress snapshot (a running program's, or the one kept on a final output). */
export function isCodemodeProgress(value: unknown): value is CodemodeProgress {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    PROGRESS_STATUSES.has(record["status"]) &&
    Array.isArray(record["calls"]) &&
    Array.isArray(record["logs"]) &&
    typeof record["totalCalls"] === "number" &&
    typeof record["counts"] === "object" &&
    record["counts"] !== null
  );
}
