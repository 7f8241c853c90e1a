/**
 * One line saying what an execution did, for the executions list (CLI table and web page): its
 * first calls, what it waits for, and the first words of its result or error. Built from
 * `runtime.execution(id)`, which the list reads anyway for its call counts.
 */
import { isProgramApproval } from "../runtime/program-approval.js";
import type { ExecutionDetail } from "../runtime/types.js";
import { firstSentence } from "../shared/first-sentence.js";
import { inspectorJson } from "./inspector-json.js";

/** Distinct methods named before the rest are counted as "+N more". */
const SUMMARY_METHODS = 3;
/** Characters of a result or error kept in a summary. */
const SUMMARY_OUTCOME_CHARS = 60;

/** `text` on one line, cut at `max` characters with an ellipsis. */
function cut(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** The distinct `connector.method` names in call order, each with how many times it was called. */
function methodsText(detail: ExecutionDetail): string {
  const counts = new Map<string, number>();
  for (const call of detail.calls) {
    if (isProgramApproval(call)) continue;
    const name = `${call.connector}.${call.method}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return "no calls";
  const named = [...counts]
    .slice(0, SUMMARY_METHODS)
    .map(([name, count]) => (count === 1 ? name : `${name} ×${count}`));
  const more = counts.size - named.length;
  return `${named.join(", ")}${more > 0 ? ` (+${more} more)` : ""}`;
}

function outcomeText(detail: ExecutionDetail): string {
  switch (detail.status) {
    case "paused": {
      const waiting = [...new Set(detail.pending.map((action) => `${action.connector}.${action.method}`))];
      return `waiting: ${waiting.join(", ")}`;
    }
    case "running":
      return "running";
    case "completed":
      return `→ ${cut(inspectorJson(detail.result), SUMMARY_OUTCOME_CHARS)}`;
    case "rolled_back":
      return "rolled back";
    default:
      return `✗ ${cut(firstSentence(detail.error ?? detail.kind ?? "failed"), SUMMARY_OUTCOME_CHARS)}`;
  }
}

/**
 * What an execution did, in one line: `github.list_pull_requests, github.merge_pull_request — waiting:
 * github.merge_pull_request`, `shop.list → 2`, `no calls — ✗ The program exceeded its time budget…`,
 * `the program waits for approval (nothing ran yet)`.
 */
export function executionSummaryText(detail: ExecutionDetail): string {
  const program = detail.calls.find(isProgramApproval);
  if (program !== undefined && program.approvedAt === undefined) {
    return detail.status === "paused"
      ? "the program waits for approval (nothing ran yet)"
      : `the program did not run — ${outcomeText(detail)}`;
  }
  return `${methodsText(detail)} ${detail.status === "completed" ? "" : "— "}${outcomeText(detail)}`;
}
