/**
 * A UI message stream transform: a `paused` result of the codemode tool becomes the AI
 * SDK's `tool-approval-request` on the same tool call, so `useChat` shows its ordinary
 * Approve / Reject state (`approval-requested`) instead of an output.
 */
import type { UIMessageChunk } from "ai";
import { toModelJson } from "../codemode-model-output.js";
import { createCodemodeApprovalRequest, isPausedCodemodeOutput } from "./paused-output.js";
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
}

const TRANSFORM_OPTION_KEYS = keysOf<CodemodeApprovalTransformOptions>({ toolName: true });

/**
 * Turns each paused codemode tool output in a UI message stream into an approval request
 * (dropping the preliminary copy of it), passes progress snapshots (preliminary results) on,
 * and makes other codemode outputs JSON-safe (BigInt as a decimal string, Map as an object,
 * Date as an ISO string, bytes as base64, as the model sees them). Every other chunk passes
 * through unchanged.
 *
 * @example
 * ```ts
 * const stream = result.toUIMessageStream().pipeThrough(codemodeApprovalTransform());
 * return createUIMessageStreamResponse({ stream });
 * ```
 */
export function codemodeApprovalTransform({
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  ...unknown
}: CodemodeApprovalTransformOptions = {}): TransformStream<UIMessageChunk, UIMessageChunk> {
  assertKnownKeys(unknown, TRANSFORM_OPTION_KEYS, "codemodeApprovalTransform");
  const codemodeCalls = new Set<string>();
  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    async transform(chunk, controller) {
      if ((chunk.type === "tool-input-start" || chunk.type === "tool-input-available") && chunk.toolName === toolName) {
        codemodeCalls.add(chunk.toolCallId);
      }
      if (chunk.type !== "tool-output-available" || !codemodeCalls.has(chunk.toolCallId)) {
        controller.enqueue(chunk);
        return;
      }
      if (isPausedCodemodeOutput(chunk.output)) {
        // The SDK repeats an iterable tool's last value as a preliminary result before the final one:
        // a preliminary `paused` is that copy, and the final one becomes the approval request.
        if (chunk.preliminary !== true) {
          controller.enqueue(
            await createCodemodeApprovalRequest({ toolCallId: chunk.toolCallId, output: chunk.output }),
          );
        }
        return;
      }
      // Journal values (BigInt, Map, Date, …) as JSON the client can receive, as the model sees them.
      controller.enqueue({ ...chunk, output: toModelJson(chunk.output) });
    },
  });
}
