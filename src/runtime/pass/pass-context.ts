/**
 * The state of one pass: sequence numbers, the journal loaded at its start,
 * the journal it writes through, and the pause / fatal flags that the bindings
 * consult. Sequence numbers are taken synchronously when a binding is invoked,
 * so calls issued together (`Promise.all`) get the same numbers on every pass.
 */
import type { ResolvedModules } from "../journal/module-record.js";
import type { Connector } from "../../connectors/types.js";
import type { Executor } from "../../sandbox/types.js";
import type { HookOwner } from "./lifecycle-hooks.js";
import type { JournalStore, PassJournal, PassLease } from "../journal/journal-store.js";
import type { CallJournalRecord, ExecutionRecord, SnippetRecord } from "../journal/records.js";
import type { ExecuteOptions, PendingAction } from "../types.js";
import type { PassTrace } from "../tracing/pass-trace.js";
import type { FatalFailure } from "./pass-signals.js";
import type { CallBudget } from "./call-budget.js";

/** What a pass needs from the runtime that runs it. */
export interface PassDependencies {
  store: JournalStore;
  executor: Executor;
  /** Every journaled connector (the namespaces and the outbound one). */
  connectors: Record<string, Connector>;
  /** The connectors bound as global namespaces. */
  namespaces: Record<string, Connector>;
  /** The outbound connector, bound as the global `fetch`. */
  outbound: { name: string; connector: Connector } | undefined;
  /** Lifecycle hooks called when the pass ends. */
  hooks: HookOwner;
  snippets: SnippetRecord[];
  /** The runtime's modules: their sources go to the sandbox, their hashes into the execution's record. */
  modules: ResolvedModules;
  now: () => number;
  leaseMs: number;
  /** How long a failed pass waits for calls still in flight. */
  inflightGraceMs: number;
  /** Backs `codemode.search` / `codemode.describe`. */
  search: (query: string) => unknown;
  describe: (target: string) => unknown;
}

/** Mutable state of one pass. */
export class PassContext {
  readonly deps: PassDependencies;
  readonly execution: ExecutionRecord;
  /** Where the pass writes, in its own verbs (insert a call, apply it, …, finish). */
  readonly journal: PassJournal;
  readonly options: ExecuteOptions;
  readonly recorded: Map<number, CallJournalRecord>;
  /** The pass's spans; undefined when tracing is off (the hooks then cost a property read). */
  readonly trace: PassTrace | undefined;
  /** The execution's call and cost budgets, counted from the journal; admits every new connector call. */
  readonly budget: CallBudget;
  /** Aborted when the pass hits a fatal failure, or when the caller aborts. */
  readonly abort = new AbortController();
  /** Sequence numbers of calls answered from the journal this pass. */
  readonly replayed: number[] = [];
  /** Calls left waiting for approval by this pass. */
  readonly pending: PendingAction[] = [];
  /** Promises of binding calls still running; the pass ends after all settle. */
  readonly inflight = new Set<Promise<unknown>>();
  /** Sequence numbers the program reached this pass (every journaled call takes one). */
  readonly reached = new Set<number>();
  /** Approved calls this pass started (an approved call the pass never starts ends the run visibly). */
  readonly startedApprovals = new Set<number>();
  /** `codemode.step`s begun (not replayed) in this pass and not yet ended. */
  readonly openSteps = new Set<number>();
  /**
   * Calls (steps included) whose `executing` row this pass wrote or queued and whose outcome it has not recorded:
   * what is left here when a failed pass ends is recorded `error` (see `unfinished-work.ts`).
   */
  readonly executing = new Map<number, string>();
  /** Messages of argument validation failures the program was given this pass. */
  readonly validationFailures = new Set<string>();
  /** Set once a pause was delivered: later calls of this pass reject without effect. */
  pauseMessage: string | undefined;
  fatal: FatalFailure | undefined;
  #nextSeq = 1;
  #leaseRenewedAt: number;

  constructor({
    deps,
    execution,
    calls,
    leaseToken,
    options,
    trace,
    budget,
  }: {
    deps: PassDependencies;
    execution: ExecutionRecord;
    calls: CallJournalRecord[];
    leaseToken: string;
    options: ExecuteOptions;
    trace?: PassTrace | undefined;
    /** The execution's budgets, counted from its journal (`execution-budgets.ts`). */
    budget: CallBudget;
  }) {
    this.deps = deps;
    this.trace = trace;
    this.execution = execution;
    this.options = options;
    const lease: PassLease = { runtime: execution.runtime, executionId: execution.executionId, leaseToken };
    this.journal = deps.store.passJournal(lease);
    this.recorded = new Map(calls.map((call) => [call.seq, call]));
    this.budget = budget;
    this.#leaseRenewedAt = deps.now();
    if (options.abortSignal !== undefined) {
      const signal = options.abortSignal;
      if (signal.aborted) this.abort.abort(signal.reason);
      else signal.addEventListener("abort", () => this.abort.abort(signal.reason), { once: true });
    }
  }

  /** Takes the next sequence number (synchronously, in call order). */
  takeSeq(): number {
    return this.#nextSeq++;
  }

  /** Ends the pass with `failure` (the first one wins) and stops the program. */
  failWith(failure: FatalFailure): Error {
    this.fatal ??= failure;
    if (!this.abort.signal.aborted) this.abort.abort(new Error(failure.error));
    return new Error(this.fatal.error);
  }

  /** Tracks a binding's promise until it settles. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.inflight.add(promise);
    const forget = (): void => {
      this.inflight.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** Waits until every binding call of this pass has settled. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * Sends a lease renewal (with every buffered row) when half the lease has passed since the last one: sent,
   * not deferred, so that a pass of read-only calls, which makes no other write, keeps its lease.
   */
  renewLeaseIfDue(): void {
    const now = this.deps.now();
    if (now - this.#leaseRenewedAt < this.deps.leaseMs / 2) return;
    this.#leaseRenewedAt = now;
    this.journal.renewLease({ leaseUntil: now + this.deps.leaseMs });
  }
}
