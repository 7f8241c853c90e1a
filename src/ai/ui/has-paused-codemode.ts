/**
 * A `stopWhen` condition: the tool loop ends when the codemode tool paused for approval,
 * so the model does not get (and talk about) a paused result before a human decided.
 */
import type { StopCondition, ToolSet } from "ai";
import { DEFAULT_CODEMODE_TOOL_NAME } from "./codemode-approval-transform.js";
import { isPausedCodemodeOutput } from "./paused-output.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";

const STOP_OPTION_KEYS = keysOf<NonNullable<Parameters<typeof hasPausedCodemode>[0]>>({ toolName: true });

/**
 * Stops the tool loop after a step in which the codemode tool returned `paused`.
 * Combine it with a step limit: `stopWhen: [isStepCount(10), hasPausedCodemode()]`.
 *
 * @example
 * ```ts
 * streamText({ model, tools: { codemode: runtime.tool() }, messages, stopWhen: [isStepCount(10), hasPausedCodemode()] });
 * ```
 */
export function hasPausedCodemode({
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  ...unknown
}: {
  toolName?: string;
} = {}): StopCondition<ToolSet> {
  assertKnownKeys(unknown, STOP_OPTION_KEYS, "hasPausedCodemode");
  return ({ steps }) => {
    const lastStep = steps.at(-1);
    if (lastStep === undefined) return false;
    return lastStep.toolResults.some((result) => result.toolName === toolName && isPausedCodemodeOutput(result.output));
  };
}
