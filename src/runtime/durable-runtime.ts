/**
 * The durable runtime: every handle method of SPEC §3.1 except `tool()`
 * (added by `createCodemodeRuntime` in `src/ai`). It composes the modules
 * beside it — passes and replay (`run-pass`), approvals, rollback, snippets,
 * retention (`housekeeping`) — over one libSQL store scoped by runtime name.
 */
import { decidePending, type CallDecision } from "./decide-pending.js";
import { programApprovalAction, programNeedsApproval } from "./program-approval.js";
import { encodeJournalValue } from "./journal-values.js";
import type { DescribeOutput, SearchOutput } from "../connectors/types.js";
import { approveExecution, rejectExecution } from "./approvals.js";
import { executionDetail, executionSummary, pendingAction } from "./execution-views.js";
import {
  clearHistory, deleteExecution, destroyRuntimeData, expirePaused, pruneExecutions, type ExpirePausedOutput,
} from "./housekeeping.js";
import { checkJournalSize } from "./journal-values.js";
import { rollbackExecution } from "./rollback.js";
import { failure, storeFailure } from "./failure-output.js";
import { runClaimedPass } from "./run-claimed-pass.js";
import { createRuntimeCore, type RuntimeCore } from "./runtime-core.js";
import { resolveRuntimeOptions, type DurableRuntimeOptions, type ResolvedRuntimeOptions } from "./runtime-options.js";
import { deleteSnippet, listSnippets, saveSnippet, type SaveSnippetOutput } from "./snippets.js";
import { storeOperation } from "./store-operation.js";
import type { SnippetRecord } from "./store/records.js";
import type {
  CodeModeInput, CodeModeOutput, ExecuteOptions, ExecutionDetail, ExecutionSummary, PendingAction, RejectOutput, RollbackOutput, Snippet,
} from "./types.js";

/** Default number of executions listed by `executions()`. */
export const DEFAULT_LIST_LIMIT = 50;

/** The durable runtime handle. `CodemodeRuntime` (from `createCodemodeRuntime`) adds `tool()`. */
export interface DurableRuntime {
  /** The runtime name (separate history). */
  readonly name: string;
  /** Runs a program as a new execution. Never throws for a failed program. */
  execute(input: CodeModeInput, options?: ExecuteOptions): Promise<CodeModeOutput>;
  /** Approves pending call `seq` (or every pending call) and resumes; the output of the resumed pass. */
  approve(request: { executionId: string; seq?: number }, options?: ExecuteOptions): Promise<CodeModeOutput>;
  /**
   * Decides several pending calls of one paused execution at once and resumes it once: approved calls run,
   * rejected ones reject inside the program (it may catch them), undecided ones stay pending.
   */
  decide(request: { executionId: string; decisions: CallDecision[] }, options?: ExecuteOptions): Promise<CodeModeOutput>;
  /** Rejects a paused execution; earlier calls stay applied. */
  reject(request: { executionId: string; seq?: number; reason?: string }): Promise<RejectOutput>;
  /** Compensates applied calls newest first. */
  rollback(request: { executionId: string }): Promise<RollbackOutput>;
  /** Calls waiting for approval (of one execution, or all). */
  pending(executionId?: string): Promise<PendingAction[]>;
  /** Newest executions first. @default limit 50 */
  executions(limit?: number): Promise<ExecutionSummary[]>;
  /** One execution with its call log (the audit view; never shown to the model). */
  execution(executionId: string): Promise<ExecutionDetail | undefined>;
  /** Deletes one execution and its call log, whatever its status; `deleted: false` when there was none. */
  deleteExecution(executionId: string): Promise<{ deleted: boolean }>;
  /** Deletes terminal executions beyond the newest `keep`. @default keep maxExecutions */
  pruneExecutions(keep?: number): Promise<{ deleted: string[] }>;
  /** Deletes every terminal execution. */
  clearHistory(): Promise<{ deleted: string[] }>;
  /** Ends stale paused runs (`rejected`) and dead running runs (`error`). @default maxAgeMs 24 h */
  expirePaused(options?: { maxAgeMs?: number }): Promise<ExpirePausedOutput>;
  /** Saves (or replaces) an execution's code as snippet `name`, runnable inside programs as `codemode.run(name, input)`. */
  saveSnippet(name: string, options: { executionId: string; description?: string; inputSchema?: unknown }): Promise<SaveSnippetOutput>;
  /** Every snippet of this runtime name. */
  snippets(): Promise<Snippet[]>;
  /** Deletes snippet `name`; `deleted: false` when there was none. */
  deleteSnippet(name: string): Promise<{ deleted: boolean }>;
  /** Ranked paths over connector methods and snippets. */
  search(query: string, options?: { limit?: number }): Promise<SearchOutput>;
  /** TypeScript declarations for a connector, method or snippet. */
  describe(target: string): Promise<DescribeOutput | { error: string }>;
  /** Drops this runtime name's data (executions, calls, snippets). */
  destroy(): Promise<void>;
  /** Releases the store client and the executor the runtime created. */
  close(): Promise<void>;
}

