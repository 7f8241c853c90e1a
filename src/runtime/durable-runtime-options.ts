/**
 * The options of `createDurableRuntime`, declared once (type, checks, defaults and docs from one table) and
 * resolved into a fully populated object. Bad options throw
 * `InvalidOptionError` naming the option path; nothing else here throws.
 */
import type { ApproveProgramOption } from "./program-approval.js";
import type { ToolSet } from "ai";
import {
  OUTBOUND_CONNECTOR,
  resolveOutboundFetchOptions,
  type OutboundFetchOptions,
  type ResolvedOutboundFetchOptions,
} from "../connectors/outbound-fetch.js";
import { resolveConnector } from "../connectors/resolve-connector.js";
import type { Connector } from "../connectors/types.js";
import { InvalidOptionError } from "../errors.js";
import type { ResolvedExecutorOptions } from "../sandbox/executor-options.js";
import type { Executor } from "../sandbox/types.js";
import {
  declareOptions,
  option,
  type OptionField,
  type OptionsOf,
  type ResolvedOf,
} from "../shared/options/declare-options.js";
import {
  booleanOption,
  functionOption,
  integerOption,
  optionalIntegerOption,
} from "../shared/options/option-checks.js";
import { isRecord } from "../shared/is-record.js";
import {
  readLimits,
  refuseIgnoredLimits,
  type ReadLimits,
  type ResolvedBudgetLimits,
  type RuntimeLimits,
} from "./limits-option.js";
import { resolveModules, type ModulesOption, type ResolvedModules } from "./modules-option.js";
import { MAX_JOURNAL_VALUE_CHARS } from "./journal/journal-values.js";
import {
  readMaxExecutions,
  resolveRetention,
  type CodemodeRetentionOptions,
  type ResolvedRetention,
} from "./retention-options.js";
import {
  defaultStoreOptions,
  isLibsqlClient,
  type ResolvedStoreOption,
  type StoreOption,
} from "./store/connection/open-store.js";
import type { SearchEmbedder } from "../connectors/search/catalog-search.js";
import type { TraceRecording } from "./tracing/trace-record.js";

/** Default `name`: the history used when none is given. */
const DEFAULT_RUNTIME_NAME = "default";
/**
 * How long a pass holds an execution without writing before it is presumed dead
 * (and `expirePaused` may end it). Renewed by the pass's own journal writes.
 */
export const DEFAULT_LEASE_MS = 5 * 60_000;
/**
 * After a failed run (timeout, abort, fatal failure), how long the pass waits for
 * connector calls still in flight (their abort signal has fired) to record their
 * outcome before it ends anyway: short, so `execute()` resolves soon after the
 * program's deadline. A call still running then is recorded `error` (its outcome
 * unknown) and the execution ends; nothing re-runs it.
 */
const DEFAULT_INFLIGHT_GRACE_MS = 1_000;

/** How long the runtime waits for one lifecycle hook before leaving it behind. */
const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
/** Default age after which `expirePaused` rejects a paused execution. */
export const DEFAULT_PAUSED_MAX_AGE_MS = 24 * 60 * 60_000;

/** What `transformResult` learns about the result it may shrink. */
interface TransformResultInfo {
  executionId: string;
  /** Whether the original result was journaled (false: too large, a "not journaled" marker was kept). */
  journaled: boolean;
}

/** Test seams: clock, id generation, lease length, environment. */
const INTERNAL_OPTIONS = declareOptions({
  /** Clock in ms since epoch. @default Date.now */
  now: option<() => number>((value, path) => functionOption<() => number>("() => ms").read(value, path) ?? Date.now),
  /** Execution and lease ids. @default crypto.randomUUID */
  generateId: option<() => string>(
    (value, path) => functionOption<() => string>("() => id").read(value, path) ?? (() => crypto.randomUUID()),
  ),
  leaseMs: integerOption(DEFAULT_LEASE_MS),
  inflightGraceMs: integerOption(DEFAULT_INFLIGHT_GRACE_MS),
  hookTimeoutMs: integerOption(DEFAULT_HOOK_TIMEOUT_MS),
  env: option<Record<string, string | undefined>>((value, path) => {
    if (value === undefined) return process.env;
    if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be an object of strings" });
    return value as Record<string, string | undefined>;
  }),
});

