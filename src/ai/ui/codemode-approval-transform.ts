/**
 * A UI message stream transform: a `paused` result of the codemode tool becomes the AI
 * SDK's `tool-approval-request` on the same tool call, so `useChat` shows its ordinary
 * Approve / Reject state (`approval-requested`) instead of an output.
 */
import type { UIMessageChunk } from "ai";
import { displayJson } from "../../shared/display-value.js";
import { isCodemodeProgress, type CodemodeProgress, type WithProgress } from "../codemode-progress.js";
import { assertApprovalSecret, type CodemodeApprovalSecret } from "./approval-signature.js";
import { createCodemodeApprovalRequest, isPausedCodemodeOutput, type PausedCodemodeOutput } from "./paused-output.js";

/** A codemode tool's final output (completed, paused or error), as opposed to a running program's snapshot. */
function isFinalCodemodeOutput(output: unknown): boolean {
  const status = typeof output === "object" && output !== null ? (output as { status?: unknown }).status : undefined;
  return status === "completed" || status === "paused" || status === "error";
}
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";

/** Name under which the codemode tool is registered in `tools`. */
export const DEFAULT_CODEMODE_TOOL_NAME = "codemode";

/** Options of {@link codemodeApprovalTransform}. */
export interface CodemodeApprovalTransformOptions {
  /**
   * Name of the codemode tool in the `tools` given to `streamText`.
   * @default "codemode"
   */
  toolName?: string;
  /**
   * Signs every codemode approval request: give it the value given to `streamText({ experimental_toolApprovalSecret })`
   * (and to `resumeCodemodeApprovals`, which then refuses unsigned or forged answers).
   * @default undefined (unsigned)
   */
  toolApprovalSecret?: CodemodeApprovalSecret;
}

const TRANSFORM_OPTION_KEYS = keysOf<CodemodeApprovalTransformOptions>({ toolName: true, toolApprovalSecret: true });

/**
 * Turns each paused codemode tool output in a UI message stream into an approval request,
 * drops the SDK's preliminary copy of every final output, passes progress snapshots (preliminary results) on,
 * and makes other codemode outputs JSON-safe (values read as the model reads them: `"1n"`, `{"Map(1)": …}`, an ISO
 * date). Every other chunk passes through unchanged.
 *
 * @example
 * ```ts
 * const stream = result.toUIMessageStream().pipeThrough(codemodeApprovalTransform());
 * return createUIMessageStreamResponse({ stream });
 * ```
 */
export function codemodeApprovalTransform({
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  toolApprovalSecret,
  ...unknown
}: CodemodeApprovalTransformOptions = {}): TransformStream<UIMessageChunk, UIMessageChunk> {
  assertKnownKeys(unknown, TRANSFORM_OPTION_KEYS, "codemodeApprovalTransform");
  if (toolApprovalSecret !== undefined) assertApprovalSecret(toolApprovalSecret, "toolApprovalSecret");
  const signing = toolApprovalSecret === undefined ? undefined : { secret: toolApprovalSecret, toolName };
  const codemodeCalls = new Set<string>();
  // The last snapshot seen per call, for the approval request of a pause (when the final output does not carry it).
  const lastSnapshots = new Map<string, CodemodeProgress>();
  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    async transform(chunk, controller) {
      if ((chunk.type === "tool-input-start" || chunk.type === "tool-input-available") && chunk.toolName === toolName) {
        codemodeCalls.add(chunk.toolCallId);
      }
      if (chunk.type !== "tool-output-available" || !codemodeCalls.has(chunk.toolCallId)) {
        controller.enqueue(chunk);
        return;
      }
      // The SDK sends an iterable tool's last value twice, as a preliminary result and then the final one: only the
      // final one is sent on, so a large result crosses the wire once (snapshots of a running program pass).
      if (chunk.preliminary === true && isFinalCodemodeOutput(chunk.output)) return;
      if (isPausedCodemodeOutput(chunk.output)) {
        // The SDK repeats an iterable tool's last value as a preliminary result before the final one:
        // a preliminary `paused` is that copy, and the final one becomes the approval request.
        if (chunk.preliminary !== true) {
          const kept = (chunk.output as WithProgress<PausedCodemodeOutput>).progress;
          const progress = isCodemodeProgress(kept) ? kept : lastSnapshots.get(chunk.toolCallId);
          lastSnapshots.delete(chunk.toolCallId);
          controller.enqueue(
            await createCodemodeApprovalRequest({
              toolCallId: chunk.toolCallId,
              output: chunk.output,
              progress,
              signing,
            }),
          );
        }
        return;
      }
      if (chunk.preliminary === true && isCodemodeProgress(chunk.output))
        lastSnapshots.set(chunk.toolCallId, chunk.output);
      else if (chunk.preliminary !== true) lastSnapshots.delete(chunk.toolCallId);
      // Journal values (BigInt, Map, Date, …) as JSON the client can receive, as the model sees them.
      controller.enqueue({ ...chunk, output: displayJson(chunk.output) });
    },
  });
}