async function executeProgram(core: RuntimeCore, input: CodeModeInput, options: ExecuteOptions): Promise<CodeModeOutput> {
  const { now, generateId, leaseMs, maxExecutions } = core.options;
  const executionId = generateId();
  const code: unknown = (input as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || code.trim() === "") {
    return failure(executionId, "validation", "The input must be { code: string } with a non-empty program (an async arrow function, a function body or an expression).");
  }
  const size = checkJournalSize(code, "The program");
  if (!size.ok) return failure(executionId, "limit", size.error);
  const approval = await programNeedsApproval(core.options.approveProgram, code);
  if (!approval.ok) return failure(executionId, "validation", approval.error);
  const createdAt = now();
  const leaseToken = generateId();
  const connectorNames = Object.keys(core.connectors);
  if (approval.value) return startAwaitingApproval(core, { executionId, code, connectors: connectorNames, now: createdAt, options });
  let snippets: SnippetRecord[];
  try {
    await core.store.startExecution({
      executionId, code, connectors: connectorNames, now: createdAt, leaseToken, leaseUntil: createdAt + leaseMs, keep: maxExecutions,
      ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
    });
    snippets = await core.store.snippets();
  } catch (error) {
    return storeFailure(executionId, error);
  }
  const execution = {
    runtime: core.options.name, executionId, status: "running" as const, code, connectors: connectorNames,
    createdAt, updatedAt: createdAt, passes: 1, logs: [],
  };
  return runClaimedPass(core, { execution, calls: [], snippets, leaseToken, options });
}

/** Records an execution that waits for its program to be approved, and returns that pause. */
async function startAwaitingApproval(
  core: RuntimeCore,
  { executionId, code, connectors, now, options }: { executionId: string; code: string; connectors: string[]; now: number; options: ExecuteOptions },
): Promise<CodeModeOutput> {
  const action = programApprovalAction(executionId, code);
  const argsText = encodeJournalValue(action.args, "the program");
  if (!argsText.ok) return failure(executionId, "limit", argsText.error);
  try {
    await core.store.startExecution({
      executionId, code, connectors, now, leaseToken: core.options.generateId(), leaseUntil: now, keep: core.options.maxExecutions,
      programApproval: { connector: action.connector, method: action.method, argsText: argsText.value },
      ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
    });
  } catch (error) {
    return storeFailure(executionId, error);
  }
  return { status: "paused", executionId, pending: [action] };
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
  let closed = false;
  return {
    name: resolved.name,
    execute: (input, executeOptions = {}) => executeProgram(core, input, executeOptions),
    approve: (request, executeOptions = {}) => approveExecution(core, request, executeOptions),
    reject: (request) => rejectExecution(core, request),
    decide: (request, executeOptions = {}) => decidePending(core, request, executeOptions),
    rollback: (request) => rollbackExecution(core, request),
    async pending(executionId) {
      const rows = await storeOperation("list pending calls", () => core.store.pending(executionId));
      return rows.map((row) => pendingAction(row.executionId, row.call));
    },
    async executions(limit = DEFAULT_LIST_LIMIT) {
      return (await storeOperation("list executions", () => core.store.list(limit))).map(executionSummary);
    },
    execution: (executionId) =>
      storeOperation("read the execution", async () => {
        const loaded = await core.store.load(executionId);
        return loaded === undefined ? undefined : executionDetail(loaded.execution, loaded.calls);
      }),
    deleteExecution: (executionId) => deleteExecution(core, executionId),
    pruneExecutions: (keep) => pruneExecutions(core, keep),
    clearHistory: () => clearHistory(core),
    expirePaused: (expireOptions) => expirePaused(core, expireOptions),
    saveSnippet: (name, snippetOptions) => saveSnippet(core, name, snippetOptions),
    snippets: () => listSnippets(core),
    deleteSnippet: (name) => deleteSnippet(core, name),
    async search(query, searchOptions) {
      const snippets = await storeOperation("list snippets", () => core.store.snippets());
      return core.catalog(snippets).search(query, searchOptions);
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