/** An option resolved with others it depends on (in {@link resolveRuntimeOptions}); its field passes it on. */
function dependentOption<Input>(): OptionField<Input, unknown> {
  return option<Input, unknown>((value) => value);
}

/** An option `createCodemodeRuntime` resolves (it needs `ai`) and takes out before these are read. */
function aiLayerOption(): OptionField<unknown, undefined> {
  return option<unknown, undefined>((value, path) => {
    if (value !== undefined) throw new InvalidOptionError({ path, message: "is resolved by createCodemodeRuntime" });
    return undefined;
  });
}

/** The options of the durable runtime, declared once: each field's check, default and docs. */
const RUNTIME_OPTIONS = declareOptions({
  /** Connector namespaces: an AI SDK `ToolSet` (tools, MCP tools) or a hand-written `Connector`. */
  connectors: dependentOption<Record<string, ToolSet | Connector>>(),
  /** A tool set exposed as the global `tools`. */
  tools: dependentOption<ToolSet>(),
  /**
   * Where the journal lives: a URL, an `@libsql/client` Client, or `{ url, authToken }`. `file:`, `http(s):` and
   * `libsql:` URLs open on the package's own drivers; `ws:`/`wss:` URLs and URLs with parameters need
   * `@libsql/client` (an optional peer: `npm install @libsql/client`).
   * @default CODEMODE_DATABASE_URL, else TURSO_DATABASE_URL + TURSO_AUTH_TOKEN, else "file:.codemode/codemode.db"
   */
  store: dependentOption<StoreOption>(),
  /** Runs programs; it keeps its own budgets (`new QuickJSExecutor({ timeoutMs })`). @default new QuickJSExecutor(limits) */
  executor: option<Executor, Executor | undefined>((value, path) => {
    if (value !== undefined && (!isRecord(value) || typeof value["run"] !== "function"))
      throw new InvalidOptionError({ path, message: "must implement run(request) and dispose()" });
    return value as Executor | undefined;
  }),
  /** Names a separate history in the same database. @default "default" */
  name: option<string>((value, path) => {
    if (value === undefined) return DEFAULT_RUNTIME_NAME;
    if (typeof value !== "string" || value === "")
      throw new InvalidOptionError({ path, message: "must be a non-empty string" });
    return value;
  }),
  /**
   * Ended executions kept per owner (each `scope`, and the executions without one): a run start prunes its owner's
   * older ones, once they are older than `retention.minAgeMs`. Running and paused executions are never pruned.
   * `Infinity` keeps any number (then only `retention.maxAgeMs` prunes).
   * @default 50
   */
  maxExecutions: option<number>(readMaxExecutions),
  /**
   * How long ended executions stay: `maxAgeMs` prunes by age, `minAgeMs` is the grace no prune cuts into.
   * @default { minAgeMs: 86_400_000 } (24 hours; no age limit)
   */
  retention: option<CodemodeRetentionOptions, unknown>((value) => value),
  /** Shrinks a completed result for the model; the journal keeps the original when it fits. */
  transformResult: functionOption<(result: unknown, info: TransformResultInfo) => unknown>("(result, info) => value"),
  /**
   * Budgets: the default executor's per run (`timeoutMs`, `memoryLimitBytes`, …; refused beside `executor`, which
   * takes them itself) and the runtime's per execution (`maxCalls`, `maxCost`; always applied).
   */
  limits: option<RuntimeLimits, ReadLimits>(readLimits),
  /**
   * The model's share of a codemode result, in characters: a longer result (its JSON),
   * error or logs are cut for the model with a marker saying how to return less. The tool
   * output and the journal keep the full value.
   * @default 20_000 (applied where the model's view is built)
   */
  maxOutputChars: optionalIntegerOption(),
  /**
   * Opt-in outbound network: programs get a global `fetch` that calls this host-side
   * `fetch`, journaled like a connector call, limited to `allow` (origins). Without
   * it programs have no `fetch` and no network at all.
   */
  outbound: dependentOption<OutboundFetchOptions>(),
  /** Resolved by `createCodemodeRuntime` (its embedding model needs `ai`); documented there. */
  search: aiLayerOption(),
  /** Resolved by `createCodemodeRuntime` (the AI SDK's statuses); documented there. */
  toolApproval: aiLayerOption(),
  /**
   * Ask a human before a program runs at all: `true` for every program, or a function deciding per program.
   * When it says yes the execution pauses before its first pass with one pending item for the whole program
   * (connector `codemode`, method `program`, arguments `{ code }`); approving it runs the program (its calls
   * follow their own approval policies), rejecting it ends the execution `rejected` with nothing run.
   * @default false
   */
  approveProgram: option<ApproveProgramOption>((value, path) => {
    if (value === undefined) return false;
    if (typeof value !== "boolean" && typeof value !== "function")
      throw new InvalidOptionError({
        path,
        message: "must be true, false or a function (code) => boolean | Promise<boolean>",
      });
    return value as ApproveProgramOption;
  }),
  /**
   * OpenTelemetry spans for every pass and every connector call, `codemode.step`, outbound `fetch`, `search` and
   * `describe`, nested under the active span (with `@ai-sdk/otel`, the AI SDK's tool-call span), one trace per
   * execution across invocations. Only when the app registered a tracer provider (`@opentelemetry/api`, an
   * optional peer dependency, is loaded then and not before); arguments and results only when the AI SDK call's
   * telemetry records inputs and outputs. `false` turns every span off.
   * @default true
   */
  tracing: booleanOption(true),
  /**
   * ES modules programs may import (`import { groupBy } from "lodash-es"` or `await import("lodash-es")`): specifier →
   * module source text (bundle npm packages with esbuild), or `{ source, types }` with a TypeScript declaration that
   * `describe` shows. Nothing else is importable; each run gets fresh instances; the source never goes to the model.
   */
  modules: option<ModulesOption, ResolvedModules>((value) => resolveModules(value)),
  /** Test seams: clock, id generation, lease length, environment. */
  _internal: option<OptionsOf<typeof INTERNAL_OPTIONS.fields>, ResolvedOf<typeof INTERNAL_OPTIONS.fields>>(
    (value, path) => INTERNAL_OPTIONS.resolve(value, path),
  ),
});

