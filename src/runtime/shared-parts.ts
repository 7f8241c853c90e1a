/**
 * What every runtime module shares: the resolved options, the store of this runtime name, the executor,
 * the journaled connectors and the catalog. This is the one place the built-in outbound connector joins
 * the journaled connectors: it is never a namespace (the model sees it as the global `fetch`).
 */
import type { CatalogModule } from "../connectors/search/catalog.js";
import type { ResolvedModules } from "./modules-option.js";
import { OUTBOUND_CONNECTOR, outboundFetchConnector, outboundFetchEntry } from "../connectors/outbound-fetch.js";
import type { Connector } from "../connectors/types.js";
import { QuickJSExecutor } from "../sandbox/quickjs-executor.js";
import type { Executor } from "../sandbox/types.js";
import { createCatalogCache, type CatalogCache } from "../connectors/search/catalog-cache.js";
import { createCatalogSearch, type CatalogSearch } from "../connectors/search/catalog-search.js";
import type { HookOwner } from "./pass/lifecycle-hooks.js";
import type { ResolvedRuntimeOptions } from "./durable-runtime-options.js";
import { createLibsqlJournalStore } from "./store/libsql-journal-store.js";
import type { JournalStore } from "./journal/journal-store.js";
import { openStore } from "./store/connection/open-store.js";
import type { RuntimeTracing } from "./tracing/start-spans.js";
import type { ExecutionBudgets } from "./journal/budget-record.js";
import { runtimeBudgets } from "./execution-budgets.js";

/** The outbound connector and its journal name, when the `outbound` option is set. */
interface OutboundBinding {
  name: string;
  connector: Connector;
}

/** Shared state of one runtime handle. */
export interface RuntimeCore {
  options: ResolvedRuntimeOptions;
  store: JournalStore;
  executor: Executor;
  /** Whether the runtime created (and so disposes) the executor. */
  ownsExecutor: boolean;
  /** Every journaled connector: the namespaces plus the outbound connector. */
  connectors: Record<string, Connector>;
  /** The outbound connector (bound as the global `fetch`), if any. */
  outbound: OutboundBinding | undefined;
  /** Whose lifecycle hooks run, and how long each may take. */
  hooks: HookOwner;
  /** A catalog over the namespaces and these snippets (cached per snippet set). */
  catalog: CatalogCache;
  /** Searches a catalog: lexical, or blended with vector similarity when an embedding model is configured. */
  search: CatalogSearch;
  /** Whether and how passes, rejections and rollbacks are traced. */
  tracing: RuntimeTracing;
  /** The budgets a new execution starts with (journaled with it; `execution-budgets.ts`). */
  budgets: ExecutionBudgets;
}

/** The libSQL journal of the `store` option (no I/O: the connection opens at the first statement). */
function openJournalStore(options: ResolvedRuntimeOptions): JournalStore {
  const opened = openStore(options.store);
  return createLibsqlJournalStore({ ...opened, runtime: options.name, now: options.now });
}

/**
 * Opens the store and builds the shared state. `seams.store` replaces the libSQL store of the `store` option
 * (the runtime's tests run on an in-memory one, `test/support/memory-journal-store.ts`).
 */
/** The modules as search and describe show them: names and declarations, never sources. */
function catalogModules(modules: ResolvedModules): CatalogModule[] {
  return Object.keys(modules.sources).map((specifier) => {
    const types = modules.types.get(specifier);
    return types === undefined ? { specifier } : { specifier, types };
  });
}

export function createRuntimeCore(options: ResolvedRuntimeOptions, seams: { store?: JournalStore } = {}): RuntimeCore {
  const store = seams.store ?? openJournalStore(options);
  const outbound =
    options.outbound === undefined
      ? undefined
      : { name: OUTBOUND_CONNECTOR, connector: outboundFetchConnector(options.outbound) };
  const connectors =
    outbound === undefined ? options.connectors : { ...options.connectors, [outbound.name]: outbound.connector };
  const globals = options.outbound === undefined ? [] : [outboundFetchEntry(options.outbound.allow)];
  return {
    options,
    store,
    executor: options.executor ?? new QuickJSExecutor(options.limits),
    ownsExecutor: options.executor === undefined,
    connectors,
    outbound,
    hooks: { connectors, hookTimeoutMs: options.hookTimeoutMs },
    catalog: createCatalogCache(options.connectors, globals, catalogModules(options.modules)),
    search: createCatalogSearch({ embedder: options.embedder, store }),
    tracing: {
      enabled: options.tracing,
      runtimeName: options.name,
      recording: options.traceRecording,
      shown: options.outbound?.traceParams ?? new Set(),
    },
    budgets: runtimeBudgets(options.budgets, connectors),
  };
}
