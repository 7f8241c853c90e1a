/**
 * `codemodeTool(options)`: the one-line drop-in, `createCodemodeRuntime(options).tool()`.
 */
import type { CodemodeTool, CodemodeToolOptions } from "./build-codemode-tool.js";
import { createCodemodeRuntime, type CodemodeRuntimeOptions } from "./create-codemode-runtime.js";

/** Options of `codemodeTool`: the runtime options plus the tool options. */
export type CodemodeToolFactoryOptions = CodemodeRuntimeOptions & CodemodeToolOptions;

/**
 * The AI SDK `codemode` tool over a durable runtime made from `options`
 * (`tools` becomes the global `tools` in the sandbox). Use
 * `createCodemodeRuntime` instead when you need the handle (approvals,
 * history, snippets).
 *
 * Safe to build per request without closing anything: construction does no
 * I/O (the store opens at the first run, on the process's one connection for
 * that URL), and the output is plain JSON for UI message streams.
 *
 * @example
 * const result = streamText({
 *   model: openai("gpt-5"),
 *   tools: { codemode: codemodeTool({ tools: myToolSet }) },
 *   prompt,
 * });
 */
export function codemodeTool(options: CodemodeToolFactoryOptions = {}): CodemodeTool {
  const { inlineTypes, instructions, description, progress, scope, ...runtimeOptions } = options;
  const toolOptions: CodemodeToolOptions = {};
  if (inlineTypes !== undefined) toolOptions.inlineTypes = inlineTypes;
  if (instructions !== undefined) toolOptions.instructions = instructions;
  if (description !== undefined) toolOptions.description = description;
  if (progress !== undefined) toolOptions.progress = progress;
  if (scope !== undefined) toolOptions.scope = scope;
  return createCodemodeRuntime(runtimeOptions).tool(toolOptions);
}