/** Options of the durable runtime (the runtime part of `createCodemodeRuntime`'s options). */
export type DurableRuntimeOptions = OptionsOf<typeof RUNTIME_OPTIONS.fields>;

// The public entry takes these types from here.
export type { RuntimeLimits } from "./limits-option.js";

/** Fully resolved options: values only (the runtime core builds the executor and the outbound connector). */
export interface ResolvedRuntimeOptions {
  /** The connector namespaces (the built-in outbound connector is not one: see `outbound`). */
  connectors: Record<string, Connector>;
  /** The validated `outbound` option, if any. */
  outbound: ResolvedOutboundFetchOptions | undefined;
  store: ResolvedStoreOption;
  /** The caller's executor; undefined: the runtime creates a `QuickJSExecutor` with `limits` (and disposes it). */
  executor: Executor | undefined;
  /** The default executor's budgets, resolved. */
  limits: ResolvedExecutorOptions;
  /** The per-execution call and cost budgets a new execution starts with. */
  budgets: ResolvedBudgetLimits;
  name: string;
  /** `maxExecutions` and `retention`, resolved together. */
  retention: ResolvedRetention;
  transformResult: ((result: unknown, info: TransformResultInfo) => unknown) | undefined;
  /** `undefined`: the model view's own default (`DEFAULT_MAX_OUTPUT_CHARS` in `src/ai/`). */
  maxOutputChars: number | undefined;
  approveProgram: ApproveProgramOption;
  now: () => number;
  generateId: () => string;
  leaseMs: number;
  inflightGraceMs: number;
  hookTimeoutMs: number;
  /** Embeds search texts (from `search.embeddingModel`, resolved in `src/ai`); undefined: lexical search only. */
  embedder: SearchEmbedder | undefined;
  /** Spans through `@opentelemetry/api` when a tracer provider is registered. */
  tracing: boolean;
  /** The validated `modules` (none: empty). */
  modules: ResolvedModules;
  /** What the AI SDK call around an invocation records (read in `src/ai`); undefined: nothing of the values. */
  traceRecording: (() => TraceRecording | undefined) | undefined;
}

