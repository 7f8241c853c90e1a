/**
 * The durable runtime: every handle method of SPEC §3.1 except `tool()`
 * (added by `createCodemodeRuntime` in `src/ai`). It composes the modules
 * beside it — passes and replay (`run-pass`), approvals, rollback, snippets,
 * retention (`housekeeping`) — over one libSQL store scoped by runtime name.
 */
import { decidePending, type CallDecision } from "./decide-pending.js";
import type { DescribeOutput, SearchOutput } from "../connectors/types.js";
import { approveExecution, rejectExecution } from "./approvals.js";
import { executionDetail, executionSummary, pendingAction, type MethodLookup } from "./execution-views.js";
import {
  clearHistory,
  deleteExecution,
  destroyRuntimeData,
  expirePaused,
  pruneExecutions,
  type ExpirePausedOutput,
} from "./housekeeping.js";
import { rollbackExecution } from "./rollback.js";
import { createRuntimeCore } from "./runtime-core.js";
import { resolveRuntimeOptions, type DurableRuntimeOptions, type ResolvedRuntimeOptions } from "./runtime-options.js";
import { deleteSnippet, listSnippets, saveSnippet, type SaveSnippetOutput } from "./snippets.js";
import { storeOperation } from "./store-operation.js";
import type {
  CodeModeOutput,
  ExecuteInput,
  ExecuteOptions,
  ExecutionDetail,
  ExecutionRequestInput,
  ExecutionSummary,
  PendingAction,
  RejectOutput,
  RollbackOutput,
  ScopeOptions,
  Snippet,
} from "./types.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { scopeProblem, visibleTo } from "./execution-request.js";
import { readCount, readId, readOptions } from "./read-arguments.js";
import { SCOPE_OPTION_KEYS, SEARCH_OPTION_KEYS } from "./request-keys.js";
import { startExecution } from "./start-execution.js";

/** The scope a listing method reads: its options checked (keys, a valid scope), or a programmer error. */
function readScope(method: string, options: unknown): string | undefined {
  const { scope } = readOptions(`${method}(…, options)`, options, SCOPE_OPTION_KEYS);
  const problem = scopeProblem(scope);
  if (problem !== undefined) throw new InvalidArgumentError({ argument: `${method}(…, { scope })`, message: problem });
  return scope as string | undefined;
}

/** Default number of executions listed by `executions()`. */
export const DEFAULT_LIST_LIMIT = 50;

