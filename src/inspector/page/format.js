// @ts-check
/**
 * How the inspector page writes durations, instants, values and call names (the CLI writes them the same way in
 * `src/cli/text-format.ts`).
 */

/** @import { PageCall } from "./page-types.js" */

/**
 * @param {number} n
 * @returns {string}
 */
const pad = (n) => String(n).padStart(2, "0");

/**
 * `1 ms`, `1.25 s`, `3m 05s`, `2h 03m`, `4d 02h`.
 *
 * @param {number} ms
 * @returns {string}
 */
export function duration(ms) {
  if (ms < 1000) return Math.round(ms) + " ms";
  if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
  const s = Math.floor(ms / 1000);
  if (s < 3600) return Math.floor(s / 60) + "m " + pad(s % 60) + "s";
  if (s < 86400) return Math.floor(s / 3600) + "h " + pad(Math.floor(s / 60) % 60) + "m";
  return Math.floor(s / 86400) + "d " + pad(Math.floor(s / 3600) % 24) + "h";
}

/**
 * `2026-01-01 09:30:05Z` (UTC, to the second).
 *
 * @param {number} at
 * @returns {string}
 */
export function instant(at) {
  return new Date(at)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "Z");
}

/**
 * A value the API sent (already its display JSON) as text: compact when short, indented when long.
 *
 * @param {unknown} value
 * @returns {string}
 */
export function json(value) {
  if (value === undefined) return "undefined";
  // Text with line breaks (code, a message) reads as text, not as one escaped JSON string.
  if (typeof value === "string" && value.indexOf("\n") >= 0) return value;
  const compact = JSON.stringify(value);
  return compact.length <= 72 ? compact : JSON.stringify(value, null, 2);
}

/**
 * Whether `call` is the program's own approval (`approveProgram`), not a connector call.
 *
 * @param {PageCall} call
 * @returns {boolean}
 */
export function isProgram(call) {
  return call.seq === 0 && call.connector === "codemode" && call.method === "program";
}

/**
 * `#3 shop.buy`.
 *
 * @param {PageCall} call
 * @returns {string}
 */
export function callName(call) {
  return "#" + call.seq + " " + call.connector + "." + call.method;
}
