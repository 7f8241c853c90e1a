/**
 * The store's contract: every operation the runtime needs from the journal, over the records this folder
 * owns (`records.ts`). Read this first; `../store/libsql-journal-store.ts` implements it over a libSQL client. Every
 * operation is one statement or one `batch()` (no interactive transactions), so each is one round trip against a
 * remote database, and nothing is half-written. All rows are scoped by runtime name; every status change is a
 * compare-and-set whose affected row count is checked. A pass speaks to the journal through its
 * {@link PassJournal}, in the pass's own verbs: no SQL, no statement and no driver type crosses this interface.
 */
import type {
  CallJournalRecord,
  ExecutionRecord,
  ExecutionRecordStatus,
  FailureRecordKind,
  SnippetRecord,
} from "./records.js";
import type { ModuleSource } from "./module-record.js";

/** Identifies the pass writing: runtime name, execution and the lease it holds. */
export interface PassLease {
  runtime: string;
  executionId: string;
  leaseToken: string;
}

/** The execution and its whole call log, read in one batch. */
export interface LoadedExecution {
  execution: ExecutionRecord;
  calls: CallJournalRecord[];
}

/** An execution ended by `expirePaused`. */
export interface ExpiredExecution {
  executionId: string;
  status: "rejected" | "error";
}

/**
 * Which ended (terminal) executions a prune deletes; running and paused ones never. An execution goes when it ended
 * before `endedBefore` and either its owner has `keepPerOwner` newer ended ones or it ended before `expiredBefore`.
 * The owner is the execution's `scope` (executions without one are one owner). "Ended" is the last change of a
 * terminal execution (`updatedAt`), so a run that paused for a day still has its grace after its approval.
 */
export interface PruneRule {
  /** Ended executions kept per owner, newest ended first; undefined: any number. */
  keepPerOwner: number | undefined;
  /** Only executions that ended before this instant (ms) go: the grace a retry or its owner still needs. */
  endedBefore: number;
  /** Executions that ended before this instant (ms) go whatever the count; undefined: no age limit. */
  expiredBefore: number | undefined;
  /** At most this many executions deleted by each part of the rule (by count, of one owner; by age): a bounded batch. */
  limit: number;
}

/** A new execution: `running` under a lease. */
export interface StartExecution {
  executionId: string;
  code: string;
  connectors: string[];
  now: number;
  leaseToken: string;
  leaseUntil: number;
  toolCallId?: string;
  scope?: string;
  /** The trace context of the first pass (or of the span it was started under), kept for the passes that resume it. */
  traceContext?: string;
  /** The execution's budgets (`budget-record.ts`), kept so every later pass enforces the same numbers. */
  budgetsText?: string;
  /** The retention rule applied in the same batch, to this execution's owner (`scope`) and by age. */
  prune: PruneRule;
  /**
   * The program must be approved first: the execution starts `paused` (no lease, no pass yet) with one pending
   * row at `WHOLE_PROGRAM_SEQ` for the whole program (arguments: the codec text of `{ code }`).
   */
  programApproval?: { connector: string; method: string; argsText: string };
}

/** How a pass ends (`running → paused | completed | error`). */
export interface PassEnd {
  status: "paused" | "completed" | "error";
  resultText?: string;
  logs: string[];
  error?: string;
  kind?: FailureRecordKind;
  now: number;
  /** The execution's module record after this pass, when the pass imported a module not yet recorded. */
  modulesText?: string;
  /** Sources the new module record refers to, kept once per digest for the passes that resume a paused execution. */
  moduleSources?: ModuleSource[];
  /**
   * The execution ends with a module record: drop the kept sources no other running or paused execution of this
   * runtime refers to (in the same batch; a pass keeping one later writes it again with its own end).
   */
  releaseModules?: boolean;
}

