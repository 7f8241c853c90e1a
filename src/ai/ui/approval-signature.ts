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
import { assertHmacSecret, hmacSign, hmacVerify, type HmacSecret } from "../../shared/hmac.js";

/**
 * The app's approval secret: the value given to `streamText({ experimental_toolApprovalSecret })`, at least 32 bytes
 * (`shared/hmac.ts`).
 */
export type CodemodeApprovalSecret = HmacSecret;

/** Version tag of the signed payload. */
const PAYLOAD_TAG = "ai-codemode-approval-v1";

/** What a signature binds. */
export interface SignedApproval {
  approvalId: string;
  toolCallId: string;
  /** The codemode tool's name in `tools`. */
  toolName: string;
}

/** Refuses a mistyped or short secret at construction (the package's one secret rule). */
export function assertApprovalSecret(secret: unknown, path: string): asserts secret is CodemodeApprovalSecret {
  assertHmacSecret(secret, path);
}

function payload({ approvalId, toolCallId, toolName }: SignedApproval): string {
  return JSON.stringify([PAYLOAD_TAG, approvalId, toolCallId, toolName]);
}

/** The signature (base64url) of an approval request. */
export async function signCodemodeApproval(secret: CodemodeApprovalSecret, approval: SignedApproval): Promise<string> {
  return await hmacSign(secret, payload(approval));
}

/** Whether `signature` is the one {@link signCodemodeApproval} makes for `approval` (compared in constant time). */
export async function verifyCodemodeApprovalSignature(
  secret: CodemodeApprovalSecret,
  signature: string,
  approval: SignedApproval,
): Promise<boolean> {
  return await hmacVerify(secret, payload(approval), signature);
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
