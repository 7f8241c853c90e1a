/**
 * Approval links: a signed token naming the paused calls a person may decide in a browser. The MCP server
 * issues one when a call needs approval (URL-mode elicitation); the inspector's link page verifies it. The
 * token is `base64url(payload).base64url(HMAC-SHA256(secret, payload))` (`shared/hmac.ts`); the payload binds the execution,
 * each pending call (its sequence number and a digest of its connector, method and arguments, so a link
 * cannot be moved to another call or to edited arguments), the owner, an expiry and a nonce.
 *
 * A token is not spent by a table of its own: it names calls that are pending, and a call is pending once.
 * The first decision through it (or through anything else) ends that, so every later use, a replay of the same
 * request included, finds its calls no longer pending and changes nothing. That holds on every instance,
 * because the pending state is the journal's.
 */
import { hmacSign, hmacVerify, type HmacSecret } from "../shared/hmac.js";
import { nodeCrypto } from "../shared/node-crypto.js";
import { canonicalArguments } from "./journal/journal-values.js";
import type { PendingAction } from "./types.js";

/** Version tag of the payload (a token of another version is refused). */
const TOKEN_VERSION = 1;
/** Longest token read (a link names at most the calls one pass paused on). */
const MAX_TOKEN_CHARS = 8192;

/** What a link binds. */
export interface ApprovalLinkPayload {
  executionId: string;
  /** The calls it decides: sequence number and digest of connector, method and arguments. */
  calls: Array<{ seq: number; digest: string }>;
  /** The execution's owner (`undefined`: an unscoped execution). */
  owner: string | undefined;
  /** When the link stops working, in ms since the epoch. */
  expiresAt: number;
  nonce: string;
}

/** The digest a link binds for one pending call. */
export function pendingCallDigest(call: Pick<PendingAction, "connector" | "method" | "args">): string {
  return nodeCrypto()
    .createHash("sha256")
    .update(JSON.stringify([call.connector, call.method, canonicalArguments(call.args)]))
    .digest("base64url")
    .slice(0, 32);
}

/** A token for `pending` (all of one execution), owned by `owner`, valid until `expiresAt`. */
export async function createApprovalLinkToken({
  secret,
  pending,
  owner,
  expiresAt,
  nonce = nodeCrypto().randomBytes(12).toString("base64url"),
}: {
  secret: HmacSecret;
  pending: PendingAction[];
  owner: string | undefined;
  expiresAt: number;
  nonce?: string;
}): Promise<string> {
  const payload = [
    TOKEN_VERSION,
    pending[0]?.executionId ?? "",
    pending.map((call) => [call.seq, pendingCallDigest(call)]),
    owner ?? null,
    expiresAt,
    nonce,
  ];
  const encoded = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${encoded}.${await hmacSign(secret, encoded)}`;
}

function readCalls(value: unknown): ApprovalLinkPayload["calls"] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const calls: ApprovalLinkPayload["calls"] = [];
  for (const entry of value as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) return undefined;
    const [seq, digest] = entry as unknown[];
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0 || typeof digest !== "string")
      return undefined;
    calls.push({ seq, digest });
  }
  return calls;
}

/** The payload of a token signed with `secret`, or `undefined` for a malformed, forged or altered one. */
export async function readApprovalLinkToken(
  secret: HmacSecret,
  token: string,
): Promise<ApprovalLinkPayload | undefined> {
  if (token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const [encoded = "", signed = ""] = token.split(".");
  if (!(await hmacVerify(secret, encoded, signed))) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(payload) || payload.length !== 6 || payload[0] !== TOKEN_VERSION) return undefined;
  const [, executionId, callList, owner, expiresAt, nonce] = payload as unknown[];
  const calls = readCalls(callList);
  if (
    typeof executionId !== "string" ||
    calls === undefined ||
    (owner !== null && typeof owner !== "string") ||
    typeof expiresAt !== "number" ||
    typeof nonce !== "string"
  )
    return undefined;
  return { executionId, calls, owner: owner ?? undefined, expiresAt, nonce };
}