/** Executions: start, load, approve (claim), reject, list. */
export interface ExecutionStore {
  /**
   * Inserts the execution (and prunes by `prune`, bounded, in the same batch). @returns the saved snippets, read in that
   * batch (a pass needs them; a separate read would cost a cold invocation one more round trip).
   */
  startExecution(start: StartExecution): Promise<SnippetRecord[]>;
  /** An execution and its whole call log in one batch (a constant number of queries); undefined when unknown. */
  load(executionId: string): Promise<LoadedExecution | undefined>;
  /**
   * Take-over of a run whose process died: `running` with an expired lease (`lease_until < now`) and still after
   * pass `passes` → a new pass under a new lease (compare-and-set). Its calls stay as they are: a call left
   * `executing` is interrupted (its outcome unknown) and never run again.
   * @returns the saved snippets, or undefined when the lease is live or another invocation took it first.
   */
  claimAbandoned(claim: {
    executionId: string;
    passes: number;
    leaseToken: string;
    leaseUntil: number;
    now: number;
  }): Promise<SnippetRecord[] | undefined>;
  /**
   * Approval: `paused → running` under a new lease (compare-and-set) and marks the approved pending call(s)
   * (`seq`, or all) in the same batch; an approved whole-program row (sequence 0) becomes `applied` there too.
   * @returns the saved snippets (read in the claim's batch), or undefined when another invocation changed the
   * execution first.
   */
  claimPaused(claim: {
    executionId: string;
    /**
     * The pass count the caller loaded: the claim wins only while the execution is still paused after that pass,
     * so a request decided on an older load (the execution resumed and paused again since) changes nothing.
     */
    passes: number;
    leaseToken: string;
    leaseUntil: number;
    now: number;
    seq?: number;
    /**
     * Several pending calls decided at once (instead of `seq`): `approve` are marked approved, `reject` become
     * `error` with their message (the program gets it as a rejection on the next pass), all in the claim's batch.
     */
    decisions?: { approve: number[]; reject: Array<{ seq: number; error: string }> };
    /** Who decided, recorded on every call this claim approves or rejects. */
    decidedBy?: string;
    /**
     * Approved calls that run with the approver's arguments (codec text) instead of the program's, written in the
     * claim's batch onto the rows it approved (a row it did not approve is left unchanged), with their cost when the
     * method has one (it replaces the program's).
     */
    edits?: Array<{ seq: number; argsText: string; cost?: number }>;
  }): Promise<SnippetRecord[] | undefined>;
  /**
   * Rejection: `paused → rejected` (compare-and-set); the pending calls become `error` in the same batch, with
   * `decidedBy` (who rejected) when given.
   */
  rejectPaused(reject: {
    executionId: string;
    token: string;
    now: number;
    reason: string;
    decidedBy?: string;
  }): Promise<boolean>;
  /** Kept module sources by digest (`PassEnd.moduleSources`); a digest not kept is absent from the map. */
  moduleSources(digests: string[]): Promise<Map<string, string>>;
  /** Newest executions first (of `scope` only, when given). */
  list(limit: number, scope?: string): Promise<ExecutionRecord[]>;
  /** Unapproved pending calls of paused executions (of one, or all; of `scope` only, when given). */
  pending(executionId?: string, scope?: string): Promise<Array<{ executionId: string; call: CallJournalRecord }>>;
  /** What one pass writes, guarded by its lease (see {@link PassJournal}). */
  passJournal(lease: PassLease): PassJournal;
}

/** A call the pass is about to journal: what it is, and when. */
export interface JournaledCall {
  seq: number;
  connector: string;
  method: string;
  /** Codec string of the arguments. */
  argsText: string;
  now: number;
  /** What the call counts against the execution's `maxCost` (absent: its method has no `cost`). */
  cost?: number;
}

/**
 * What one pass does to the journal, in its own words. Every write is guarded by the pass's lease: a pass whose
 * lease was taken (`expirePaused` claimed it) changes nothing. Durable verbs (`insertCall`, `startApprovedCall`,
 * `finish`) resolve once committed and carry every queued write with them, in one round trip; the other verbs
 * queue their write to ride with the next durable one (`renewLease` sends at once, so that a pass of reads alone
 * keeps its lease). A pass that dies before a queued write travelled loses only that write: an `applied` after
 * an `executing` row (the call stays `executing`, never run again), a read or a step's start (the run ends
 * without them; nothing they did had an effect of its own).
 */
export interface PassJournal {
  /**
   * Writes a new call's row: `executing` before its connector runs, or `pending` (waiting for approval).
   * `gather`: other calls of the pass are in flight, so wait one macrotask for the calls issued together
   * (`Promise.all`) to join this write. @returns false when the lease was lost (nothing was written).
   */
  insertCall(
    call: JournaledCall & { status: "executing" | "pending"; needsApproval: boolean },
    options?: { gather?: boolean },
  ): Promise<boolean>;
  /** Queues `executing → applied` with the recorded result (`undefined`: none). */
  applyCall(applied: { seq: number; resultText: string | undefined; now: number }): void;
  /** Queues `executing → error`; the message is replayed as the call's rejection on later passes. */
  failCall(failed: { seq: number; error: string; now: number }): void;
  /** Queues the row of a read-only call that has finished (no row preceded it): its result, or its failure. */
  recordRead(
    read: JournaledCall & { startedAt: number } & ({ resultText: string | undefined } | { error: string }),
  ): void;
  /**
   * Queues a new `codemode.step`'s `executing` row, to ride with the pass's next write: the step runs inside the
   * sandbox, and the only effects it can have are its own journaled calls, each of which writes first and so
   * carries this row with it.
   */
  beginStep(step: JournaledCall): void;
  /** Queues the row of a `reexecute` call on its first pass: `applied`, without a result (it runs again on replay). */
  logReexecuted(call: JournaledCall): void;
  /** An approved `pending` call starts: `pending → executing`, durable. @returns false when another invocation took it. */
  startApprovedCall(start: { seq: number; now: number }): Promise<boolean>;
  /** Queues the removal of a `codemode.step` row that a pause interrupted, so the resumed pass runs it again. */
  dropStep(step: { seq: number }): void;
  /** Queues approved calls the pass never started (`pending`, approved) to become `error` with `reason`. */
  failUnreachedApprovals(unreached: { seqs: number[]; reason: string; now: number }): void;
  /** Queues one more replay for each listed call. */
  countReplays(replayed: { seqs: number[] }): void;
  /** Extends the lease to `leaseUntil`, sent at once with everything queued. */
  renewLease(renewal: { leaseUntil: number }): void;
  /**
   * Ends the pass with everything queued (`running → paused | completed | error`, compare-and-set on the lease).
   * @returns false when the lease was lost (the end was not recorded). Rejects when the store failed.
   */
  finish(end: PassEnd): Promise<boolean>;
  /** Ends the pass on its own, after a write failed (nothing queued is sent): the same compare-and-set as `finish`. */
  finishAfterFailure(end: PassEnd): Promise<void>;
  /** Commits everything queued. Rejects if any write failed. */
  flush(): Promise<void>;
  /** The first store failure a write met, if any (a pass that sees one ends with kind `store`). */
  readonly failure: unknown;
  /** Queued writes that changed nothing they had to change: the lease was lost while the pass ran. */
  readonly lostRows: number;
}

