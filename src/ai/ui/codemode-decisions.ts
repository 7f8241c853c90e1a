/**
 * Per-call decisions for a pause with several pending calls, carried in the one approval a tool part
 * holds: the client answers `approved: true` with `reason` set to a small JSON document
 * `{"codemodeDecisions":{"<approvalId>":true|false|{"approved":true,"args":…},…}}`
 * (docs/decisions/chat-progress-and-decisions.md). `{ approved: true, args }` approves the call with changed
 * arguments (approve with changes; its method must be `editable`). The document is a claim: the server verifies
 * every id against the store and ignores the rest, and the runtime validates every edit (docs/decisions/approve-with-changes.md).
 */

/**
 * Longest `reason` read as a decisions document. A longer one that starts as a decisions document is refused by the
 * chat bridge (nothing is approved), never taken as an ordinary reason.
 */
export const MAX_DECISIONS_CHARS = 64_000;
/** Most decisions one document may carry. */
export const MAX_DECISIONS = 200;

const KEY = "codemodeDecisions";

/**
 * One call's decision in a decisions document: approve (`true`), reject (`false`), or approve with the person's
 * arguments instead of the program's (`{ approved: true, args }`).
 */
export type CodemodeDecision = boolean | { approved: true; args: unknown };

/**
 * The `reason` text that carries per-call decisions, keyed by each call's approval id (from
 * `descriptor.calls[].approvalId`). Send it with `addToolApprovalResponse({ id, approved: true, reason })`.
 *
 * @example
 * ```ts
 * addToolApprovalResponse({ id: part.approval.id, approved: true, reason: encodeCodemodeDecisions({ [a]: true, [b]: false }) });
 * // Approve call `a` with other arguments (an `editable` method), for one pending call too:
 * addToolApprovalResponse({ id: part.approval.id, approved: true, reason: encodeCodemodeDecisions({ [a]: { approved: true, args: { amount: 50 } } }) });
 * ```
 */
export function encodeCodemodeDecisions(decisions: Record<string, CodemodeDecision>): string {
  return JSON.stringify({ [KEY]: decisions });
}

/** A decision as read from a document: a boolean, or `{ approved: true, args }` (nothing else). */
function readDecision(value: unknown): CodemodeDecision | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value).sort();
  const record = value as Record<string, unknown>;
  if (keys.length !== 2 || keys[0] !== "approved" || keys[1] !== "args" || record["approved"] !== true)
    return undefined;
  return { approved: true, args: record["args"] };
}

/**
 * Whether `reason` starts as a decisions document (`{"codemodeDecisions":`), whether or not it can be read: one that
 * {@link parseCodemodeDecisions} cannot read (too long, too many decisions, cut off) must refuse the approval rather
 * than approve the card's call as it stands, which would drop the person's edits and rejections.
 */
export function claimsCodemodeDecisions(reason: unknown): boolean {
  return typeof reason === "string" && /^\s*\{\s*"codemodeDecisions"\s*:/.test(reason);
}

/**
 * The decisions a `reason` carries, or `undefined` when it is not exactly a decisions document
 * (then it is an ordinary reason). Entries whose value is neither a boolean nor `{ approved: true, args }` are dropped.
 */
export function parseCodemodeDecisions(reason: unknown): Map<string, CodemodeDecision> | undefined {
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
  const entries = Object.entries(decisions).flatMap(([id, value]): Array<[string, CodemodeDecision]> => {
    const decision = readDecision(value);
    return decision === undefined ? [] : [[id, decision]];
  });
  if (entries.length > MAX_DECISIONS) return undefined;
  return new Map(entries);
}
