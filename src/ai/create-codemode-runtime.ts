/**
 * `createCodemodeRuntime(options)`: the durable runtime plus `tool()`, which
 * makes the AI SDK `codemode` tool for it.
 */
import { describeAllowedOrigins, resolveOutboundFetchOptions } from "../connectors/outbound-fetch.js";
import { resolveConnector } from "../connectors/resolve-connector.js";
import type { Connector } from "../connectors/types.js";
import { createDurableRuntime, type DurableRuntime } from "../runtime/durable-runtime.js";
import type { DurableRuntimeOptions } from "../runtime/runtime-options.js";
import {
  buildCodemodeTool, resolveCodemodeToolOptions, type CodemodeTool, type CodemodeToolOptions,
} from "./build-codemode-tool.js";

/** Options of `createCodemodeRuntime` (SPEC §3.1). */
export type CodemodeRuntimeOptions = DurableRuntimeOptions;

/** The runtime handle: every durable-runtime method plus `tool()`. */
export interface CodemodeRuntime extends DurableRuntime {
  /**
   * The AI SDK `codemode` tool for this runtime: input `{ code }`, a
   * description naming every namespace, `execute` running the program as a
   * durable execution. Put it under the key `codemode` (the UI part is then
   * `tool-codemode`).
   */
  tool(options?: CodemodeToolOptions): CodemodeTool;
}

/** The connectors the sandbox exposes, by global name (for the description). */
function describedConnectors(options: CodemodeRuntimeOptions): Record<string, Connector> {
  const connectors: Record<string, Connector> = {};
  for (const [name, value] of Object.entries(options.connectors ?? {})) connectors[name] = resolveConnector(name, value);
  if (options.tools !== undefined) connectors["tools"] = resolveConnector("tools", options.tools);
  return connectors;
}

/**
 * Creates a durable Code Mode runtime. Options are validated here: a bad
 * option throws `InvalidOptionError` naming its path. Nothing is kept in
 * memory between invocations: a paused execution can be approved from
 * another process with the same `store` and `name`.
 *
 * @example
 * const runtime = createCodemodeRuntime({
 *   connectors: { github: githubTools, stripe: await stripeMcp.tools() },
 *   store: process.env.TURSO_DATABASE_URL,
 * });
 * const result = streamText({ model, tools: { codemode: runtime.tool() }, prompt });
 * // later, in another request:
 * const out = await runtime.approve({ executionId });
 */
export function createCodemodeRuntime(options: CodemodeRuntimeOptions = {}): CodemodeRuntime {
  const runtime = createDurableRuntime(options);
  const connectors = describedConnectors(options);
  // Already validated by createDurableRuntime; re-read here only for the origins the description names.
  const fetchOrigins = options.outbound === undefined
    ? undefined
    : describeAllowedOrigins(resolveOutboundFetchOptions(options.outbound, "outbound", 0).allow);
  return {
    ...runtime,
    tool: (toolOptions) => buildCodemodeTool({ runtime, connectors, options: resolveCodemodeToolOptions(toolOptions), fetchOrigins }),
  };
}
