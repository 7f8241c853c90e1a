/**
 * Small text helpers for what the CLI prints: durations, instants, ages, JSON values
 * on one line, and terminal-safe strings (program text and values are untrusted:
 * control characters such as ANSI escapes are shown, never sent to the terminal).
 */
import { displayText } from "../shared/display-value.js";

/** Longest value printed inline before it is cut (`--json` prints everything). */
const MAX_INLINE_VALUE_CHARS = 300;

/** `1 ms`, `1.25 s`, `3m 05s`, `2h 03m`, `4d 02h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const seconds = Math.floor(ms / 1000);
  const pad = (value: number): string => String(value).padStart(2, "0");
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${pad(seconds % 60)}s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ${pad(Math.floor(seconds / 60) % 60)}m`;
  return `${Math.floor(seconds / 86_400)}d ${pad(Math.floor(seconds / 3600) % 24)}h`;
}

/** `2026-01-01 09:30:05Z` (UTC, to the second). */
export function formatInstant(at: number): string {
  return new Date(at)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "Z");
}

/** `5m 00s ago`, `just now`. */
export function formatAge(at: number, now: number): string {
  const ms = now - at;
  return ms < 1000 ? "just now" : `${formatDuration(ms)} ago`;
}

/** `+1.25 s` from the execution's start. */
export function formatOffset(at: number, start: number): string {
  return `+${formatDuration(Math.max(0, at - start))}`;
}

/** Replaces control characters (other than newline and tab) with `\u{…}`, so untrusted text cannot drive the terminal. */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u{${char.codePointAt(0)?.toString(16)}}`,
  );
}

/** A value's display on one terminal-safe line (`1n`, `{"a":1}`), cut at {@link MAX_INLINE_VALUE_CHARS}. */
export function inlineValue(value: unknown): string {
  const text = terminalSafe(displayText(value)).replace(/\n/g, "\\n");
  return text.length <= MAX_INLINE_VALUE_CHARS
    ? text
    : `${text.slice(0, MAX_INLINE_VALUE_CHARS)}… (${text.length} chars; --json shows all)`;
}

/** Left-aligned columns separated by two spaces, with a header row. */
export function formatColumns(header: string[], rows: string[][]): string {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => (row[index] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
