/**
 * Signed codemode approval requests (`toolApprovalSecret`, docs/decisions/tool-callers.md): with the app's secret,
 * the bridge signs each approval request it issues — HMAC-SHA256 over the approval id, the tool call and the tool
 * name — and refuses an answer whose signature is missing or wrong before it reads the store. The AI SDK signs its
 * own approvals the same way (`experimental_toolApprovalSecret`), but never sees a codemode approval unresolved: the
 * payload starts with its own version tag, so neither accepts the other's signatures (an SDK-signed approval cannot
 * resume an execution, and a codemode one cannot make the SDK run the codemode tool again).
 *
 * A signature proves the server issued that request for that tool call; it does not make an approval fresh (a
 * replayed answer carries a valid signature): the binding to the store's pending call still decides.
 */
import { InvalidOptionError } from "../../errors.js";

/** The app's approval secret: the value given to `streamText({ experimental_toolApprovalSecret })`. */
export type CodemodeApprovalSecret = string | Uint8Array;

/** Version tag of the signed payload. */
const PAYLOAD_TAG = "ai-codemode-approval-v1";

/** What a signature binds. */
export interface SignedApproval {
  approvalId: string;
  toolCallId: string;
  /** The codemode tool's name in `tools`. */
  toolName: string;
}

/** Refuses an empty or mistyped secret at construction. */
export function assertApprovalSecret(secret: unknown, path: string): asserts secret is CodemodeApprovalSecret {
  const ok = typeof secret === "string" ? secret !== "" : secret instanceof Uint8Array && secret.byteLength > 0;
  if (!ok) throw new InvalidOptionError({ path, message: "must be a non-empty string or Uint8Array" });
}

function key(secret: CodemodeApprovalSecret): Promise<CryptoKey> {
  const bytes = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  return crypto.subtle.importKey("raw", bytes as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

function payload({ approvalId, toolCallId, toolName }: SignedApproval): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify([PAYLOAD_TAG, approvalId, toolCallId, toolName]));
}

/** The signature (base64url) of an approval request. */
export async function signCodemodeApproval(secret: CodemodeApprovalSecret, approval: SignedApproval): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await key(secret), payload(approval));
  return Buffer.from(signature).toString("base64url");
}

/** Whether `signature` is the one {@link signCodemodeApproval} makes for `approval` (compared in constant time). */
export async function verifyCodemodeApprovalSignature(
  secret: CodemodeApprovalSecret,
  signature: string,
  approval: SignedApproval,
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
  const bytes = Buffer.from(signature, "base64url");
  // The last character carries two unused bits: only the canonical spelling of the bytes is the signature, so a
  // re-encoded copy of a genuine one (same bytes, other padding bits) is refused rather than accepted.
  if (bytes.toString("base64url") !== signature) return false;
  return crypto.subtle.verify("HMAC", await key(secret), bytes, payload(approval));
}

/**
 * Why an answered approval's signature is refused, or `undefined` when it may proceed: with a secret, the signature
 * must verify; without one, an answer carrying a signature is refused too (this route signs nothing, so the server
 * that issued it had a secret this one lacks, or the client made it up).
 */
export async function signatureProblem({
  secret,
  signature,
  approval,
}: {
  secret: CodemodeApprovalSecret | undefined;
  signature: unknown;
  approval: SignedApproval;
}): Promise<string | undefined> {
  const { approvalId } = approval;
  if (secret === undefined) {
    if (signature === undefined) return undefined;
    return (
      `Approval "${approvalId}" carries a signature, but this route was given no toolApprovalSecret to check it ` +
      "with: pass createCodemodeChatStream({ toolApprovalSecret }) the value given to streamText's " +
      "experimental_toolApprovalSecret. Nothing was run."
    );
  }
  if (typeof signature !== "string" || signature === "") {
    return `Approval "${approvalId}" is not signed, and this route requires signed approvals. Nothing was run.`;
  }
  if (!(await verifyCodemodeApprovalSignature(secret, signature, approval))) {
    return (
      `Approval "${approvalId}" has an invalid signature for tool call ${approval.toolCallId}: it was not issued ` +
      "by this server for this tool call. Nothing was run."
    );
  }
  return undefined;
}
