/**
 * What every runtime module shares: resolved options, the store of this
 * runtime name, the catalog, and running a pass over a loaded execution.
 */
import { createCatalog, type Catalog } from "../connectors/catalog.js";
import { OUTBOUND_CONNECTOR, outboundFetchEntry } from "../connectors/outbound-fetch.js";
import type { Connector } from "../connectors/types.js";
import { PassContext } from "./pass-context.js";
import { runPass } from "./run-pass.js";
import type { ResolvedRuntimeOptions } from "./runtime-options.js";
import { createJournalStore, type JournalStore } from "./store/journal-store.js";
import { openStore, type OpenedStore } from "./store/open-store.js";
import type { CallJournalRecord, ExecutionRecord, SnippetRecord } from "./store/records.js";
import { StoreConfigurationError } from "./store/store-configuration-error.js";
import type { CodeModeOutput, ExecuteOptions, FailureKind } from "./types.js";
import { messageOf } from "./error-message.js";

/** Shared state of one runtime handle. */
export interface RuntimeCore {
  options: ResolvedRuntimeOptions;
  opened: OpenedStore;
  store: JournalStore;
  /** A catalog over the configured connectors and these snippets (cached per snippet set). */
  catalog(snippets: SnippetRecord[]): Catalog;
}

/** Opens the store and builds the shared state. */
export function createRuntimeCore(options: ResolvedRuntimeOptions): RuntimeCore {
  const opened = openStore(options.store);
  const store = createJournalStore({ client: opened.client, runtime: options.name, local: opened.local, now: options.now });
  let cached: { key: string; catalog: Catalog } | undefined;
  // The outbound connector is the global `fetch` for the model, not a namespace.
  const { outbound } = options;
  const described: Record<string, Connector> = { ...options.connectors };
  if (outbound !== undefined) delete described[OUTBOUND_CONNECTOR];
  const globals = outbound === undefined ? [] : [outboundFetchEntry(outbound.allow)];
  return {
    options,
    opened,
    store,
    catalog(snippets) {
      const key = JSON.stringify(snippets);
      if (cached?.key !== key) {
        cached = {
          key,
          catalog: createCatalog({
            connectors: described,
            globals,
            snippets: snippets.map((snippet) => ({
              name: snippet.name,
              code: snippet.code,
              connectors: snippet.connectors,
              ...(snippet.description === undefined ? {} : { description: snippet.description }),
              ...(snippet.inputSchemaText === undefined ? {} : { inputSchema: JSON.parse(snippet.inputSchemaText) as unknown }),
            })),
          }),
        };
      }
      return cached.catalog;
    },
  };
}

/** A failure as a `CodeModeOutput`. */
export function failure(executionId: string, kind: FailureKind, error: string): CodeModeOutput {
  return { status: "error", executionId, error, kind };
}

/** A store failure outside a pass: nothing was written by the failed step. */
export function storeFailure(executionId: string, error: unknown): CodeModeOutput {
  // A store that cannot work as configured: its message says what to fix; retrying changes nothing.
  if (StoreConfigurationError.isInstance(error)) return failure(executionId, "store", error.message);
  return failure(executionId, "store", `The journal database failed (${messageOf(error)}); nothing was changed by this request. Try again later.`);
}

/** Runs one pass of a claimed execution and presents its outcome (applying `transformResult`). */
export async function runClaimedPass(
  core: RuntimeCore,
  { execution, calls, snippets, leaseToken, options }: {
    execution: ExecutionRecord; calls: CallJournalRecord[]; snippets: SnippetRecord[]; leaseToken: string; options: ExecuteOptions;
  },
): Promise<CodeModeOutput> {
  const catalog = core.catalog(snippets);
  const pass = new PassContext({
    deps: {
      store: core.store,
      executor: core.options.executor,
      connectors: core.options.connectors,
      snippets,
      now: core.options.now,
      leaseMs: core.options.leaseMs,
      inflightGraceMs: core.options.inflightGraceMs,
      hookTimeoutMs: core.options.hookTimeoutMs,
      search: (query) => catalog.search(query),
      describe: (target) => catalog.describe(target),
    },
    execution,
    calls,
    leaseToken,
    options,
  });
  const outcome = await runPass(pass);
  if (outcome.status !== "completed") {
    if (outcome.status === "error" && outcome.logs !== undefined && outcome.logs.length === 0) delete outcome.logs;
    return outcome;
  }
  const output: CodeModeOutput = { status: "completed", executionId: outcome.executionId, result: outcome.result };
  if (outcome.logs.length > 0) output.logs = outcome.logs;
  const transform = core.options.transformResult;
  if (transform === undefined) return output;
  try {
    output.result = await transform(outcome.result, { executionId: outcome.executionId, journaled: outcome.journaled });
  } catch (error) {
    return failure(outcome.executionId, "exception", `transformResult threw: ${messageOf(error)}. The run itself completed and is journaled.`);
  }
  return output;
}
