/**
 * Builds the AI SDK `codemode` tool on top of a runtime: input `{ code }`, a
 * description generated from the connectors, `execute` forwarding the AI SDK's
 * `ToolExecutionOptions` to `runtime.execute` (as an async iterable of progress
 * snapshots, then the final output, unless `progress: false`), and a `toModelOutput`
 * that shows the model only what it needs.
 *
 * The raw output (what a UI message stream sends to the browser and chat
 * history stores) is JSON-safe: program values go through the same mapping
 * as the model's view ({@link displayJson}), so `toUIMessageStreamResponse()`
 * never meets a `BigInt` and a `Map` is never sent as `{}`.
 */
import { jsonSchema, tool, type Tool } from "ai";
import type { Connector } from "../connectors/types.js";
import { InvalidOptionError } from "../errors.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option, type OptionField, type ResolvedOf } from "../shared/options/declare-options.js";
import { textOption } from "../shared/options/option-checks.js";
import { watchAiTelemetry } from "./ai-telemetry-recording.js";
import { scopeProblem } from "../runtime/execution-request.js";
import type { CodemodeInput, CodemodeOutput, ExecuteInput, ExecuteOptions } from "../runtime/types.js";
import { CODEMODE_INPUT_JSON_SCHEMA, validateCodemodeInput } from "./codemode-input-schema.js";
import { codemodeModelOutput } from "./codemode-model-output.js";
import { displayJson } from "../shared/display-value.js";
import { isCodemodeProgress, type CodemodeProgress, type WithProgress } from "./codemode-progress.js";
import {
  DEFAULT_PROGRESS_MAX_CALLS,
  DEFAULT_PROGRESS_MAX_LOGS,
  DEFAULT_PROGRESS_THROTTLE_MS,
  type ProgressFeedOptions,
} from "./progress-feed.js";
import { streamWithProgress } from "./progress-stream.js";
import { buildToolDescription, type InlineTypes } from "./tool-description.js";

/** Options of `runtime.tool(options)`. */
export interface CodemodeToolOptions {
  /**
   * Put the connectors' full TypeScript declarations into the description:
   * `"auto"` when they fit the description budget (saving the model a
   * `describe` round trip), `true` always, `false` never.
   * @default "auto"
   */
  inlineTypes?: InlineTypes;
  /**
   * Extra guidance appended to the generated description.
   * @default none
   */
  instructions?: string;
  /**
   * Replaces the generated description entirely.
   * @default the description generated from the connectors
   */
  description?: string;
  /**
   * Stream the program's connector calls and console lines to the chat while it runs, as AI SDK
   * preliminary tool results (`false` turns it off; the model's input is the same either way).
   * Throttle rule: the first report at once, then at most one snapshot per `throttleMs`; a
   * snapshot keeps the latest `maxCalls` calls and `maxLogs` lines, with totals.
   * @default { throttleMs: 100, maxCalls: 50, maxLogs: 50 }
   */
  progress?: boolean | Partial<ProgressFeedOptions>;
  /**
   * The owner of every execution this tool starts (e.g. the signed-in user's id): `approve`, `reject`,
   * `rollback`, `pending`, `executions`, `execution` and `createCodemodeChatStream` with another scope see them as
   * `not-found`. The model cannot set it.
   * @default undefined (unscoped)
   */
  scope?: string;
}

/** The part of a runtime the tool calls. */
export interface CodemodeToolRuntime {
  execute(input: ExecuteInput, options?: ExecuteOptions): Promise<CodemodeOutput>;
}

/** An integer of at least `min`; `fallback` when omitted. */
function countOption(fallback: number, min: number): OptionField<number> {
  return option((value, path) => {
    const given = value ?? fallback;
    if (typeof given !== "number" || !Number.isInteger(given) || given < min)
      throw new InvalidOptionError({ path, message: `must be an integer >= ${min}` });
    return given;
  });
}

/** How each key of `tool({ progress: { … } })` is checked and defaulted. */
const PROGRESS_OPTIONS = declareOptions<Partial<ProgressFeedOptions>>()({
  throttleMs: countOption(DEFAULT_PROGRESS_THROTTLE_MS, 0),
  maxCalls: countOption(DEFAULT_PROGRESS_MAX_CALLS, 1),
  maxLogs: countOption(DEFAULT_PROGRESS_MAX_LOGS, 0),
});

function readProgress(progress: unknown, path: string): ProgressFeedOptions | undefined {
  if (progress === false) return undefined;
  if (progress !== undefined && progress !== true && !isRecord(progress)) {
    throw new InvalidOptionError({ path, message: "must be true, false or { throttleMs?, maxCalls?, maxLogs? }" });
  }
  return PROGRESS_OPTIONS.resolve(isRecord(progress) ? progress : {}, path);
}

