/**
 * Recognising a `paused` codemode result and turning it into the AI SDK's own
 * `tool-approval-request` chunk on the same tool call.
 */
import type { UIMessageChunk } from "ai";
import type { CodemodeOutput, PendingAction } from "../../runtime/types.js";
import { displayJson } from "../../shared/display-value.js";
import { isCodemodeProgress, type CodemodeProgress } from "../codemode-progress.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";
import { toCodemodeApprovalDescriptor, type CodemodeApprovalDescriptor } from "./approval-descriptor.js";
import { createCodemodeApprovalId } from "./approval-id.js";
import { signCodemodeApproval, type CodemodeApprovalSecret } from "./approval-signature.js";
import { CodemodeArgumentError } from "../../errors/codemode-argument-error.js";

/** A codemode result that waits for approval. */
export type PausedCodemodeOutput = Extract<CodemodeOutput, { status: "paused" }>;

/** The `tool-approval-request` UI message chunk. */
export type ToolApprovalRequestChunk = Extract<UIMessageChunk, { type: "tool-approval-request" }>;

/** Whether a tool output is a `paused` codemode result with at least one pending action. */
export function isPausedCodemodeOutput(output: unknown): output is PausedCodemodeOutput {
  if (typeof output !== "object" || output === null) return false;
  const record = output as Record<string, unknown>;
  return (
    record["status"] === "paused" &&
    typeof record["executionId"] === "string" &&
    Array.isArray(record["pending"]) &&
    record["pending"].length > 0
  );
}

/**
 * The action the user is asked about next: the lowest sequence number. A tool part holds
 * one approval at a time, so several pending actions are approved one after another
 * (docs/decisions/ui-approvals-one-at-a-time.md).
 */
function nextPendingAction(output: PausedCodemodeOutput): PendingAction {
  const [first, ...rest] = output.pending;
  if (first === undefined) {
    throw new CodemodeArgumentError({
      argument: "nextPendingAction(output)",
      message: "a paused codemode output has at least one pending action",
    });
  }
  return rest.reduce((lowest, action) => (action.seq < lowest.seq ? action : lowest), first);
}

const APPROVAL_REQUEST_OPTION_KEYS = keysOf<Parameters<typeof createCodemodeApprovalRequest>[0]>({
  toolCallId: true,
  output: true,
  progress: true,
  signing: true,
});

/**
 * The approval request chunk for a paused codemode result on tool call `toolCallId`, signed when `signing` gives the
 * app's secret (`toolApprovalSecret`) and the codemode tool's name. `progress` (the last snapshot of the pass that
 * paused) travels in the descriptor, so the card can say what already ran.
 */
export async function createCodemodeApprovalRequest({
  toolCallId,
  output,
  progress,
  signing,
  ...unknown
}: {
  toolCallId: string;
  output: PausedCodemodeOutput;
  /** The last progress snapshot of the pass that paused, if progress was on. */
  progress?: CodemodeProgress | undefined;
  signing?: { secret: CodemodeApprovalSecret; toolName: string } | undefined;
}): Promise<ToolApprovalRequestChunk> {
  assertKnownKeys(unknown, APPROVAL_REQUEST_OPTION_KEYS, "createCodemodeApprovalRequest");
  const action = nextPendingAction(output);
  const descriptor: CodemodeApprovalDescriptor = {
    ...toCodemodeApprovalDescriptor(action),
    args: displayJson(action.args),
  };
  // JSON-safe like every codemode output (a call's arguments may hold a BigInt or a Date).
  if (progress !== undefined && isCodemodeProgress(progress))
    descriptor.progress = displayJson(progress) as unknown as CodemodeProgress;
  if (output.pending.length > 1) {
    const sorted = [...output.pending].sort((a, b) => a.seq - b.seq);
    descriptor.calls = await Promise.all(
      sorted.map(async (pending) => ({
        seq: pending.seq,
        connector: pending.connector,
        method: pending.method,
        args: displayJson(pending.args),
        approvalId: await createCodemodeApprovalId(pending),
        ...(pending.editable === true ? { editable: true } : {}),
        ...(pending.editable === true && pending.inputSchema !== undefined ? { inputSchema: pending.inputSchema } : {}),
      })),
    );
  }
  const approvalId = await createCodemodeApprovalId(action);
  const signature =
    signing === undefined
      ? undefined
      : await signCodemodeApproval(signing.secret, { approvalId, toolCallId, toolName: signing.toolName });
  return {
    type: "tool-approval-request",
    approvalId,
    toolCallId,
    // Shown to a person; the arguments made JSON-safe (the id binds the journaled ones).
    approvalDescriptor: descriptor,
    ...(signature === undefined ? {} : { signature }),
  };
}
