/**
 * The durable runtime: every handle method except `tool()`
 * (added by `createCodemodeRuntime` in `src/ai`). It composes the modules
 * beside it — passes and replay (`run-pass`), approvals, rollback, snippets,
 * retention (`housekeeping`) — over one libSQL store scoped by runtime name.
 */
import { CodemodeArgumentError } from "../errors/codemode-argument-error.js";
import { decidePending } from "./decide-pending.js";
import { notifyDecision } from "./decision-listeners.js";
import { approveExecution, rejectExecution } from "./approvals.js";
import { executionDetail, executionSummary, pendingAction, type MethodLookup } from "./execution-views.js";
import { clearHistory, deleteAllData, deleteExecution, expirePaused, pruneExecutions } from "./housekeeping.js";
import { rollbackExecution } from "./rollback.js";
import { createRuntimeCore } from "./shared-parts.js";
import type { DurableRuntime } from "./durable-runtime-handle.js";
import {
  resolveRuntimeOptions,
  type DurableRuntimeOptions,
  type ResolvedRuntimeOptions,
} from "./durable-runtime-options.js";
import { deleteSnippet, listSnippets, saveSnippet } from "./snippets.js";
import { storeOperation } from "./store-operation.js";
import { scopeProblem, visibleTo } from "./execution-request.js";
import { readCount, readId, readOptions } from "./read-arguments.js";
import { SCOPE_OPTION_KEYS, SEARCH_OPTION_KEYS } from "./request-keys.js";
import { startExecution } from "./start-execution.js";

/** The scope a listing method reads: its options checked (keys, a valid scope), or a programmer error. */
function readScope(method: string, options: unknown): string | undefined {
  const { scope } = readOptions(`${method}(…, options)`, options, SCOPE_OPTION_KEYS);
  const problem = scopeProblem(scope);
  if (problem !== undefined) throw new CodemodeArgumentError({ argument: `${method}(…, { scope })`, message: problem });
  return scope as string | undefined;
}

/** Default number of executions listed by `executions()`. */
const DEFAULT_LIST_LIMIT = 50;

export type { DurableRuntime } from "./durable-runtime-handle.js";

/**
 * Creates the durable runtime (internal: users call `createCodemodeRuntime`, which adds `tool()`). Options
 * are validated here (a bad option throws `InvalidOptionError` naming its path); the schema is migrated on first use.
 *
 * @example
 * const runtime = createDurableRuntime({ connectors: { github }, store: "file:codemode.db" });
 * const out = await runtime.execute({ code: "async () => github.list_issues({ repo: 'x' })" });
 * if (out.status === "paused") await runtime.approve({ executionId: out.executionId });
 */
export function createDurableRuntime(options: DurableRuntimeOptions = {}): DurableRuntime {
  return durableRuntimeFromResolved(resolveRuntimeOptions(options));
}

/**
 * The durable runtime over options already resolved by `resolveRuntimeOptions` (resolved once, shared with the
 * tool); `seams` as for `createRuntimeCore` (tests inject a store).
 */
export function durableRuntimeFromResolved(
  resolved: ResolvedRuntimeOptions,
  seams?: Parameters<typeof createRuntimeCore>[1],
): DurableRuntime {
  const core = createRuntimeCore(resolved, seams);
  const lookup: MethodLookup = (connector, method) =>
    Object.hasOwn(resolved.connectors, connector) && Object.hasOwn(resolved.connectors[connector]!.methods, method)
      ? resolved.connectors[connector]!.methods[method]
      : undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (core.ownsExecutor) await core.executor.dispose();
    core.store.close();
  };
  // Every decision, once settled, is told to this process's decision listeners (a workflow waiting on a hook).
  const told = async <Output extends { executionId: string }>(decided: Promise<Output>): Promise<Output> => {
    const output = await decided;
    await notifyDecision({ runtime: resolved.name, executionId: output.executionId });
    return output;
  };
  const handle: DurableRuntime = {
    name: resolved.name,
    execute: (input, executeOptions = {}) => startExecution(core, input, executeOptions),
    approve: (request, executeOptions = {}) => told(approveExecution(core, request, executeOptions)),
    reject: (request) => told(rejectExecution(core, request)),
    decide: (request, executeOptions = {}) => told(decidePending(core, request, executeOptions)),
    rollback: (request) => rollbackExecution(core, request),
    async pending(executionId, options) {
      const scope = readScope("pending", options);
      const id = executionId === undefined ? undefined : readId("pending(executionId)", executionId);
      if (executionId !== undefined && id === undefined) return [];
      const rows = await storeOperation("list pending calls", () => core.store.pending(id, scope));
      return rows.map((row) => pendingAction(row.executionId, row.call, lookup));
    },
    async executions(limit, options) {
      const scope = readScope("executions", options);
      const count = readCount("executions(limit)", limit, DEFAULT_LIST_LIMIT);
      return (await storeOperation("list executions", () => core.store.list(count, scope))).map(executionSummary);
    },
    async execution(executionId, options) {
      const scope = readScope("execution", options);
      const id = readId("execution(executionId)", executionId);
      if (id === undefined) return undefined;
      // Decoding is part of the read: a corrupt journaled value is a StoreError too.
      return storeOperation("read the execution", async () => {
        const loaded = await core.store.load(id);
        if (loaded === undefined || !visibleTo(loaded.execution.scope, scope)) return undefined;
        return executionDetail(loaded.execution, loaded.calls, lookup);
      });
    },
    deleteExecution: (executionId) => deleteExecution(core, executionId),
    pruneExecutions: (keep) => pruneExecutions(core, keep),
    clearHistory: () => clearHistory(core),
    async expirePaused(expireOptions) {
      const output = await expirePaused(core, expireOptions);
      for (const { executionId } of output.expired) await notifyDecision({ runtime: resolved.name, executionId });
      return output;
    },
    saveSnippet: (name, snippetOptions) => saveSnippet(core, name, snippetOptions),
    snippets: () => listSnippets(core),
    deleteSnippet: (name) => deleteSnippet(core, name),
    async search(query, searchOptions) {
      readOptions("search(query, options)", searchOptions, SEARCH_OPTION_KEYS);
      const snippets = await storeOperation("list snippets", () => core.store.snippets());
      return core.search(core.catalog(snippets), query, searchOptions);
    },
    async describe(target) {
      const snippets = await storeOperation("list snippets", () => core.store.snippets());
      return core.catalog(snippets).describe(target);
    },
    deleteAllData: () => deleteAllData(core),
    close,
    [Symbol.asyncDispose]: close,
  };
  return handle;
}