/** How each option of {@link CodemodeToolOptions} is checked and defaulted. */
const CODEMODE_TOOL_OPTIONS = declareOptions<CodemodeToolOptions>()({
  inlineTypes: option((value, path): InlineTypes => {
    if (value === undefined) return "auto";
    if (value !== "auto" && typeof value !== "boolean")
      throw new InvalidOptionError({ path, message: `must be "auto", true or false` });
    return value;
  }),
  instructions: option((value, path) => {
    if (value !== undefined && typeof value !== "string")
      throw new InvalidOptionError({ path, message: "must be a string" });
    return value;
  }),
  description: textOption(),
  progress: option(readProgress),
  scope: option((value, path) => {
    const problem = scopeProblem(value);
    if (problem !== undefined) throw new InvalidOptionError({ path, message: problem.replace(/^scope /, "") });
    return value as string | undefined;
  }),
});

/** Every option of {@link CodemodeToolOptions} (`codemodeTool` takes them beside the runtime's). */
export const CODEMODE_TOOL_OPTION_KEYS = CODEMODE_TOOL_OPTIONS.keys;

/** `CodemodeToolOptions` with defaults applied (`progress` undefined when off). */
export type ResolvedCodemodeToolOptions = ResolvedOf<typeof CODEMODE_TOOL_OPTIONS.fields>;

/** Validates `tool()` options; errors name `tool.<option>`, and an unknown key the closest known one. */
export function resolveCodemodeToolOptions(options: CodemodeToolOptions | undefined): ResolvedCodemodeToolOptions {
  if (options !== undefined && !isRecord(options))
    throw new InvalidOptionError({ path: "tool", message: "options must be an object" });
  return CODEMODE_TOOL_OPTIONS.resolve(options, "tool");
}

/** The input schema `{ code: string }`, validated without a schema library. */
const inputSchema = jsonSchema<CodemodeInput>(CODEMODE_INPUT_JSON_SCHEMA, { validate: validateCodemodeInput });

/**
 * `output` with its program values as their display JSON (`"1n"`, `{"Map(1)": …}`, an ISO date; see
 * `src/shared/display-value.ts`). The journal keeps the original values; `execution(id)` returns them.
 */
export function jsonSafeCodemodeOutput(output: CodemodeOutput): CodemodeOutput {
  switch (output.status) {
    case "completed":
      return { ...output, result: displayJson(output.result) };
    case "paused":
      return { ...output, pending: output.pending.map((action) => ({ ...action, args: displayJson(action.args) })) };
    default:
      return output;
  }
}

/**
 * What the `codemode` tool yields: progress snapshots (`status: "running"`, preliminary) while
 * the program runs, then the final output (with the last snapshot as `progress` when there was any).
 */
export type CodemodeToolOutput = CodemodeProgress | WithProgress<CodemodeOutput>;

/** The `codemode` tool type (static, so the UI part is `tool-codemode`). */
export type CodemodeTool = Tool<CodemodeInput, CodemodeToolOutput>;

/** Builds the tool for `runtime`, describing `connectors`. */
export function buildCodemodeTool({
  runtime,
  connectors,
  options,
  fetchOrigins,
  modules,
  maxOutputChars,
  description: given,
  tracing = false,
}: {
  runtime: CodemodeToolRuntime;
  connectors: Record<string, Connector>;
  options: ResolvedCodemodeToolOptions;
  /** The origins programs may `fetch`, when the runtime has the `outbound` option. */
  fetchOrigins?: string | undefined;
  /** Specifiers of the modules programs may import (named in the description). */
  modules?: readonly string[] | undefined;
  /** The model's share of a result (`maxOutputChars`). @default DEFAULT_MAX_OUTPUT_CHARS */
  maxOutputChars?: number | undefined;
  /** The description, when the caller made it (a tool caller's fixed one); else generated from `connectors`. */
  description?: string | undefined;
  /** The runtime's `tracing` option: read the AI SDK call's telemetry settings once a tracer provider exists. */
  tracing?: boolean;
}): CodemodeTool {
  const description =
    given ??
    options.description ??
    buildToolDescription({
      connectors,
      inlineTypes: options.inlineTypes,
      ...(fetchOrigins === undefined ? {} : { fetchOrigins }),
      ...(modules === undefined ? {} : { modules }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    });
  return tool({
    description,
    inputSchema,
    execute: ({ code }, { abortSignal, messages, context, toolCallId }) => {
      // A provider registered after the runtime was made: later calls read the AI SDK's settings.
      if (tracing) watchAiTelemetry();
      const executeOptions: ExecuteOptions = { messages, context, toolCallId };
      if (abortSignal !== undefined) executeOptions.abortSignal = abortSignal;
      // The scope comes from the tool's options only, never from the model's input.
      const input = options.scope === undefined ? { code } : { code, scope: options.scope };
      const progress = options.progress;
      const run = async (runOptions: ExecuteOptions) =>
        jsonSafeCodemodeOutput(await runtime.execute(input, runOptions));
      if (progress === undefined) return run(executeOptions);
      return streamWithProgress({ run: (onProgress) => run({ ...executeOptions, onProgress }), options: progress });
    },
    // The final output only (the SDK never passes a preliminary one); a snapshot would be a bug upstream.
    toModelOutput: ({ output }) => ({
      type: "json",
      value: isCodemodeProgress(output)
        ? { status: "error", error: "The program's final output is missing." }
        : codemodeModelOutput(output, maxOutputChars === undefined ? {} : { maxOutputChars }),
    }),
  });
}
