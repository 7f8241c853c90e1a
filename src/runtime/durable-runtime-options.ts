/**
 * The options of the durable runtime: the interface users read, the checks and defaults declared against it, and
 * their resolution into a fully populated object. Bad options throw
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
import { declareOptions, option, type OptionField, type ResolvedOf } from "../shared/options/declare-options.js";
import {
  booleanOption,
  functionOption,
  integerOption,
  optionalIntegerOption,
} from "../shared/options/option-checks.js";
import { isRecord } from "../shared/is-record.js";
import { readLimits, refuseIgnoredLimits, type ResolvedBudgetLimits, type RuntimeLimits } from "./limits-option.js";
import { resolveModules, type ModulesOption } from "./modules-option.js";
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
interface RuntimeTestSeams {
  /** Clock in ms since epoch. @default Date.now */
  now?: () => number;
  /** Execution and lease ids. @default crypto.randomUUID */
  generateId?: () => string;
  /** @default DEFAULT_LEASE_MS */
  leaseMs?: number;
  /** @default DEFAULT_INFLIGHT_GRACE_MS */
  inflightGraceMs?: number;
  /** @default DEFAULT_HOOK_TIMEOUT_MS */
  hookTimeoutMs?: number;
  /** @default process.env */
  env?: Record<string, string | undefined>;
}

const TEST_SEAMS = declareOptions<RuntimeTestSeams>()({
  now: option((value, path) => functionOption<() => number>("() => ms").read(value, path) ?? Date.now),
  generateId: option(
    (value, path) => functionOption<() => string>("() => id").read(value, path) ?? (() => crypto.randomUUID()),
  ),
  leaseMs: integerOption(DEFAULT_LEASE_MS),
  inflightGraceMs: integerOption(DEFAULT_INFLIGHT_GRACE_MS),
  hookTimeoutMs: integerOption(DEFAULT_HOOK_TIMEOUT_MS),
  env: option((value, path) => {
    if (value === undefined) return process.env;
    if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be an object of strings" });
    return value as Record<string, string | undefined>;
  }),
});

/** An option resolved with others it depends on (in {@link resolveRuntimeOptions}); its field passes it on. */
function dependentOption(): OptionField<unknown> {
  return option((value) => value);
}

/** An option `createCodemodeRuntime` resolves (it needs `ai`) and takes out before these are read. */
function aiLayerOption(): OptionField<undefined> {
  return option((value, path) => {
    if (value !== undefined) throw new InvalidOptionError({ path, message: "is resolved by createCodemodeRuntime" });
    return undefined;
  });
}

/** Options of the durable runtime (the runtime part of `createCodemodeRuntime`'s options). */
export interface DurableRuntimeOptions {
  /** Connector namespaces: name → an AI SDK `ToolSet` (tools, MCP tools) or a hand-written `Connector`. */
  connectors?: Record<string, ToolSet | Connector>;
  /** A tool set exposed to programs as the global `tools`. */
  tools?: ToolSet;
  /**
   * Where the journal lives: a URL, an `@libsql/client` Client, or `{ url, authToken }`. `file:`, `http(s):` and
   * `libsql:` URLs open on the package's own drivers; `ws:`/`wss:` URLs and URLs with parameters need
   * `@libsql/client` (an optional peer: `npm install @libsql/client`).
   * @default CODEMODE_DATABASE_URL, else TURSO_DATABASE_URL + TURSO_AUTH_TOKEN, else "file:.codemode/codemode.db"
   */
  store?: StoreOption;
  /**
   * Runs programs; it keeps its own budgets (`new QuickJSExecutor({ timeoutMs })`).
   * @default new QuickJSExecutor(limits)
   */
  executor?: Executor;
  /**
   * Names a separate history in the same database.
   * @default "default"
   */
  name?: string;
  /**
   * Ended executions kept per owner (each `scope`, and the executions without one): a run start prunes its owner's
   * older ones, once they are older than `retention.minAgeMs`. Running and paused executions are never pruned.
   * `Infinity` keeps any number (then only `retention.maxAgeMs` prunes).
   * @default 50
   */
  maxExecutions?: number;
  /**
   * How long ended executions stay: `maxAgeMs` prunes by age, `minAgeMs` is the grace no prune cuts into.
   * @default { minAgeMs: 86_400_000 } (24 hours; no age limit)
   */
  retention?: CodemodeRetentionOptions;
  /**
   * Shrinks a completed result for the model; the journal keeps the original when it fits.
   * @default undefined (the result as it is)
   */
  transformResult?: (result: unknown, info: TransformResultInfo) => unknown;
  /**
   * Budgets: the default executor's per run (`timeoutMs`, `memoryLimitBytes`, …; refused beside `executor`, which
   * takes them itself) and the runtime's per execution (`maxCalls`, `maxCost`; always applied).
   * @default the defaults of each budget
   */
  limits?: RuntimeLimits;
  /**
   * The model's share of a codemode result, in characters: a longer result (its JSON),
   * error or logs are cut for the model with a marker saying how to return less. The tool
   * output and the journal keep the full value.
   * @default 20_000 (applied where the model's view is built)
   */
  maxOutputChars?: number;
  /**
   * Opt-in outbound network: programs get a global `fetch` that calls this host-side
   * `fetch`, journaled like a connector call, limited to `allow` (origins). Without
   * it programs have no `fetch` and no network at all.
   * @default undefined (no network)
   */
  outbound?: OutboundFetchOptions;
  /**
   * Ask a human before a program runs at all: `true` for every program, or a function deciding per program.
   * When it says yes the execution pauses before its first pass with one pending item for the whole program
   * (connector `codemode`, method `program`, arguments `{ code }`); approving it runs the program (its calls
   * follow their own approval policies), rejecting it ends the execution `rejected` with nothing run.
   * @default false
   */
  approveProgram?: ApproveProgramOption;
  /**
   * OpenTelemetry spans for every pass and every connector call, `codemode.step`, outbound `fetch`, `search` and
   * `describe`, nested under the active span (with `@ai-sdk/otel`, the AI SDK's tool-call span), one trace per
   * execution across invocations. Only when the app registered a tracer provider (`@opentelemetry/api`, an
   * optional peer dependency, is loaded then and not before); arguments and results only when the AI SDK call's
   * telemetry records inputs and outputs. `false` turns every span off.
   * @default true
   */
  tracing?: boolean;
  /**
   * ES modules programs may import (`import { groupBy } from "lodash-es"` or `await import("lodash-es")`): specifier →
   * module source text (bundle npm packages with esbuild), or `{ source, types }` with a TypeScript declaration that
   * `describe` shows. Nothing else is importable; each run gets fresh instances; the source never goes to the model.
   * @default {} (nothing importable)
   */
  modules?: ModulesOption;
  /**
   * Test seams (clock, ids, lease length, environment); not part of the published types.
   * @internal
   */
  _internal?: RuntimeTestSeams;
}

