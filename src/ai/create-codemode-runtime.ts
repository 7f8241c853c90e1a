/**
 * `createCodemodeRuntime(options)`: the durable runtime plus `tool()`, which
 * makes the AI SDK `codemode` tool for it, and `toolCaller()`, the same tool as
 * an AI SDK tool caller.
 */
import type { ToolSet } from "ai";
import { describeAllowedOrigins } from "../connectors/outbound-fetch.js";
import { durableRuntimeFromResolved, type DurableRuntime } from "../runtime/durable-runtime.js";
import { isRecord } from "../shared/is-record.js";
import type { SameKeys } from "../shared/known-keys.js";
import { aiTelemetryRecording, watchAiTelemetry } from "./ai-telemetry-recording.js";
import {
  resolveRuntimeOptions,
  type AiLayerOptions,
  type DurableRuntimeOptions,
} from "../runtime/durable-runtime-options.js";
import {
  buildCodemodeTool,
  resolveCodemodeToolOptions,
  type CodemodeTool,
  type CodemodeToolOptions,
  type ResolvedCodemodeToolOptions,
} from "./build-codemode-tool.js";
import {
  assertRoutedTools,
  buildCodemodeToolCaller,
  notBoundOutput,
  type CodemodeToolCaller,
} from "./codemode-tool-caller.js";
import { resolveSearchOptions, type CodemodeSearchOptions } from "./search-options.js";
import { applyToolApproval, type CodemodeToolApproval } from "./tool-approval.js";
import { buildCallerToolDescription, buildNamespaceAnnouncement } from "./tool-description.js";

/** Options of `createCodemodeRuntime`. */
export interface CodemodeRuntimeOptions extends DurableRuntimeOptions {
  /**
   * Search options: `embeddingModel` blends vector similarity with the lexical ranking of `codemode.search`.
   * @default undefined (lexical ranking; no embedding call)
   */
  search?: CodemodeSearchOptions;
  /**
   * The AI SDK's `toolApproval` configuration (the object or function `streamText`, `generateText` and
   * `ToolLoopAgent` take), applied to the calls programs make to the global `tools`, with the SDK's precedence over
   * each tool's `needsApproval`: `"user-approval"` pauses durably, `"approved"` / `"not-applicable"` run without
   * asking, `"denied"` rejects the call inside the program without running it. A tool caller is never handed the
   * generation's own `toolApproval`: give the same object to both, so that a tool routed to both paths follows one
   * policy. Function forms get `toolsContext` and `runtimeContext` as `{}`.
   * @default undefined (each tool's own `needsApproval`)
   */
  toolApproval?: CodemodeToolApproval;
}

/**
 * The runtime's declaration knows exactly these options (it refuses `search` and `toolApproval` left in, which
 * this layer takes out): an option added here and not there fails to compile.
 */
const everyOptionListed: SameKeys<CodemodeRuntimeOptions, DurableRuntimeOptions & AiLayerOptions> = true;
void everyOptionListed;

/** The runtime handle: every durable-runtime method plus `tool()`. */
export interface CodemodeRuntime extends DurableRuntime {
  /**
   * The AI SDK `codemode` tool for this runtime: input `{ code }`, a
   * description naming every namespace, `execute` running the program as a
   * durable execution. Put it under the key `codemode` (the UI part is then
   * `tool-codemode`).
   */
  tool(options?: CodemodeToolOptions): CodemodeTool;
  /**
   * The same tool as an AI SDK local tool caller (`experimental_toolCaller`): put it next to the tools it may call,
   * name it in `experimental_toolCallers`, and the model sees one definition that never changes (the namespaces are
   * announced in a message). The tools routed to it must be exactly this runtime's `tools`, the same objects (else
   * the first step throws `InvalidOptionError` naming `experimental_toolCallers`): they are what `approve` replays
   * with, in any process.
   *
   * @example
   * const routed = { getWeather, transfer };
   * const runtime = createCodemodeRuntime({ tools: routed });
   * streamText({ model, tools: { ...routed, codemode: runtime.toolCaller() },
   *   experimental_toolCallers: { getWeather: ["codemode"], transfer: ["codemode"] }, prompt });
   */
  toolCaller(options?: CodemodeToolOptions): CodemodeToolCaller;
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
  // `toolApproval` wraps the global `tools` here (its statuses are the AI SDK's).
  const { search, toolApproval, ...runtimeOptions }: CodemodeRuntimeOptions = isRecord(options) ? options : {};
  const embedder = resolveSearchOptions(search);
  const tools = runtimeOptions.tools;
  if (toolApproval !== undefined) {
    const applied = applyToolApproval(isRecord(tools) ? (tools as ToolSet) : {}, toolApproval);
    if (tools !== undefined) runtimeOptions.tools = applied;
  }
  const resolved = resolveRuntimeOptions(isRecord(options) ? runtimeOptions : options, {
    ...(embedder === undefined ? {} : { embedder }),
    traceRecording: aiTelemetryRecording,
  });
  if (resolved.tracing) watchAiTelemetry();
  const runtime = durableRuntimeFromResolved(resolved);
  // The namespaces; the outbound connector is never one (it is described as the global `fetch`).
  const { connectors } = resolved;
  const fetchOrigins = resolved.outbound === undefined ? undefined : describeAllowedOrigins(resolved.outbound.allow);
  const build = (toolOptions: ResolvedCodemodeToolOptions, description?: string) =>
    buildCodemodeTool({
      runtime,
      connectors,
      options: toolOptions,
      fetchOrigins,
      modules: Object.keys(resolved.modules.sources),
      maxOutputChars: resolved.maxOutputChars,
      tracing: resolved.tracing,
      ...(description === undefined ? {} : { description }),
    });
  return {
    ...runtime,
    tool: (toolOptions) => build(resolveCodemodeToolOptions(toolOptions)),
    toolCaller: (toolOptions) => {
      const resolvedTool = resolveCodemodeToolOptions(toolOptions);
      const description =
        resolvedTool.description ??
        buildCallerToolDescription({
          ...(fetchOrigins === undefined ? {} : { fetchOrigins }),
          ...(resolvedTool.instructions === undefined ? {} : { instructions: resolvedTool.instructions }),
        });
      const bound = build(resolvedTool, description);
      const unbound = buildCodemodeTool({
        runtime: { execute: async () => notBoundOutput() },
        connectors,
        options: { ...resolvedTool, progress: undefined },
        description,
      });
      const announcement = () => buildNamespaceAnnouncement({ connectors, inlineTypes: resolvedTool.inlineTypes });
      return buildCodemodeToolCaller({
        unbound,
        bindingFor: (routed: ToolSet) => {
          assertRoutedTools({ routed, tools: isRecord(tools) ? (tools as ToolSet) : {} });
          return { tool: bound, announcement };
        },
      });
    },
  };
}