/** Rollback: a lease on an ended execution, and each revert marked before and after it runs. */
export interface RollbackStore {
  /** Takes an ended execution for a rollback: sets a lease if none is live (compare-and-set on status too). */
  claimForRollback(claim: {
    executionId: string;
    status: ExecutionRecordStatus;
    token: string;
    leaseUntil: number;
    now: number;
  }): Promise<boolean>;
  /**
   * Records, before its `revert` runs, that a rollback is reverting this applied call (its `error` becomes
   * `note`). A later rollback that finds the note knows an earlier one died between the revert and its record.
   * @returns false when the call is not applied, already marked, or the lease was lost.
   */
  markReverting(mark: { executionId: string; token: string; seq: number; note: string }): Promise<boolean>;
  /** Clears the note of {@link markReverting} after a revert that failed (a later rollback may try again). */
  clearReverting(mark: { executionId: string; token: string; seq: number }): Promise<void>;
  /** Marks one call reverted (`applied → reverted`, its note cleared), guarded by the rollback's lease. */
  markReverted(mark: { executionId: string; token: string; seq: number; now: number }): Promise<boolean>;
  /** Ends a rollback: releases the lease; moves to `rolled_back` (updated now) when something was reverted, else changes nothing. */
  finishRollback(finish: { executionId: string; token: string; rolledBack: boolean; now: number }): Promise<void>;
}

/** Retention: delete, prune, expire, delete all. */
export interface RetentionStore {
  /** Deletes one execution and its calls. @returns whether it existed. */
  deleteExecution(executionId: string): Promise<boolean>;
  /**
   * Deletes what `rule` selects, of every owner: at most `rule.limit` by age and as many per owner by count (call
   * again until it returns nothing). @returns the deleted ids.
   */
  prune(rule: PruneRule): Promise<string[]>;
  /** Deletes every terminal execution. @returns the deleted ids. */
  clearHistory(): Promise<string[]>;
  /**
   * Ends stale runs in one batch: running runs whose lease expired → `error` (their `executing` calls → `error`,
   * never re-run); paused runs not touched since `pausedBefore` → `rejected` (their pending calls → `error`).
   */
  expire(expire: {
    now: number;
    pausedBefore: number;
    runningMessage: string;
    pausedMessage: string;
  }): Promise<ExpiredExecution[]>;
  /** Deletes every row of this runtime name. @returns the ids of executions that had not ended. */
  deleteAllData(): Promise<string[]>;
}

/** Snippets: saved programs by name. */
export interface SnippetStore {
  /** Inserts or replaces a snippet. */
  saveSnippet(snippet: SnippetRecord): Promise<void>;
  /** All snippets, by name. */
  snippets(): Promise<SnippetRecord[]>;
  /** Deletes a snippet. @returns whether it existed. */
  deleteSnippet(name: string): Promise<boolean>;
}

/** A search vector: the embedding of one text (by its hash) under one model. */
export interface SearchVector {
  textHash: string;
  vector: Float32Array;
}

/**
 * Search vectors cached by embedding model and text hash, shared by every runtime name (a vector depends on
 * the model and the text only), so a cold invocation reads them instead of embedding again.
 */
export interface EmbeddingStore {
  /** The cached vectors of `model` among `textHashes` (one read batch); hashes without a row are left out. */
  searchVectors(model: string, textHashes: string[]): Promise<SearchVector[]>;
  /** Caches vectors of `model` (one write batch), replacing a cached row of the same hash. */
  saveSearchVectors(model: string, vectors: SearchVector[]): Promise<void>;
}

/** The store operations of one runtime name. */
export interface JournalStore extends ExecutionStore, RollbackStore, RetentionStore, SnippetStore, EmbeddingStore {
  /** The runtime name every row is scoped by. */
  readonly runtime: string;
  /** Releases the connection when the runtime opened it (a Client the app handed in stays open). */
  close(): void;
}
