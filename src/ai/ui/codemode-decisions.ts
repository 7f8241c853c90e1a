/**
 * Per-call decisions for a pause with several pending calls, carried in the one approval a tool part
 * holds: the client answers `approved: true` with `reason` set to a small JSON document
 * `{"codemodeDecisions":{"<approvalId>":true|false,…}}` (docs/decisions/chat-progress-and-decisions.md).
 * The document is a claim: the server verifies every id against the store and ignores the rest.
 */

/** Longest `reason` read as a decisions document; a longer one is an ordinary reason. */
export const MAX_DECISIONS_CHARS = 16_384;
/** Most decisions one document may carry. */
export const MAX_DECISIONS = 200;

const KEY = "codemodeDecisions";

/**
 * The `reason` text that carries per-call decisions, keyed by each call's approval id (from
 * `descriptor.calls[].approvalId`). Send it with `addToolApprovalResponse({ id, approved: true, reason })`.
 *
 * @example
 * ```ts
 * addToolApprovalResponse({ id: part.approval.id, approved: true, reason: encodeCodemodeDecisions({ [a]: true, [b]: false }) });
 * ```
 */
export function encodeCodemodeDecisions(decisions: Record<string, boolean>): string {
  return JSON.stringify({ [KEY]: decisions });
}

/**
 * The decisions a `reason` carries, or `undefined` when it is not exactly a decisions document
 * (then it is an ordinary reason). Entries with a non-boolean value are dropped.
 */
export function parseCodemodeDecisions(reason: unknown): Map<string, boolean> | undefined {
  if (typeof reason !== "string" || reason.length > MAX_DECISIONS_CHARS || !reason.startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reason);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const keys = Object.keys(parsed);
  if (keys.length !== 1 || keys[0] !== KEY) return undefined;
  const decisions = (parsed as Record<string, unknown>)[KEY];
  if (typeof decisions !== "object" || decisions === null || Array.isArray(decisions)) return undefined;
  const entries = Object.entries(decisions).filter(
    (entry): entry is [string, boolean] => typeof entry[1] === "boolean",
  );
  if (entries.length > MAX_DECISIONS) return undefined;
  return new Map(entries);
}
