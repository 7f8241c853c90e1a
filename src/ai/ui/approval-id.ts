/**
 * Approval ids of nested codemode calls: `cm_<executionId>_<seq>_<hash>`, where `hash` is
 * a SHA-256 prefix over the execution id, sequence number, connector, method and canonical
 * arguments. The id is a claim, not a credential: on resume it is checked against the
 * call the store holds as pending (`verify-codemode-approval.ts`), so an id for other
 * arguments, another call or an ended execution changes nothing.
 */
import type { PendingAction } from "../../runtime/types.js";

/** Prefix that marks an approval id as belonging to a nested codemode call. */
const CODEMODE_APPROVAL_ID_PREFIX = "cm_";

/** Hex characters of the SHA-256 digest kept in an approval id (64 bits). */
const HASH_HEX_CHARS = 16;

/** The parts of a codemode approval id. */
export interface ParsedCodemodeApprovalId {
  executionId: string;
  seq: number;
  hash: string;
}

/** The approval id of a pending action. */
export async function createCodemodeApprovalId(action: PendingAction): Promise<string> {
  const hash = await hashPendingAction(action);
  return `${CODEMODE_APPROVAL_ID_PREFIX}${action.executionId}_${action.seq}_${hash}`;
}

/**
 * Splits an approval id into execution id, sequence number and hash, or returns
 * `undefined` when the string is not a codemode approval id. The execution id may itself
 * contain underscores, so the id is read from the right.
 */
export function parseCodemodeApprovalId(approvalId: string): ParsedCodemodeApprovalId | undefined {
  if (!approvalId.startsWith(CODEMODE_APPROVAL_ID_PREFIX)) return undefined;
  const rest = approvalId.slice(CODEMODE_APPROVAL_ID_PREFIX.length);
  const hashStart = rest.lastIndexOf("_");
  if (hashStart <= 0) return undefined;
  const seqStart = rest.lastIndexOf("_", hashStart - 1);
  if (seqStart <= 0) return undefined;
  const executionId = rest.slice(0, seqStart);
  const seqText = rest.slice(seqStart + 1, hashStart);
  const hash = rest.slice(hashStart + 1);
  if (!/^(0|[1-9][0-9]{0,8})$/.test(seqText)) return undefined;
  if (!new RegExp(`^[0-9a-f]{${HASH_HEX_CHARS}}$`).test(hash)) return undefined;
  return { executionId, seq: Number(seqText), hash };
}

/** The hash an approval id carries for a pending action. */
export async function hashPendingAction(action: PendingAction): Promise<string> {
  const text = canonicalJson([action.executionId, action.seq, action.connector, action.method, action.args]);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest).subarray(0, HASH_HEX_CHARS / 2), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}

/**
 * A deterministic text for any journal value: object keys sorted, and the non-JSON types
 * the journal keeps (`undefined`, `Date`, `Map`, `Set`, `BigInt`, bytes) tagged so that
 * different values never share a text.
 */
function canonicalJson(value: unknown): string {
  if (value === undefined) return '{"$u":1}';
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number")
    return Number.isFinite(value) && !Object.is(value, -0)
      ? String(value)
      : `{"$n":"${String(Object.is(value, -0) ? "-0" : value)}"}`;
  if (typeof value === "bigint") return `{"$b":"${value.toString()}"}`;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value instanceof Date) return `{"$d":${canonicalJson(value.getTime())}}`;
  if (value instanceof Map) return `{"$m":${canonicalJson(Array.from(value.entries()))}}`;
  if (value instanceof Set) return `{"$s":${canonicalJson(Array.from(value.values()))}}`;
  if (value instanceof ArrayBuffer) return `{"$a":${canonicalJson(Array.from(new Uint8Array(value)))}}`;
  if (ArrayBuffer.isView(value))
    return `{"$v":${canonicalJson(Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)))}}`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(String(value));
}
