/**
 * `createCodemodeRuntime(options)`: the durable runtime plus `tool()`, which
 * makes the AI SDK `codemode` tool for it.
 */
import { describeAllowedOrigins } from "../connectors/outbound-fetch.js";
import { durableRuntimeFromResolved, type DurableRuntime } from "../runtime/durable-runtime.js";
import { isRecord } from "../shared/is-record.js";
import { aiTelemetryRecording, watchAiTelemetry } from "./ai-telemetry-recording.js";
import { resolveRuntimeOptions, type DurableRuntimeOptions } from "../runtime/runtime-options.js";
import {
  buildCodemodeTool,
  resolveCodemodeToolOptions,
  type CodemodeTool,
  type CodemodeToolOptions,
} from "./build-codemode-tool.js";
import { resolveSearchOptions, type CodemodeSearchOptions } from "./search-options.js";

/** Options of `createCodemodeRuntime` (SPEC §3.1, §3.6). */
export interface CodemodeRuntimeOptions extends DurableRuntimeOptions {
  /**
   * Search options: `embeddingModel` blends vector similarity with the lexical ranking of `codemode.search`.
   * @default undefined (lexical ranking; no embedding call)
   */
  search?: CodemodeSearchOptions;
}

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

/**
 * Creates a durable Code Mode runtime. Options are validated here: a bad
 * option throws `InvalidOptionError` naming its path. Nothing is kept in
 * memory between invocations: a paused execution can be approved from
 * another process with the same `store` and `name`.
 *
 * @example
 * const runtime = createCodemodeRuntime({
 *   connectors: { github: githubTools, stripe: await stripeMcp.tools() },
 *   // store omitted: TURSO_DATABASE_URL + TURSO_AUTH_TOKEN, else file:.codemode/codemode.db
 * });
 * const result = streamText({ model, tools: { codemode: runtime.tool() }, prompt });
 * // later, in another request:
 * const out = await runtime.approve({ executionId });
 */
export function createCodemodeRuntime(options: CodemodeRuntimeOptions = {}): CodemodeRuntime {
  // Resolved once: the runtime and the tool description share the same connectors.
  // `search` is resolved here (its model needs `ai`); options that are not an object are refused by
  // resolveRuntimeOptions.
  const { search, ...runtimeOptions }: CodemodeRuntimeOptions = isRecord(options) ? options : {};
  const embedder = resolveSearchOptions(search);
  const resolved = resolveRuntimeOptions(isRecord(options) ? runtimeOptions : options, {
    ...(embedder === undefined ? {} : { embedder }),
    traceRecording: aiTelemetryRecording,
  });
  if (resolved.tracing) watchAiTelemetry();
  const runtime = durableRuntimeFromResolved(resolved);
  // The namespaces; the outbound connector is never one (it is described as the global `fetch`).
  const { connectors } = resolved;
  const fetchOrigins = resolved.outbound === undefined ? undefined : describeAllowedOrigins(resolved.outbound.allow);
  return {
    ...runtime,
    tool: (toolOptions) =>
      buildCodemodeTool({
        runtime,
        connectors,
        options: resolveCodemodeToolOptions(toolOptions),
        fetchOrigins,
        maxOutputChars: resolved.maxOutputChars,
        tracing: resolved.tracing,
      }),
  };
}
