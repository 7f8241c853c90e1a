/**
 * Bounds on every string the journal stores or a message echoes that a program, a model or a client controls
 * (step names, failure messages, rejection reasons, snippet descriptions, ids, scopes). Values the journal replays
 * (arguments, results, code) have their own limit and are never cut; these are labels and messages, cut or refused.
 */

/** A failure message or rejection reason as stored (and replayed): long enough for a stack of detail. */
export const MAX_STORED_MESSAGE_CHARS = 10_000;
/** A `codemode.step` name (a label: the journal's method column). */
export const MAX_STEP_NAME_CHARS = 200;
/** An id or a scope given by a caller (execution ids, tool call ids, scopes). */
export const MAX_ID_CHARS = 200;
/** A snippet's description. */
export const MAX_SNIPPET_DESCRIPTION_CHARS = 2_000;
/** How much of a caller's input a message quotes. */
const MAX_QUOTED_CHARS = 80;

/** `text` cut to `max` characters, with a note of how much was cut. */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… [${(text.length - max).toLocaleString("en-US")} more characters cut]`;
  return `${text.slice(0, Math.max(0, max - note.length))}${note}`;
}

/** A caller's value quoted for a message: JSON, cut to {@link MAX_QUOTED_CHARS}. */
export function quoted(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  const cut = text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
  return `"${cut}"${text.length > MAX_QUOTED_CHARS ? ` (${text.length.toLocaleString("en-US")} characters)` : ""}`;
}
