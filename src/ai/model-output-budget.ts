/**
 * The model's share of a codemode output (`maxOutputChars`): a result, error and logs
 * longer than the budget are cut for the model, with a marker that says how much was cut
 * and how to narrow what the program returns. Only the model's view is cut: the tool's
 * output (what `execute` returned) and the journal keep the full value.
 */
import type { JSONValue } from "ai";
import { MAX_JOURNAL_VALUE_CHARS } from "../runtime/journal/journal-values.js";

/**
 * Default `maxOutputChars`: the model's share of one codemode result (result or error, plus logs), large enough
 * for a large answer and small enough that a run returning a whole data set cannot fill the context
 * (docs/decisions/default-figures.md).
 */
export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;
/** Logs keep at least this share of the budget when the result alone would fill it. */
const LOG_SHARE = 4;

function chars(count: number): string {
  return count.toLocaleString("en-US");
}

/** Where the full value of a cut is: the journal (`kept`), or nowhere (a result too large for it). */
export type FullValue = { kept: boolean };

/** How to narrow the program's return value: the advice every cut ends with, true about where the full value is. */
function narrowingAdvice(executionId: string, full: FullValue = { kept: true }): string {
  const where = full.kept
    ? `The full value is kept in the journal (execution ${executionId}).`
    : `The full value is not kept: it was over the journal's limit of ${chars(MAX_JOURNAL_VALUE_CHARS)} characters, ` +
      `so execution ${executionId} journaled a placeholder instead (it cannot be read back).`;
  return (
    `${where} Return only what you need: ` +
    "select fields, filter or slice arrays, count or aggregate inside the program, and return that."
  );
}

/** The JSON text of a value for the model (`null` for what JSON cannot hold). */
export function jsonText(value: JSONValue): string {
  return JSON.stringify(value) ?? "null";
}

/** `text` (the JSON of a result, or an error message) cut to `budget` characters, with a marker saying what was cut. */
export function cutText(
  text: string,
  budget: number,
  what: string,
  executionId: string,
  full: FullValue = { kept: true },
): string {
  return (
    `${text.slice(0, budget)}… [${what} cut for the model: ${chars(budget)} of ${chars(text.length)} characters shown. ` +
    `${narrowingAdvice(executionId, full)}]`
  );
}

/** The logs kept within `budget` characters, the last line saying how many were cut. */
export function cutLogs(logs: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [index, line] of logs.entries()) {
    if (used + line.length > budget) {
      const room = Math.max(0, budget - used);
      if (room > 1) kept.push(`${line.slice(0, room - 1)}…`);
      const rest = logs.slice(index).reduce((sum, entry) => sum + entry.length, 0) - room;
      kept.push(
        `[logs cut for the model: ${chars(logs.length - index)} more line(s), ${chars(rest)} characters not shown. Log less, or log summaries.]`,
      );
      return kept;
    }
    kept.push(line);
    used += line.length;
  }
  return kept;
}

/**
 * Splits `maxChars` between a main value (result or error) of `mainChars` and logs of
 * `logChars`: when both fit nothing is cut; otherwise logs keep what the main value leaves,
 * but at least a quarter of the budget (less when they are shorter).
 */
export function splitBudget(maxChars: number, mainChars: number, logChars: number): { main: number; logs: number } {
  if (mainChars + logChars <= maxChars) return { main: mainChars, logs: logChars };
  const logs = Math.min(logChars, Math.max(maxChars - mainChars, Math.floor(maxChars / LOG_SHARE)));
  return { main: maxChars - logs, logs };
}
