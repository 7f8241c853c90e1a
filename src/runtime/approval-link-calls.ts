/**
 * What an approval link (`approval-link-token.ts`) may decide in an execution as the journal has it now: the
 * pending calls it names, each still pending with the arguments it was issued for, or why nothing. One check for
 * every way a link is used: the inspector's link page and the MCP approval card.
 */
import { type ApprovalLinkPayload, pendingCallDigest } from "./approval-link-token.js";
import type { ExecutionDetail, PendingAction } from "./types.js";

/** The calls `link` decides in `detail`, or the refusal (nothing may change). */
export function linkedPendingCalls(
  detail: ExecutionDetail,
  link: ApprovalLinkPayload,
): { calls: PendingAction[] } | { refusal: string } {
  const calls: PendingAction[] = [];
  for (const { seq, digest } of link.calls) {
    const call = detail.status === "paused" ? detail.pending.find((pending) => pending.seq === seq) : undefined;
    if (call === undefined) {
      const record = detail.calls.find((journaled) => journaled.seq === seq);
      const by = record?.decidedBy === undefined ? "" : ` by ${record.decidedBy}`;
      return {
        refusal: `This link was used or its call was decided already${by}: the execution is ${detail.status}. Each link works once.`,
      };
    }
    if (pendingCallDigest(call) !== digest)
      return { refusal: `This link was issued for another call than #${seq} of execution ${detail.executionId}.` };
    calls.push(call);
  }
  return { calls };
}