function resolveStore(store: unknown, env: Record<string, string | undefined>): ResolvedStoreOption {
  if (store === undefined) return defaultStoreOptions(env);
  if (typeof store === "string") {
    if (store === "")
      throw new InvalidOptionError({ path: "store", message: "must be a non-empty URL (or omit it for the default)" });
    return { url: store };
  }
  if (isLibsqlClient(store)) return store;
  if (isRecord(store) && typeof store["url"] === "string" && store["url"] !== "") {
    if (store["authToken"] !== undefined && typeof store["authToken"] !== "string") {
      throw new InvalidOptionError({ path: "store.authToken", message: "must be a string" });
    }
    const timeout = store["requestTimeoutMs"];
    if (timeout !== undefined && (typeof timeout !== "number" || !Number.isSafeInteger(timeout) || timeout <= 0)) {
      throw new InvalidOptionError({ path: "store.requestTimeoutMs", message: "must be a positive integer (ms)" });
    }
    return {
      url: store["url"],
      ...(store["authToken"] === undefined ? {} : { authToken: store["authToken"] as string }),
      ...(timeout === undefined ? {} : { requestTimeoutMs: timeout }),
    };
  }
  throw new InvalidOptionError({
    path: "store",
    message: "must be a URL string, an @libsql/client Client, or { url, authToken, requestTimeoutMs? }",
  });
}

function resolveConnectors(options: DurableRuntimeOptions): Record<string, Connector> {
  const connectors: Record<string, Connector> = {};
  if (options.connectors !== undefined) {
    if (!isRecord(options.connectors))
      throw new InvalidOptionError({ path: "connectors", message: "must be an object of name → ToolSet or Connector" });
    for (const [name, value] of Object.entries(options.connectors)) connectors[name] = resolveConnector(name, value);
  }
  if (options.tools !== undefined) {
    if (Object.hasOwn(connectors, "tools")) {
      throw new InvalidOptionError({
        path: "tools",
        message: "conflicts with connectors.tools: both would be the global `tools`",
      });
    }
    connectors["tools"] = resolveConnector("tools", options.tools);
  }
  return connectors;
}

/** The `outbound` option validated; its connector will be journaled under the reserved name `outbound`. */
function resolveOutbound(
  options: DurableRuntimeOptions,
  connectors: Record<string, Connector>,
): ResolvedOutboundFetchOptions | undefined {
  if (options.outbound === undefined) return undefined;
  const outbound = resolveOutboundFetchOptions(options.outbound, "outbound", MAX_JOURNAL_VALUE_CHARS);
  if (Object.hasOwn(connectors, OUTBOUND_CONNECTOR)) {
    throw new InvalidOptionError({
      path: `connectors.${OUTBOUND_CONNECTOR}`,
      message: "is reserved for outbound fetch when the outbound option is set; rename the connector",
    });
  }
  if (Object.hasOwn(connectors, "fetch")) {
    throw new InvalidOptionError({
      path: "connectors.fetch",
      message: "conflicts with the outbound option: both would be the global `fetch`",
    });
  }
  return outbound;
}

/**
 * Validates the options and fills every default. `embedder` is the resolved `search.embeddingModel` (see
 * `src/ai/search-options.ts`), passed apart because only `src/ai` may turn an AI SDK model into one; so is
 * `traceRecording`, which reads the AI SDK call's telemetry settings (`src/ai/ai-telemetry-recording.ts`).
 */
export function resolveRuntimeOptions(
  options: DurableRuntimeOptions = {},
  { embedder, traceRecording }: { embedder?: SearchEmbedder; traceRecording?: () => TraceRecording | undefined } = {},
): ResolvedRuntimeOptions {
  const read = RUNTIME_OPTIONS.resolve(options, "");
  const { executor, limits, _internal: internal } = read;
  if (executor !== undefined) refuseIgnoredLimits(limits.sandboxKeys);
  const given = options as DurableRuntimeOptions;
  const connectors = resolveConnectors(given);
  const outbound = resolveOutbound(given, connectors);
  return {
    connectors,
    outbound,
    store: resolveStore(read.store, internal.env),
    executor,
    limits: limits.executor,
    budgets: limits.budgets,
    name: read.name,
    retention: resolveRetention(read.retention, read.maxExecutions),
    transformResult: read.transformResult,
    maxOutputChars: read.maxOutputChars,
    approveProgram: read.approveProgram,
    now: internal.now,
    generateId: internal.generateId,
    leaseMs: internal.leaseMs,
    inflightGraceMs: internal.inflightGraceMs,
    hookTimeoutMs: internal.hookTimeoutMs,
    embedder,
    tracing: read.tracing,
    modules: read.modules,
    traceRecording,
  };
}
