/**
 * The preliminary output of the `codemode` tool while a program runs (`status: "running"`):
 * the latest connector calls with their state, counts over all calls, and the latest console
 * lines. The final output carries the last snapshot as `progress`; the model never reads it
 * (`toModelOutput` keeps only status, result, error, logs and pending calls).
 */
import type { CallProgress, CallProgressState } from "../runtime/progress-events.js";

/** One connector call as a person sees it in the chat. */
export type CodemodeProgressCall = CallProgress;

/** A snapshot of a running program, yielded as an AI SDK preliminary tool result. */
export interface CodemodeProgress {
  status: "running";
  /** Set from the first report on. */
  executionId?: string;
  /** The latest calls (at most `maxCalls`), in the order they started. */
  calls: CodemodeProgressCall[];
  /** Every call reported so far, including those no longer in `calls`. */
  totalCalls: number;
  /** Number of calls in each state, over all calls. */
  counts: Record<CallProgressState, number>;
  /** The latest console lines (at most `maxLogs`). */
  logs: string[];
  /** Every console line reported so far. */
  totalLogs: number;
}

/** A final `codemode` output as the tool returns it when progress is on: the runtime's output plus the last snapshot. */
export type WithProgress<T> = T & { progress?: CodemodeProgress };

/** Whether a value is a running-program snapshot. */
export function isCodemodeProgress(value: unknown): value is CodemodeProgress {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record["status"] === "running" &&
    Array.isArray(record["calls"]) &&
    Array.isArray(record["logs"]) &&
    typeof record["totalCalls"] === "number" &&
    typeof record["counts"] === "object" &&
    record["counts"] !== null
  );
}