/**
 * The options `createCodemodeRuntime` adds (it resolves them with `ai` and takes them out before the runtime reads
 * the rest): declared here too, so one that reaches this layer is refused with a clear message.
 */
export interface AiLayerOptions {
  search?: unknown;
  toolApproval?: unknown;
}

/** How each option of the durable runtime is checked and defaulted. */
const RUNTIME_OPTIONS = declareOptions<DurableRuntimeOptions & AiLayerOptions>()({
  connectors: dependentOption(),
  tools: dependentOption(),
  store: dependentOption(),
  executor: option((value, path) => {
    if (value !== undefined && (!isRecord(value) || typeof value["run"] !== "function"))
      throw new InvalidOptionError({ path, message: "must implement run(request) and dispose()" });
    return value as Executor | undefined;
  }),
  name: option((value, path) => {
    if (value === undefined) return DEFAULT_RUNTIME_NAME;
    if (typeof value !== "string" || value === "")
      throw new InvalidOptionError({ path, message: "must be a non-empty string" });
    return value;
  }),
  maxExecutions: option(readMaxExecutions),
  retention: dependentOption(),
  transformResult: functionOption<(result: unknown, info: TransformResultInfo) => unknown>("(result, info) => value"),
  limits: option(readLimits),
  maxOutputChars: optionalIntegerOption(),
  outbound: dependentOption(),
  search: aiLayerOption(),
  toolApproval: aiLayerOption(),
  approveProgram: option((value, path): ApproveProgramOption => {
    if (value === undefined) return false;
    if (typeof value !== "boolean" && typeof value !== "function")
      throw new InvalidOptionError({
        path,
        message: "must be true, false or a function (code) => boolean | Promise<boolean>",
      });
    return value as ApproveProgramOption;
  }),
  tracing: booleanOption(true),
  modules: option((value) => resolveModules(value)),
  _internal: option((value, path) => TEST_SEAMS.resolve(value, path)),
});

// The public entry takes these types from here.
export type { RuntimeLimits } from "./limits-option.js";

/** The options as the declaration reads them (dependent ones still raw). */
type ReadRuntimeOptions = ResolvedOf<typeof RUNTIME_OPTIONS.fields>;

/**
 * Fully resolved options: values only (the runtime core builds the executor and the outbound connector). The
 * options read as they are come from the declaration; the rest are resolved together below.
 */
export type ResolvedRuntimeOptions = Pick<
  ReadRuntimeOptions,
  "executor" | "name" | "transformResult" | "maxOutputChars" | "approveProgram" | "tracing" | "modules"
> &
  Omit<ResolvedOf<typeof TEST_SEAMS.fields>, "env"> & {
    /** The connector namespaces (the built-in outbound connector is not one: see `outbound`). */
    connectors: Record<string, Connector>;
    /** The validated `outbound` option, if any. */
    outbound: ResolvedOutboundFetchOptions | undefined;
    store: ResolvedStoreOption;
    /** The default executor's budgets, resolved. */
    limits: ResolvedExecutorOptions;
    /** The per-execution call and cost budgets a new execution starts with. */
    budgets: ResolvedBudgetLimits;
    /** `maxExecutions` and `retention`, resolved together. */
    retention: ResolvedRetention;
    /** Embeds search texts (from `search.embeddingModel`, resolved in `src/ai`); undefined: lexical search only. */
    embedder: SearchEmbedder | undefined;
    /** What the AI SDK call around an invocation records (read in `src/ai`); undefined: nothing of the values. */
    traceRecording: (() => TraceRecording | undefined) | undefined;
  };

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
