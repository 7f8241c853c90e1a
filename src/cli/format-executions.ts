/**
 * The text tables of `ai-codemode executions` and `ai-codemode pending`.
 */
import type { ExecutionRow } from "../inspector/list-executions.js";
import { isProgramApproval } from "../runtime/program-approval.js";
import type { PendingAction } from "../runtime/types.js";
import { formatAge, formatColumns, formatDuration, formatInstant, inlineValue, terminalSafe } from "./text-format.js";

function statusCell(row: ExecutionRow): string {
  if (row.status === "paused") return `paused (${row.pending} pending)`;
  if (row.status === "error" && row.kind !== undefined) return `error (${row.kind})`;
  return row.status;
}

/** Characters of an execution's summary the table shows (`--json` has it whole). */
const TABLE_SUMMARY_CHARS = 80;

function summaryCell(summary: string): string {
  const safe = terminalSafe(summary);
  return safe.length <= TABLE_SUMMARY_CHARS ? safe : `${safe.slice(0, TABLE_SUMMARY_CHARS - 1)}…`;
}

/** The executions table: id, status, passes, calls, started, duration, what it did. */
export function formatExecutionsTable(rows: ExecutionRow[], now: number): string {
  if (rows.length === 0) return "No executions.";
  return formatColumns(
    ["ID", "STATUS", "PASSES", "CALLS", "STARTED", "DURATION", "SUMMARY"],
    rows.map((row) => [
      terminalSafe(row.executionId),
      statusCell(row),
      String(row.passes),
      String(row.calls),
      `${formatInstant(row.startedAt)} (${formatAge(row.startedAt, now)})`,
      formatDuration(row.durationMs),
      summaryCell(row.summary),
    ]),
  );
}

/** A program waiting for approval, in one cell: its first line and where to read it whole. */
function programSummary(args: unknown, executionId: string): string {
  const code = typeof (args as { code?: unknown })?.code === "string" ? (args as { code: string }).code : "";
  const lines = code.split("\n");
  const first = inlineValue((lines[0] ?? "").trim());
  return `program: ${first}${lines.length > 1 ? ` … (${lines.length} lines; ai-codemode show ${terminalSafe(executionId)})` : ""}`;
}

/** The pending table: execution, call, method, arguments. */
export function formatPendingTable(pending: PendingAction[]): string {
  if (pending.length === 0) return "Nothing is waiting for approval.";
  return formatColumns(
    ["EXECUTION", "CALL", "METHOD", "ARGUMENTS"],
    pending.map((action) => [
      terminalSafe(action.executionId),
      `#${action.seq}`,
      terminalSafe(`${action.connector}.${action.method}`),
      // The program's code is printed as code by `show`, not as an escaped JSON string here.
      isProgramApproval(action) ? programSummary(action.args, action.executionId) : inlineValue(action.args),
    ]),
  );
}