/** The durable runtime handle. `CodemodeRuntime` (from `createCodemodeRuntime`) adds `tool()`. */
export interface DurableRuntime {
  /** The runtime name (separate history). */
  readonly name: string;
  /**
   * Runs a program as a new execution, owned by `scope` when given (e.g. the signed-in user): another scope then
   * sees it as `not-found`. Never throws for a failed program.
   */
  execute(input: ExecuteInput, options?: ExecuteOptions): Promise<CodeModeOutput>;
  /**
   * Approves pending call `seq` (or every pending call) and resumes; the output of the resumed pass. A missing or
   * malformed request resolves with `kind: "validation"`.
   */
  approve(request: ExecutionRequestInput, options?: ExecuteOptions): Promise<CodeModeOutput>;
  /**
   * Decides several pending calls of one paused execution at once and resumes it once: approved calls run,
   * rejected ones reject inside the program (it may catch them), undecided ones stay pending.
   */
  decide(
    request: { executionId: string; decisions: CallDecision[]; scope?: string },
    options?: ExecuteOptions,
  ): Promise<CodeModeOutput>;
  /** Rejects a paused execution; earlier calls stay applied. */
  reject(request: ExecutionRequestInput & { reason?: string }): Promise<RejectOutput>;
  /** Compensates applied calls newest first. */
  rollback(request: { executionId: string; scope?: string }): Promise<RollbackOutput>;
  /**
   * Calls waiting for approval (of one execution, or all; of `scope` only when given); `[]` for an id that names
   * no execution (one longer than 200 characters never does). Throws `InvalidArgumentError` for an id that is not
   * a non-empty string and for options that are not `{ scope? }`.
   */
  pending(executionId?: string, options?: ScopeOptions): Promise<PendingAction[]>;
  /**
   * Newest executions first (of `scope` only when given). Throws `InvalidArgumentError` for a `limit` that is not
   * a non-negative integer and for options that are not `{ scope? }`. @default limit 50
   */
  executions(limit?: number, options?: ScopeOptions): Promise<ExecutionSummary[]>;
  /**
   * One execution with its call log (the audit view; never shown to the model); `undefined` when there is none,
   * for another scope's, and for an id longer than 200 characters (it names none). Throws `InvalidArgumentError`
   * for an id that is not a non-empty string and for options that are not `{ scope? }`.
   */
  execution(executionId: string, options?: ScopeOptions): Promise<ExecutionDetail | undefined>;
  /**
   * Deletes one execution and its call log, whatever its status; `deleted: false` when there was none.
   * Throws `InvalidArgumentError` for an id that is not a non-empty string.
   */
  deleteExecution(executionId: string): Promise<{ deleted: boolean }>;
  /** Deletes terminal executions beyond the newest `keep`. @default keep maxExecutions */
  pruneExecutions(keep?: number): Promise<{ deleted: string[] }>;
  /** Deletes every terminal execution. */
  clearHistory(): Promise<{ deleted: string[] }>;
  /**
   * Ends stale paused runs (`rejected`) and dead running runs (`error`). Throws `InvalidArgumentError` for
   * options that are not `{ maxAgeMs? }` with a non-negative number. @default maxAgeMs 24 h
   */
  expirePaused(options?: { maxAgeMs?: number }): Promise<ExpirePausedOutput>;
  /**
   * Saves (or replaces) an execution's code as snippet `name`, runnable inside programs as
   * `codemode.run(name, input)`; the snippet's code reads that value as the variable `input`.
   */
  saveSnippet(
    name: string,
    options: { executionId: string; description?: string; inputSchema?: unknown },
  ): Promise<SaveSnippetOutput>;
  /** Every snippet of this runtime name. */
  snippets(): Promise<Snippet[]>;
  /**
   * Deletes snippet `name`; `deleted: false` when there was none (or `name` cannot be a snippet name).
   * Throws `InvalidArgumentError` when `name` is not a non-empty string.
   */
  deleteSnippet(name: string): Promise<{ deleted: boolean }>;
  /** Ranked paths over connector methods and snippets. Throws `InvalidArgumentError` for options that are not `{ limit? }`. */
  search(query: string, options?: { limit?: number }): Promise<SearchOutput>;
  /** TypeScript declarations for a connector, method or snippet. */
  describe(target: string): Promise<DescribeOutput | { error: string }>;
  /** Drops this runtime name's data (executions, calls, snippets). */
  destroy(): Promise<void>;
  /** Releases the store client and the executor the runtime created. */
  close(): Promise<void>;
}

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

/** The durable runtime over options already resolved by `resolveRuntimeOptions` (resolved once, shared with the tool). */
export function durableRuntimeFromResolved(resolved: ResolvedRuntimeOptions): DurableRuntime {
  const core = createRuntimeCore(resolved);
  const lookup: MethodLookup = (connector, method) =>
    Object.hasOwn(resolved.connectors, connector) && Object.hasOwn(resolved.connectors[connector]!.methods, method)
      ? resolved.connectors[connector]!.methods[method]
      : undefined;
  let closed = false;
  return {
    name: resolved.name,
    execute: (input, executeOptions = {}) => startExecution(core, input, executeOptions),
    approve: (request, executeOptions = {}) => approveExecution(core, request, executeOptions),
    reject: (request) => rejectExecution(core, request),
    decide: (request, executeOptions = {}) => decidePending(core, request, executeOptions),
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
    expirePaused: (expireOptions) => expirePaused(core, expireOptions),
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
    destroy: () => destroyRuntimeData(core),
    async close() {
      if (closed) return;
      closed = true;
      if (core.ownsExecutor) await core.executor.dispose();
      if (core.opened.owned) core.opened.client.close();
    },
  };
}
