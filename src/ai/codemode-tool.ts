/**
 * `codemodeTool(options)`: the one-line drop-in. Given `tools` or `connectors`, `createCodemodeRuntime(options).tool()`;
 * given neither, an AI SDK local tool caller whose routed tools become the global `tools`.
 */
import type { ToolSet } from "ai";
import type { Connector } from "../connectors/types.js";
import { CODEMODE_TOOL_OPTION_KEYS, type CodemodeTool, type CodemodeToolOptions } from "./build-codemode-tool.js";
import type { CodemodeToolCaller } from "./codemode-tool-caller.js";
import { buildCodemodeToolCaller, callerBinding } from "./codemode-tool-caller.js";
import { createCodemodeRuntime, type CodemodeRuntimeOptions } from "./create-codemode-runtime.js";

/** Options of `codemodeTool`: the runtime options plus the tool options. */
export type CodemodeToolFactoryOptions = CodemodeRuntimeOptions & CodemodeToolOptions;

/** Options of `codemodeTool` as a tool caller: everything but `tools` and `connectors` (the SDK routes the tools). */
export type CodemodeToolCallerOptions = Omit<CodemodeToolFactoryOptions, "tools" | "connectors"> & {
  tools?: undefined;
  connectors?: undefined;
};

/** `codemodeTool` options that name the namespaces (the tool is not a caller). */
export type CodemodeToolWithNamespacesOptions = CodemodeToolFactoryOptions &
  ({ tools: ToolSet } | { connectors: Record<string, ToolSet | Connector> });

function split(options: CodemodeToolFactoryOptions): {
  toolOptions: CodemodeToolOptions;
  runtimeOptions: CodemodeRuntimeOptions;
} {
  const toolOptions: Record<string, unknown> = {};
  const runtimeOptions: Record<string, unknown> = { ...options };
  for (const key of CODEMODE_TOOL_OPTION_KEYS) {
    if (options[key] !== undefined) toolOptions[key] = options[key];
    delete runtimeOptions[key];
  }
  return { toolOptions: toolOptions as CodemodeToolOptions, runtimeOptions: runtimeOptions as CodemodeRuntimeOptions };
}

/**
 * The AI SDK `codemode` tool.
 *
 * - **As a tool caller** (no `tools`, no `connectors`): put it beside your tools and route them to it with
 *   `experimental_toolCallers`; the tools routed to it are the global `tools` inside the sandbox, a tool routed only
 *   to it is hidden from the model, and its definition is the same in every request (the namespaces are announced
 *   in a message). Approve a paused run elsewhere with `createCodemodeRuntime({ tools: routed }).approve(…)` on the
 *   same store, or use `runtime.toolCaller()` to keep the handle.
 * - **With `tools` or `connectors`**: the tool over those namespaces, as `createCodemodeRuntime(options).tool()`.
 *   Use `createCodemodeRuntime` instead when you need the handle (approvals, history, snippets).
 *
 * Safe to build per request without closing anything: construction does no I/O (the store opens at the first run,
 * on the process's one connection for that URL), and the output is plain JSON for UI message streams.
 *
 * @example
 * const result = streamText({
 *   model: openai("gpt-5"),
 *   tools: { getWeather, transfer, codemode: codemodeTool() },
 *   experimental_toolCallers: { getWeather: ["codemode", "AI_SDK_DIRECT_TOOL_CALL"], transfer: ["codemode"] },
 *   prompt,
 * });
 */
export function codemodeTool(options: CodemodeToolWithNamespacesOptions): CodemodeTool;
export function codemodeTool(options?: CodemodeToolCallerOptions): CodemodeToolCaller;
export function codemodeTool(
  options: CodemodeToolFactoryOptions | CodemodeToolCallerOptions = {},
): CodemodeTool | CodemodeToolCaller {
  const { toolOptions, runtimeOptions } = split(options as CodemodeToolFactoryOptions);
  if (runtimeOptions.tools !== undefined || runtimeOptions.connectors !== undefined) {
    return createCodemodeRuntime(runtimeOptions).tool(toolOptions);
  }
  // Built once, here: every option is checked at construction (no I/O), and this runtime serves no routed tool.
  const empty = createCodemodeRuntime(runtimeOptions).toolCaller(toolOptions);
  return buildCodemodeToolCaller({
    unbound: empty,
    bindingFor: (routed) => {
      const caller =
        Object.keys(routed).length === 0
          ? empty
          : createCodemodeRuntime({ ...runtimeOptions, tools: routed }).toolCaller(toolOptions);
      return callerBinding(caller, routed);
    },
  });
}
