/**
 * The `requestState` of an approval asked through MCP's multi-round-trip requests (revision 2026-07-28): a paused
 * `codemode` call answers `input_required` with it, and the client echoes it, byte for byte, when it retries the
 * call with the person's answer. It travels through the client, so it is signed (`shared/hmac.ts`, under the
 * server's approval secret) and read as hostile input: it binds the execution, each pending call it asks about,
 * the owner, the call's program and the nonce the execution was journaled with, and it expires.
 *
 * It carries no secret and no argument values: the owner, the program and each call (connector, method and
 * canonical arguments) appear only as keyed tags (an HMAC under the same secret, cut to 22 characters), so a
 * client learns nothing from them, and cannot guess a value and check it against a tag. Wire shape:
 * `cmrs1.<base64url(JSON)>.<HMAC-SHA256 of a domain label and the middle part>`; the label keeps a request state
 * and an approval link token (same secret, other payload) from ever being taken for each other.
 */
import { hmacSign, hmacVerify, type HmacSecret } from "../shared/hmac.js";
import { pendingCallDigest } from "../runtime/approval-link-token.js";
import type { PendingAction } from "../runtime/types.js";

/** Prefix and version of the wire form (another version is refused). */
const STATE_PREFIX = "cmrs1.";
/** What the signature covers besides the payload: no other signed thing of the package starts with it. */
const SIGNED_LABEL = "ai-codemode.requestState.v1\0";
/** Longest state read (a pause names at most the calls one pass issued together). */
const MAX_STATE_CHARS = 16_384;
/** Characters kept of a keyed tag: 132 bits. */
const TAG_CHARS = 22;

/** One pending call a state asks about: its sequence number and the keyed tag of its connector, method, arguments. */
interface BoundCall {
  seq: number;
  tag: string;
}

/** A request state, verified. */
export interface ApprovalRequestState {
  executionId: string;
  /** The pending calls it asks about. */
  calls: BoundCall[];
  /** The nonce the execution's tool call id was journaled with (`retry-id.ts`). */
  nonce: string;
  /** When it stops working, in ms since the epoch. */
  expiresAt: number;
}

/** Why a state changes nothing. */
export type RequestStateProblem =
  /** Not a request state of this server at all (cut, re-encoded, of another version). */
  | "malformed"
  /** A signature that does not verify: forged, or altered after signing. */
  | "signature"
  /** Signed for another owner than the caller's. */
  | "owner"
  /** Signed for a call of another program. */
  | "call"
  /** Past its expiry. */
  | "expired";

/** A state read: what it binds, or why it is refused. */
export type RequestStateReading =
  | { ok: true; state: ApprovalRequestState }
  /** `executionId`: of a state genuine for this caller and call but expired. */
  | { ok: false; problem: RequestStateProblem; executionId?: string };

/** What a state is checked against: the caller and the call it came back with. */
export interface RequestStateContext {
  secret: HmacSecret;
  /** The caller's owner (scope); `undefined` for an unscoped server. */
  owner: string | undefined;
  /** The program of the retried call. */
  code: string;
}

function keyedTag(secret: HmacSecret, label: string, value: string): Promise<string> {
  return hmacSign(secret, `ai-codemode.requestState.${label}\0${value}`).then((mac) => mac.slice(0, TAG_CHARS));
}

/** `\u0000` marks the unscoped owner: no scope (a non-empty string) can spell it. */
function ownerTag(secret: HmacSecret, owner: string | undefined): Promise<string> {
  return keyedTag(secret, "owner", owner ?? "\u0000");
}

/** The tag of one pending call: bound to its execution, its sequence number and its connector, method, arguments. */
function callTag(secret: HmacSecret, call: PendingAction): Promise<string> {
  return keyedTag(secret, "call", JSON.stringify([call.executionId, call.seq, pendingCallDigest(call)]));
}

/** The calls of `pending` as a state binds them. */
async function boundCalls(secret: HmacSecret, pending: PendingAction[]): Promise<BoundCall[]> {
  return Promise.all(pending.map(async (call) => ({ seq: call.seq, tag: await callTag(secret, call) })));
}

/**
 * Whether `pending` (an execution's pending calls now) are exactly the calls `state` asks about: same sequence
 * numbers, same connector, method and arguments.
 */
export async function asksAbout(
  secret: HmacSecret,
  state: ApprovalRequestState,
  pending: PendingAction[],
): Promise<boolean> {
  if (pending.length !== state.calls.length) return false;
  const now = await boundCalls(secret, pending);
  return now.every((call) => state.calls.some((bound) => bound.seq === call.seq && bound.tag === call.tag));
}

/** A new state for `pending` (the pending calls of one execution) of the call of `code`, valid until `expiresAt`. */
export async function mintApprovalRequestState({
  secret,
  owner,
  code,
  pending,
  nonce,
  expiresAt,
}: RequestStateContext & { pending: PendingAction[]; nonce: string; expiresAt: number }): Promise<string> {
  const payload = [
    1,
    pending[0]?.executionId ?? "",
    (await boundCalls(secret, pending)).map((call) => [call.seq, call.tag]),
    await ownerTag(secret, owner),
    await keyedTag(secret, "code", code),
    nonce,
    expiresAt,
  ];
  const encoded = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${STATE_PREFIX}${encoded}.${await hmacSign(secret, SIGNED_LABEL + encoded)}`;
}

function readCalls(value: unknown): BoundCall[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const calls: BoundCall[] = [];
  for (const entry of value as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return undefined;
    const [seq, tag] = entry as unknown[];
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0 || typeof tag !== "string") return undefined;
    calls.push({ seq, tag });
  }
  return calls;
}

function decode(encoded: string): unknown {
  try {
    return JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Reads `value` (an echoed `requestState`) for the caller and call of `context` at `now` (ms): what it binds, or
 * why it changes nothing. Checked in this order: its form, its signature, its owner, its program, its expiry.
 */
export async function readApprovalRequestState(
  value: unknown,
  context: RequestStateContext & { now: number },
): Promise<RequestStateReading> {
  const refused = (problem: RequestStateProblem): RequestStateReading => ({ ok: false, problem });
  if (typeof value !== "string" || value.length > MAX_STATE_CHARS || !value.startsWith(STATE_PREFIX))
    return refused("malformed");
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(value.slice(STATE_PREFIX.length));
  if (match === null) return refused("malformed");
  const [, encoded = "", signature = ""] = match;
  if (!(await hmacVerify(context.secret, SIGNED_LABEL + encoded, signature))) return refused("signature");
  const payload = decode(encoded);
  if (!Array.isArray(payload) || payload.length !== 7 || payload[0] !== 1) return refused("malformed");
  const [, executionId, callList, owner, code, nonce, expiresAt] = payload as unknown[];
  const calls = readCalls(callList);
  if (
    typeof executionId !== "string" ||
    calls === undefined ||
    typeof owner !== "string" ||
    typeof code !== "string" ||
    typeof nonce !== "string" ||
    typeof expiresAt !== "number"
  )
    return refused("malformed");
  if (owner !== (await ownerTag(context.secret, context.owner))) return refused("owner");
  if (code !== (await keyedTag(context.secret, "code", context.code))) return refused("call");
  if (!(context.now < expiresAt)) return { ok: false, problem: "expired", executionId };
  return { ok: true, state: { executionId, calls, nonce, expiresAt } };
}
