/**
 * The durable runtime's handle, declared apart from its implementation (`durable-runtime.ts`): the modules
 * that read its signatures (`request-keys.ts` derives every request's keys from them) need no import of the
 * operations, so nothing cycles back.
 */
import type { DescribeOutput, SearchOutput } from "../connectors/types.js";
import type {
  ApproveRequestInput,
  CallDecision,
  CodemodeOutput,
  ExecuteInput,
  ExecuteOptions,
  ExecutionDetail,
  ExecutionRequestInput,
  ExecutionSummary,
  ExpirePausedOutput,
  PendingAction,
  RejectOutput,
  RollbackOutput,
  SaveSnippetOutput,
  ScopeOptions,
  Snippet,
} from "./types.js";

/** The durable runtime handle. `CodemodeRuntime` (from `createCodemodeRuntime`) adds `tool()`. */
export interface DurableRuntime {
  /** The runtime name (separate history). */
  readonly name: string;
  /**
   * Runs a program as a new execution, owned by `scope` when given (e.g. the signed-in user): another scope then
   * sees it as `not-found`. Never throws for a failed program.
   */
  execute(input: ExecuteInput, options?: ExecuteOptions): Promise<CodemodeOutput>;
  /**
   * Approves pending call `seq` (or every pending call) and resumes; the output of the resumed pass. With `args`
   * (and `seq`), the call runs with those arguments instead of the program's, when its method is `editable`. A
   * missing or malformed request, or an edit that is refused, resolves with `kind: "validation"` having run nothing.
   */
  approve(request: ApproveRequestInput, options?: ExecuteOptions): Promise<CodemodeOutput>;
  /**
   * Decides several pending calls of one paused execution at once and resumes it once: approved calls run,
   * rejected ones reject inside the program (it may catch them), undecided ones stay pending.
   */
  decide(
    request: {
      executionId: string;
      decisions: CallDecision[];
      scope?: string;
      /** Who decides, journaled on every decided call (see `ExecutionRequestInput.decidedBy`). */
      decidedBy?: string;
    },
    options?: ExecuteOptions,
  ): Promise<CodemodeOutput>;
  /** Rejects a paused execution; earlier calls stay applied. */
  reject(request: ExecutionRequestInput & { reason?: string }): Promise<RejectOutput>;
  /** Compensates applied calls newest first. */
  rollback(request: { executionId: string; scope?: string }): Promise<RollbackOutput>;
  /**
   * Calls waiting for approval (of one execution, or all; of `scope` only when given); `[]` for an id that names
   * no execution (one longer than 200 characters never does). Throws `CodemodeArgumentError` for an id that is not
   * a non-empty string and for options that are not `{ scope? }`.
   */
  pending(executionId?: string, options?: ScopeOptions): Promise<PendingAction[]>;
  /**
   * Newest executions first (of `scope` only when given). Throws `CodemodeArgumentError` for a `limit` that is not
   * a non-negative integer and for options that are not `{ scope? }`. @default limit 50
   */
  executions(limit?: number, options?: ScopeOptions): Promise<ExecutionSummary[]>;
  /**
   * One execution with its call log (the audit view; never shown to the model); `undefined` when there is none,
   * for another scope's, and for an id longer than 200 characters (it names none). Throws `CodemodeArgumentError`
   * for an id that is not a non-empty string and for options that are not `{ scope? }`.
   */
  execution(executionId: string, options?: ScopeOptions): Promise<ExecutionDetail | undefined>;
  /**
   * Deletes one execution and its call log, whatever its status; `deleted: false` when there was none.
   * Throws `CodemodeArgumentError` for an id that is not a non-empty string.
   */
  deleteExecution(executionId: string): Promise<{ deleted: boolean }>;
  /**
   * Applies the retention rule to every owner (`scope`): deletes ended executions beyond each owner's newest `keep`
   * and past `retention.maxAgeMs`, never one that ended less than `retention.minAgeMs` ago, nor a running or paused
   * one. `Infinity` keeps any number. @default keep maxExecutions
   */
  pruneExecutions(keep?: number): Promise<{ deleted: string[] }>;
  /** Deletes every ended execution now, within the retention grace or not (running and paused ones stay). */
  clearHistory(): Promise<{ deleted: string[] }>;
  /**
   * Ends stale paused runs (`rejected`) and dead running runs (`error`). Throws `CodemodeArgumentError` for
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
   * Throws `CodemodeArgumentError` when `name` is not a non-empty string.
   */
  deleteSnippet(name: string): Promise<{ deleted: boolean }>;
  /** Ranked paths over connector methods and snippets. Throws `CodemodeArgumentError` for options that are not `{ limit? }`. */
  search(query: string, options?: { limit?: number }): Promise<SearchOutput>;
  /** TypeScript declarations for a connector, method or snippet. */
  describe(target: string): Promise<DescribeOutput | { error: string }>;
  /**
   * Deletes every row of this runtime name: its executions (running and paused ones too, which are disposed), their
   * calls, its snippets and module sources. Other runtime names in the same database keep theirs. The runtime stays
   * open; `close()` releases it.
   */
  deleteAllData(): Promise<void>;
  /** Releases the store client and the executor the runtime created; the data stays. Calling it again does nothing. */
  close(): Promise<void>;
  /**
   * `close()`, for `await using`: the runtime is closed when the block that declared it ends.
   *
   * @example
   * await using runtime = createCodemodeRuntime({ tools });
   * const output = await runtime.execute({ code });
   */
  [Symbol.asyncDispose](): Promise<void>;
}
