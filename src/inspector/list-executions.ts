/**
 * The executions list the CLI table and the web page show: the public summaries
 * with their call and pending counts and a one-line summary (read from each execution's
 * call log), filtered by status and age.
 */
import { isProgramApproval } from "../runtime/program-approval.js";
import type { ExecutionStatus, FailureKind } from "../runtime/types.js";
import { executionSummaryText } from "./execution-summary.js";
import type { InspectorRuntime } from "./inspector-runtime.js";

/** Statuses an execution can have, in the order the CLI documents them. */
export const EXECUTION_STATUSES: readonly ExecutionStatus[] = [
  "running",
  "paused",
  "completed",
  "error",
  "rejected",
  "rolled_back",
];

/** Default number of executions listed. */
export const DEFAULT_INSPECTOR_LIST_LIMIT = 50;

/** With a filter, how many of the newest executions are scanned for matches. */
const FILTER_SCAN_LIMIT = 1000;

/** How many execution logs are read at once to count their calls. */
const COUNT_CONCURRENCY = 8;

/** One row of the executions list. */
export interface ExecutionRow {
  executionId: string;
  status: ExecutionStatus;
  passes: number;
  calls: number;
  /** Calls waiting for approval. */
  pending: number;
  startedAt: number;
  updatedAt: number;
  /** Until the last update for ended runs, until `now` for running and paused ones. */
  durationMs: number;
  kind?: FailureKind;
  error?: string;
  /** What it did, in one line: its first calls, what it waits for, the first words of its result or error. */
  summary: string;
}

/** Filters of {@link listExecutions}. */
export interface ListExecutionsOptions {
  status?: ExecutionStatus | undefined;
  /** Only executions started at or after this instant (ms). */
  since?: number | undefined;
  /** @default 50 */
  limit?: number | undefined;
  /** The clock. @default Date.now */
  now?: (() => number) | undefined;
  /** Only the executions of this owner. @default undefined (every execution) */
  scope?: string | undefined;
}

const ENDED: ReadonlySet<ExecutionStatus> = new Set(["completed", "error", "rejected", "rolled_back"]);

/** Newest executions first, with call counts, filtered. With a filter, the newest {@link FILTER_SCAN_LIMIT} are scanned. */
export async function listExecutions(
  runtime: InspectorRuntime,
  { status, since, limit = DEFAULT_INSPECTOR_LIST_LIMIT, now = Date.now, scope }: ListExecutionsOptions = {},
): Promise<ExecutionRow[]> {
  const at = now();
  const filtered = status !== undefined || since !== undefined;
  const scoped = scope === undefined ? {} : { scope };
  const summaries = (await runtime.executions(filtered ? Math.max(limit, FILTER_SCAN_LIMIT) : limit, scoped))
    .filter(
      (summary) =>
        (status === undefined || summary.status === status) && (since === undefined || summary.createdAt >= since),
    )
    .slice(0, limit);
  const rows: ExecutionRow[] = new Array<ExecutionRow>(summaries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < summaries.length) {
      const index = next++;
      const summary = summaries[index];
      if (summary === undefined) continue;
      const detail = await runtime.execution(summary.executionId, scoped);
      const row: ExecutionRow = {
        executionId: summary.executionId,
        status: summary.status,
        passes: summary.passes,
        // The approval of a whole program (call #0) is not a call it made.
        calls: detail?.calls.filter((call) => !isProgramApproval(call)).length ?? 0,
        pending: detail?.pending.length ?? 0,
        startedAt: summary.createdAt,
        updatedAt: summary.updatedAt,
        durationMs: Math.max(0, (ENDED.has(summary.status) ? summary.updatedAt : at) - summary.createdAt),
        summary: detail === undefined ? "" : executionSummaryText(detail),
      };
      if (summary.kind !== undefined) row.kind = summary.kind;
      if (summary.error !== undefined) row.error = summary.error;
      rows[index] = row;
    }
  };
  await Promise.all(Array.from({ length: Math.min(COUNT_CONCURRENCY, summaries.length) }, worker));
  return rows;
}
