/**
 * How one pending call reads in an approval form: every key and element of its arguments,
 * with long strings shortened inside the value (the marker says how much is left out). A
 * call that still does not fit is not shown partly: it is marked hidden, and the form may
 * only reject it, so a person never approves arguments they could not see.
 */
import type { PendingAction } from "../runtime/types.js";
import { displayJson } from "../shared/display-value.js";

/** Characters of one string value shown whole; a longer one keeps its head and tail. */
const FORM_STRING_MAX_CHARS = 300;
/** Characters of one call's line in the form; past it the call is hidden. */
export const FORM_CALL_MAX_CHARS = 4000;
/** Characters of all the calls' lines of one form; calls past it are hidden. */
const FORM_TOTAL_MAX_CHARS = 16_000;
/** Nesting shown; a deeper value hides the call. */
const FORM_MAX_DEPTH = 12;

const HEAD_CHARS = 200;
const TAIL_CHARS = 60;

/** One call as the form shows it. */
export interface FormCall {
  action: PendingAction;
  /** The line shown: the whole call, or why it is hidden. */
  line: string;
  /** `false`: the arguments could not be shown in full; the form cannot approve this call. */
  shown: boolean;
}

function shorten(text: string): string {
  if (text.length <= FORM_STRING_MAX_CHARS) return text;
  const hidden = text.length - HEAD_CHARS - TAIL_CHARS;
  return `${text.slice(0, HEAD_CHARS)}…[${hidden} more characters]…${text.slice(-TAIL_CHARS)}`;
}

/** `value` as JSON text with long strings shortened; `undefined` when it nests too deep to show. */
function formJson(value: unknown, depth: number): string | undefined {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(shorten(value));
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value) ?? "null";
  if (typeof value !== "object") return JSON.stringify(shorten(String(value)));
  if (depth >= FORM_MAX_DEPTH) return undefined;
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = formJson(item, depth + 1);
      if (text === undefined) return undefined;
      parts.push(text);
    }
    return `[${parts.join(",")}]`;
  }
  for (const [key, item] of Object.entries(value)) {
    const text = formJson(item, depth + 1);
    if (text === undefined) return undefined;
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(",")}}`;
}

/** The fields of `value` (keys and elements, at every depth). */
function fieldCount(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.reduce((count: number, item) => count + 1 + fieldCount(item), 0);
}

function hiddenLine(action: PendingAction, head: string, seen: boolean): string {
  return (
    `${head} — NOT SHOWN: its arguments (${fieldCount(action.args)} fields) ${seen ? "are too large or too deeply nested" : "do not fit beside the others"} ` +
    `for this form, so it can only be rejected here. To approve it, read it whole in the codemode inspector ` +
    `or with \`npx ai-codemode show ${action.executionId}\` and approve it there.`
  );
}

/** The calls of one form, in order: each shown whole, or hidden (also once the form is full). */
export function formCalls(pending: PendingAction[]): FormCall[] {
  let total = 0;
  return pending.map((action) => {
    const request = action.request === undefined ? "" : ` (${action.request.method} ${shorten(action.request.url)})`;
    const head = `#${action.seq} ${action.connector}.${action.method}${request}`;
    // The one display first (a Map, a BigInt, a Date read as everywhere else), then every key of it.
    const args = formJson(displayJson(action.args), 0);
    const line = args === undefined ? undefined : `${head} ${args}`;
    if (line === undefined || line.length > FORM_CALL_MAX_CHARS)
      return { action, line: hiddenLine(action, head, true), shown: false };
    if (total + line.length > FORM_TOTAL_MAX_CHARS)
      return { action, line: hiddenLine(action, head, false), shown: false };
    total += line.length;
    return { action, line, shown: true };
  });
}
