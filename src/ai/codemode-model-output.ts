/**
 * What the model sees of a `codemode` result (`toModelOutput`): the status,
 * the result or error, logs and pending approvals, as JSON. Never the audit
 * log (calls, arguments of earlier calls, journal rows) even if a runtime
 * attaches more fields to its output. Bounded by `maxOutputChars`: a longer result, error,
 * logs or pending arguments are cut for the model (never in the journal or the tool output).
 * Program values read as everywhere else (`src/shared/display-value.ts`).
 * Calls a person approved with changed arguments are named with both argument sets and a sentence saying the
 * change was deliberate, so the model reports it instead of "fixing" the call back.
 */
import type { JSONValue } from "ai";
import type { CodemodeOutput, EditedCall, PendingAction } from "../runtime/types.js";
import { displayJson } from "../shared/display-value.js";
import {
  cutLogs,
  cutText,
  DEFAULT_MAX_OUTPUT_CHARS,
  jsonText,
  splitBudget,
  type FullValue,
} from "./model-output-budget.js";

/** Options of `codemodeModelOutput`. */
export interface ModelOutputOptions {
  /** The model's share of the output, in characters (result or error, plus logs). @default DEFAULT_MAX_OUTPUT_CHARS */
  maxOutputChars?: number;
}

/** The main value (result or error) and the logs within the budget. */
function budgeted(
  main: { text: string; what: string; full?: FullValue },
  logs: readonly string[] | undefined,
  { maxChars, executionId }: { maxChars: number; executionId: string },
): { main: string | undefined; logs: string[] | undefined } {
  const lines = logs ?? [];
  const logChars = lines.reduce((sum, line) => sum + line.length, 0);
  const split = splitBudget(maxChars, main.text.length, logChars);
  return {
    main: main.text.length > split.main ? cutText(main.text, split.main, main.what, executionId, main.full) : undefined,
    logs: lines.length === 0 ? undefined : logChars > split.logs ? cutLogs(lines, split.logs) : [...lines],
  };
}

function pendingView(pending: PendingAction[], maxChars: number, executionId: string): JSONValue[] {
  const perAction = Math.max(1, Math.floor(maxChars / Math.max(1, pending.length)));
  return pending.map((action) => {
    const args = displayJson(action.args);
    const text = jsonText(args);
    return {
      seq: action.seq,
      connector: action.connector,
      method: action.method,
      args: text.length > perAction ? cutText(text, perAction, "arguments", executionId) : args,
      ...(action.request === undefined ? {} : { request: { method: action.request.method, url: action.request.url } }),
    };
  });
}

/** A value's JSON for the model, cut to `maxChars`. */
function cutJson(value: unknown, maxChars: number, what: string, executionId: string): JSONValue {
  const json = displayJson(value);
  const text = jsonText(json);
  return text.length > maxChars ? cutText(text, maxChars, what, executionId) : json;
}

/**
 * The `edited` calls (both argument sets, each cut to its share of `maxChars`) and the sentence the model reads
 * about them; nothing when no call was edited.
 */
function editedView(
  edited: EditedCall[] | undefined,
  maxChars: number,
  executionId: string,
): Record<string, JSONValue> {
  if (edited === undefined || edited.length === 0) return {};
  const share = Math.max(1, Math.floor(maxChars / (2 * edited.length)));
  const names = edited.map((call) => `${call.connector}.${call.method} (call #${call.seq})`).join(", ");
  return {
    edited: edited.map((call) => ({
      seq: call.seq,
      connector: call.connector,
      method: call.method,
      programArgs: cutJson(call.args, share, "arguments", executionId),
      ranWithArgs: cutJson(call.approvedArgs, share, "arguments", executionId),
    })),
    editedMessage:
      `A person approved ${names} with changed arguments: it ran with ranWithArgs, not the program's programArgs. ` +
      "The change is deliberate: do not make the call again with the original arguments; tell the user what ran.",
  };
}

/**
 * The model-facing view of a `CodemodeOutput`: only the fields the model needs, within
 * `maxOutputChars`. A cut result becomes a string: the start of its JSON and a marker.
 */
export function codemodeModelOutput(
  output: CodemodeOutput,
  { maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS }: ModelOutputOptions = {},
): JSONValue {
  switch (output.status) {
    case "completed": {
      const result = displayJson(output.result);
      // A result too large for the journal was journaled as a placeholder: the cut must not say it is kept.
      const full = { kept: output.journaled !== false };
      const cut = budgeted({ text: jsonText(result), what: "result", full }, output.logs, {
        maxChars: maxOutputChars,
        executionId: output.executionId,
      });
      const view: Record<string, JSONValue> = {
        status: "completed",
        executionId: output.executionId,
        result: cut.main ?? result,
      };
      if (cut.logs !== undefined) view["logs"] = cut.logs;
      return { ...view, ...editedView(output.edited, maxOutputChars, output.executionId) };
    }
    case "paused": {
      const waiting = output.pending.map((action) => `${action.connector}.${action.method}`);
      return {
        status: "paused",
        executionId: output.executionId,
        pending: pendingView(output.pending, maxOutputChars, output.executionId),
        message:
          `Waiting for human approval of ${[...new Set(waiting)].join(", ")}. Do not call codemode again for this; ` +
          `tell the user what awaits approval. After approval the program resumes where it paused.`,
        ...editedView(output.edited, maxOutputChars, output.executionId),
      };
    }
    case "error": {
      const cut = budgeted({ text: output.error, what: "error" }, output.logs, {
        maxChars: maxOutputChars,
        executionId: output.executionId,
      });
      const view: Record<string, JSONValue> = {
        status: "error",
        executionId: output.executionId,
        kind: output.kind,
        error: cut.main ?? output.error,
      };
      if (cut.logs !== undefined) view["logs"] = cut.logs;
      return { ...view, ...editedView(output.edited, maxOutputChars, output.executionId) };
    }
    default:
      return { status: "error", error: "The runtime returned an output the tool does not understand." };
  }
}
