/**
 * A {@link JournalStore} in memory, for the runtime's own tests: the same contract as the libSQL store (every
 * status change a compare-and-set, every pass write guarded by its lease, a pass's queued writes travelling with
 * its next durable one), without SQL. `test/runtime/journal/journal-store.test.ts` runs one suite on both
 * implementations, so the two cannot drift apart. Records are copied in and out, as a database would.
 *
 * Not shipped in `ai-codemode/test`: an app that wants a store without a file passes `store: ":memory:"`, which is
 * the real libSQL store (the same SQL as production) and costs next to nothing (`docs/decisions/pass-journal.md`).
 */
import type {
  ExpiredExecution,
  JournaledCall,
  JournalStore,
  PassEnd,
  PassJournal,
  PassLease,
  PruneRule,
  SearchVector,
} from "../../src/runtime/journal/journal-store.js";
import {
  TERMINAL_EXECUTION_STATUSES,
  WHOLE_PROGRAM_SEQ,
  type CallJournalRecord,
  type ExecutionRecord,
  type SnippetRecord,
} from "../../src/runtime/journal/records.js";

/** The in-memory store, with a way to make its writes fail (as a full disk or a dropped connection would). */
export interface MemoryJournalStore extends JournalStore {
  /** Every later write rejects with `error` (`undefined`: writes succeed again). */
  failWrites(error: unknown): void;
  /** Writes committed so far (a durable write with what it carried counts once, like a round trip). */
  readonly writes: number;
}

interface StoredExecution {
  execution: ExecutionRecord;
  calls: Map<number, CallJournalRecord>;
  /** Insertion order: ties of `createdAt` sort as the libSQL store's `rowid` does. */
  order: number;
}

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/** `T` whose optional keys may also hold `undefined` (a NULL column, dropped by {@link copy}). */
type Loose<T> = Omit<T, OptionalKeys<T>> & { [K in OptionalKeys<T>]?: T[K] | undefined };

/** A copy of `record` without the keys whose value is undefined (a row's NULL column is an absent key). */
function copy<T extends object>(record: Loose<T>): T {
  const out = structuredClone(record) as Record<string, unknown>;
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as T;
}

/** What every new call row takes from the pass's call: which call it is, never replayed yet. */
function newRow(
  call: JournaledCall,
): Pick<CallJournalRecord, "seq" | "connector" | "method" | "argsText" | "replayedCount" | "cost"> {
  return {
    seq: call.seq,
    connector: call.connector,
    method: call.method,
    argsText: call.argsText,
    replayedCount: 0,
    ...(call.cost === undefined ? {} : { cost: call.cost }),
  };
}

/** The digests of a module record (`{ v: 1, modules: { specifier: digest } }`), as the libSQL store's JSON reads it. */
function recordedDigests(modulesText: string | undefined): string[] {
  if (modulesText === undefined) return [];
  const record = JSON.parse(modulesText) as { modules?: Record<string, string> };
  return Object.values(record.modules ?? {});
}

const INTERRUPTED_CALL =
  "interrupted: the process running this call stopped before recording its outcome; it is not run again";

/** A fresh, empty store of runtime name `runtime`. */
export function createMemoryJournalStore({ runtime = "default" }: { runtime?: string } = {}): MemoryJournalStore {
  const executions = new Map<string, StoredExecution>();
  const snippets = new Map<string, SnippetRecord>();
  const vectors = new Map<string, Float32Array>();
  const moduleSources = new Map<string, string>();
  let order = 0;
  let failure: unknown;
  let writes = 0;

  /** Runs one write transaction: all of `change` or, when writes fail, none of it. */
  const write = async <T>(change: () => T): Promise<T> => {
    await Promise.resolve();
    if (failure !== undefined) throw failure;
    writes += 1;
    return change();
  };
  const read = async <T>(value: () => T): Promise<T> => {
    await Promise.resolve();
    return value();
  };
  const isTerminal = (stored: StoredExecution) => TERMINAL_EXECUTION_STATUSES.includes(stored.execution.status);
  const newestFirst = (a: StoredExecution, b: StoredExecution) =>
    b.execution.createdAt - a.execution.createdAt || b.order - a.order;
  const endedFirst = (a: StoredExecution, b: StoredExecution) =>
    a.execution.updatedAt - b.execution.updatedAt || a.order - b.order;
  /** What one part of `rule` selects (`owner` undefined: the age part), oldest ended first, at most `rule.limit`. */
  const selected = (rule: PruneRule, part: { owner: string | null } | "age"): StoredExecution[] => {
    const ended = [...executions.values()].filter(isTerminal).sort(endedFirst);
    if (part === "age") {
      const before = Math.min(rule.endedBefore, rule.expiredBefore ?? rule.endedBefore);
      return ended.filter((stored) => stored.execution.updatedAt < before).slice(0, rule.limit);
    }
    const owned = ended.filter((stored) => (stored.execution.scope ?? null) === part.owner);
    return owned
      .slice(0, Math.max(0, owned.length - (rule.keepPerOwner ?? 0)))
      .filter((stored) => stored.execution.updatedAt < rule.endedBefore)
      .slice(0, rule.limit);
  };
  const remove = (stored: StoredExecution[]): string[] => {
    for (const each of stored) executions.delete(each.execution.executionId);
    return stored.map((each) => each.execution.executionId);
  };
  const pruneAtStart = (rule: PruneRule, owner: string | null): string[] => [
    ...(rule.keepPerOwner === undefined ? [] : remove(selected(rule, { owner }))),
    ...(rule.expiredBefore === undefined ? [] : remove(selected(rule, "age"))),
  ];
  const prune = (rule: PruneRule): string[] => {
    const deleted = rule.expiredBefore === undefined ? [] : remove(selected(rule, "age"));
    if (rule.keepPerOwner === undefined) return deleted;
    const owners = new Set<string | null>([null]);
    for (const stored of executions.values()) if (isTerminal(stored)) owners.add(stored.execution.scope ?? null);
    for (const owner of owners) deleted.push(...remove(selected(rule, { owner })));
    return deleted;
  };
  const clear = (): string[] => remove([...executions.values()].filter(isTerminal).sort((a, b) => a.order - b.order));
  const sortedSnippets = () =>
    [...snippets.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((snippet) => copy<SnippetRecord>(snippet));
  /** The execution when `token` holds its lease (and, for a pass, it is running). */
  const leased = (executionId: string, token: string, running: boolean): StoredExecution | undefined => {
    const stored = executions.get(executionId);
    if (stored === undefined || stored.execution.leaseToken !== token) return undefined;
    return running && stored.execution.status !== "running" ? undefined : stored;
  };

  function passJournal(lease: PassLease): PassJournal {
    /** A queued write: changes the journal if the lease still holds; false when it changed nothing it had to. */
    type Queued = { apply: (stored: StoredExecution) => boolean; expectRow: boolean };
    let queue: Queued[] = [];
    let writeFailure: unknown;
    let lostRows = 0;
    const holder = () => leased(lease.executionId, lease.leaseToken, true);
    /** Commits the queue, then `last`, as one transaction; the result of `last`. */
    const commit = async <T>(last: (stored: StoredExecution | undefined) => T): Promise<T> => {
      const items = queue;
      queue = [];
      try {
        return await write(() => {
          for (const item of items) {
            const stored = holder();
            if ((stored === undefined || !item.apply(stored)) && item.expectRow) lostRows += 1;
          }
          return last(holder());
        });
      } catch (error) {
        writeFailure ??= error;
        throw error;
      }
    };
    const defer = (apply: Queued["apply"], expectRow = true) => {
      queue.push({ apply, expectRow });
    };
    const settle =
      (
        seq: number,
        change: { status: "applied" | "error"; resultText?: string | undefined; error?: string; finishedAt: number },
      ) =>
      (stored: StoredExecution) => {
        const call = stored.calls.get(seq);
        if (call?.status !== "executing") return false;
        stored.calls.set(seq, copy<CallJournalRecord>({ ...call, ...change }));
        return true;
      };
    const insert = (stored: StoredExecution, row: Loose<CallJournalRecord>): boolean => {
      if (stored.calls.has(row.seq)) return false;
      stored.calls.set(row.seq, copy(row));
      return true;
    };
    const end = (stored: StoredExecution | undefined, passEnd: PassEnd): boolean => {
      if (stored === undefined) return false;
      stored.execution = copy<ExecutionRecord>({
        ...stored.execution,
        status: passEnd.status,
        resultText: passEnd.resultText,
        logs: passEnd.logs,
        error: passEnd.error,
        kind: passEnd.kind,
        updatedAt: passEnd.now,
        leaseToken: undefined,
        leaseUntil: undefined,
        modulesText: passEnd.modulesText ?? stored.execution.modulesText,
      });
      for (const kept of passEnd.moduleSources ?? [])
        if (!moduleSources.has(kept.digest)) moduleSources.set(kept.digest, kept.source);
      if (passEnd.releaseModules === true) {
        const unfinished = [...executions.values()].filter((other) => other !== stored && !isTerminal(other));
        const used = new Set(unfinished.flatMap((other) => recordedDigests(other.execution.modulesText)));
        for (const digest of moduleSources.keys()) if (!used.has(digest)) moduleSources.delete(digest);
      }
      return true;
    };
    return {
      insertCall: (call) =>
        commit((stored) =>
          stored === undefined
            ? false
            : insert(stored, {
                ...newRow(call),
                status: call.status,
                replay: "record",
                needsApproval: call.needsApproval,
                ...(call.status === "pending" ? {} : { startedAt: call.now }),
              }),
        ),
      applyCall: ({ seq, resultText, now }) => defer(settle(seq, { status: "applied", resultText, finishedAt: now })),
      failCall: ({ seq, error, now }) => defer(settle(seq, { status: "error", error, finishedAt: now })),
      recordRead: (call) =>
        defer((stored) =>
          insert(stored, {
            ...newRow(call),
            replay: "record",
            needsApproval: false,
            startedAt: call.startedAt,
            finishedAt: call.now,
            ...("error" in call
              ? { status: "error" as const, error: call.error }
              : { status: "applied" as const, resultText: call.resultText }),
          }),
        ),
      beginStep: (step) =>
        defer((stored) =>
          insert(stored, {
            ...newRow(step),
            status: "executing",
            replay: "record",
            needsApproval: false,
            startedAt: step.now,
          }),
        ),
      logReexecuted: (call) =>
        defer((stored) =>
          insert(stored, {
            ...newRow(call),
            status: "applied",
            replay: "reexecute",
            needsApproval: false,
            startedAt: call.now,
            finishedAt: call.now,
          }),
        ),
      startApprovedCall: ({ seq, now }) =>
        commit((stored) => {
          const call = stored?.calls.get(seq);
          if (stored === undefined || call?.status !== "pending" || call.approvedAt === undefined) return false;
          stored.calls.set(seq, { ...call, status: "executing", startedAt: now });
          return true;
        }),
      dropStep: ({ seq }) =>
        defer((stored) => stored.calls.get(seq)?.status === "executing" && stored.calls.delete(seq), false),
      failUnreachedApprovals: ({ seqs, reason, now }) =>
        defer((stored) => {
          for (const seq of seqs) {
            const call = stored.calls.get(seq);
            if (call?.status === "pending" && call.approvedAt !== undefined)
              stored.calls.set(seq, { ...call, status: "error", error: reason, finishedAt: now });
          }
          return true;
        }, false),
      countReplays: ({ seqs }) =>
        defer((stored) => {
          for (const seq of seqs) {
            const call = stored.calls.get(seq);
            if (call !== undefined) stored.calls.set(seq, { ...call, replayedCount: call.replayedCount + 1 });
          }
          return true;
        }, false),
      renewLease({ leaseUntil }) {
        defer((stored) => {
          stored.execution = { ...stored.execution, leaseUntil };
          return true;
        });
        commit(() => undefined).catch(() => {
          // Reported by `failure` and `flush`, as the libSQL writer does.
        });
      },
      finish: (passEnd) => commit((stored) => end(stored, passEnd)),
      finishAfterFailure: (passEnd) => write(() => void end(holder(), passEnd)),
      async flush() {
        if (queue.length > 0) await commit(() => undefined);
        if (writeFailure !== undefined) throw writeFailure;
      },
      get failure() {
        return writeFailure;
      },
      get lostRows() {
        return lostRows;
      },
    };
  }

  return {
    runtime,
    failWrites(error) {
      failure = error;
    },
    get writes() {
      return writes;
    },
    close() {},

    startExecution: (start) =>
      write(() => {
        const awaiting = start.programApproval !== undefined;
        const calls = new Map<number, CallJournalRecord>();
        if (start.programApproval !== undefined) {
          calls.set(WHOLE_PROGRAM_SEQ, {
            seq: WHOLE_PROGRAM_SEQ,
            ...start.programApproval,
            status: "pending",
            replay: "record",
            needsApproval: true,
            replayedCount: 0,
          });
        }
        const execution = copy<ExecutionRecord>({
          runtime,
          executionId: start.executionId,
          status: awaiting ? "paused" : "running",
          code: start.code,
          connectors: start.connectors,
          createdAt: start.now,
          updatedAt: start.now,
          passes: awaiting ? 0 : 1,
          logs: [],
          leaseToken: awaiting ? undefined : start.leaseToken,
          leaseUntil: awaiting ? undefined : start.leaseUntil,
          toolCallId: start.toolCallId,
          scope: start.scope,
          traceContext: start.traceContext,
          budgetsText: start.budgetsText,
        });
        if (executions.has(start.executionId)) throw new Error(`execution ${start.executionId} exists`);
        executions.set(start.executionId, { execution, calls, order: order++ });
        pruneAtStart(start.prune, start.scope ?? null);
        return sortedSnippets();
      }),
    load: (executionId) =>
      read(() => {
        const stored = executions.get(executionId);
        if (stored === undefined) return undefined;
        const calls = [...stored.calls.values()]
          .sort((a, b) => a.seq - b.seq)
          .map((call) => copy<CallJournalRecord>(call));
        return { execution: copy<ExecutionRecord>(stored.execution), calls };
      }),
    claimAbandoned: (claim) =>
      write(() => {
        const stored = executions.get(claim.executionId);
        const { status, passes, leaseUntil } = stored?.execution ?? {};
        if (status !== "running" || passes !== claim.passes || leaseUntil === undefined || leaseUntil >= claim.now)
          return undefined;
        stored!.execution = {
          ...stored!.execution,
          leaseToken: claim.leaseToken,
          leaseUntil: claim.leaseUntil,
          passes: claim.passes + 1,
          updatedAt: claim.now,
        };
        return sortedSnippets();
      }),
    claimPaused: (claim) =>
      write(() => {
        const stored = executions.get(claim.executionId);
        if (stored?.execution.status !== "paused" || stored.execution.passes !== claim.passes) return undefined;
        stored.execution = {
          ...stored.execution,
          status: "running",
          leaseToken: claim.leaseToken,
          leaseUntil: claim.leaseUntil,
          passes: stored.execution.passes + 1,
          updatedAt: claim.now,
        };
        const undecided = (call: CallJournalRecord) => call.status === "pending" && call.approvedAt === undefined;
        for (const call of stored.calls.values()) {
          if (!undecided(call)) continue;
          if (claim.decisions === undefined) {
            if (claim.seq === undefined || claim.seq === call.seq)
              stored.calls.set(call.seq, copy({ ...call, approvedAt: claim.now, decidedBy: claim.decidedBy }));
          } else if (claim.decisions.approve.includes(call.seq)) {
            stored.calls.set(call.seq, copy({ ...call, approvedAt: claim.now, decidedBy: claim.decidedBy }));
          } else {
            const rejected = claim.decisions.reject.find((decision) => decision.seq === call.seq);
            if (rejected !== undefined)
              stored.calls.set(
                call.seq,
                copy({
                  ...call,
                  status: "error",
                  error: rejected.error,
                  finishedAt: claim.now,
                  decidedBy: claim.decidedBy,
                }),
              );
          }
        }
        for (const edit of claim.edits ?? []) {
          const call = stored.calls.get(edit.seq);
          if (call?.status === "pending" && call.approvedAt === claim.now)
            stored.calls.set(edit.seq, {
              ...call,
              approvedArgsText: edit.argsText,
              ...(edit.cost === undefined ? {} : { cost: edit.cost }),
            });
        }
        const program = stored.calls.get(WHOLE_PROGRAM_SEQ);
        if (program?.status === "pending" && program.approvedAt === claim.now)
          stored.calls.set(WHOLE_PROGRAM_SEQ, {
            ...program,
            status: "applied",
            startedAt: claim.now,
            finishedAt: claim.now,
          });
        return sortedSnippets();
      }),
    rejectPaused: (reject) =>
      write(() => {
        const stored = executions.get(reject.executionId);
        if (stored?.execution.status !== "paused") return false;
        stored.execution = copy<ExecutionRecord>({
          ...stored.execution,
          status: "rejected",
          error: reject.reason,
          kind: "rejected",
          updatedAt: reject.now,
          leaseToken: undefined,
          leaseUntil: undefined,
        });
        for (const call of stored.calls.values())
          if (call.status === "pending")
            stored.calls.set(
              call.seq,
              copy({
                ...call,
                status: "error",
                error: reject.reason,
                finishedAt: reject.now,
                decidedBy: reject.decidedBy,
              }),
            );
        return true;
      }),
    list: (limit, scope) =>
      read(() =>
        [...executions.values()]
          .filter((stored) => scope === undefined || stored.execution.scope === scope)
          .sort(newestFirst)
          .slice(0, limit)
          .map((stored) => copy<ExecutionRecord>(stored.execution)),
      ),
    pending: (executionId, scope) =>
      read(() =>
        [...executions.values()]
          .filter(
            (stored) =>
              stored.execution.status === "paused" &&
              (executionId === undefined || stored.execution.executionId === executionId) &&
              (scope === undefined || stored.execution.scope === scope),
          )
          .sort(
            (a, b) =>
              a.execution.createdAt - b.execution.createdAt ||
              (a.execution.executionId < b.execution.executionId ? -1 : 1),
          )
          .flatMap((stored) =>
            [...stored.calls.values()]
              .filter((call) => call.status === "pending" && call.approvedAt === undefined)
              .sort((a, b) => a.seq - b.seq)
              .map((call) => ({ executionId: stored.execution.executionId, call: copy<CallJournalRecord>(call) })),
          ),
      ),
    passJournal,
    moduleSources: (digests) =>
      read(
        () =>
          new Map(
            digests.flatMap((digest) => {
              const source = moduleSources.get(digest);
              return source === undefined ? [] : [[digest, source] as const];
            }),
          ),
      ),

    claimForRollback: (claim) =>
      write(() => {
        const stored = executions.get(claim.executionId);
        const { execution } = stored ?? {};
        if (stored === undefined || execution?.status !== claim.status) return false;
        if (execution.leaseToken !== undefined && (execution.leaseUntil ?? 0) >= claim.now) return false;
        stored.execution = { ...execution, leaseToken: claim.token, leaseUntil: claim.leaseUntil };
        return true;
      }),
    markReverting: (mark) =>
      write(() => {
        const call = leased(mark.executionId, mark.token, false)?.calls.get(mark.seq);
        if (call?.status !== "applied" || call.error !== undefined) return false;
        executions.get(mark.executionId)?.calls.set(mark.seq, { ...call, error: mark.note });
        return true;
      }),
    clearReverting: (mark) =>
      write(() => {
        const stored = leased(mark.executionId, mark.token, false);
        const call = stored?.calls.get(mark.seq);
        if (call?.status === "applied")
          stored?.calls.set(mark.seq, copy<CallJournalRecord>({ ...call, error: undefined }));
      }),
    markReverted: (mark) =>
      write(() => {
        const stored = leased(mark.executionId, mark.token, false);
        const call = stored?.calls.get(mark.seq);
        if (stored === undefined || call?.status !== "applied") return false;
        stored.calls.set(
          mark.seq,
          copy<CallJournalRecord>({ ...call, status: "reverted", error: undefined, finishedAt: mark.now }),
        );
        return true;
      }),
    finishRollback: (finish) =>
      write(() => {
        const stored = leased(finish.executionId, finish.token, false);
        if (stored === undefined) return;
        stored.execution = copy<ExecutionRecord>({
          ...stored.execution,
          ...(finish.rolledBack ? { status: "rolled_back" as const, updatedAt: finish.now } : {}),
          leaseToken: undefined,
          leaseUntil: undefined,
        });
      }),

    deleteExecution: (executionId) => write(() => executions.delete(executionId)),
    prune: (rule) => write(() => prune(rule)),
    clearHistory: () => write(clear),
    expire: ({ now, pausedBefore, runningMessage, pausedMessage }) =>
      write(() => {
        const expired: ExpiredExecution[] = [];
        for (const stored of executions.values()) {
          const { execution } = stored;
          const dead =
            execution.status === "running" && execution.leaseUntil !== undefined && execution.leaseUntil < now;
          const stale = execution.status === "paused" && execution.updatedAt < pausedBefore;
          if (!dead && !stale) continue;
          for (const call of stored.calls.values()) {
            if (dead && call.status === "executing")
              stored.calls.set(call.seq, { ...call, status: "error", error: INTERRUPTED_CALL, finishedAt: now });
            if (stale && call.status === "pending")
              stored.calls.set(call.seq, { ...call, status: "error", error: pausedMessage, finishedAt: now });
          }
          stored.execution = copy<ExecutionRecord>({
            ...execution,
            status: dead ? ("error" as const) : ("rejected" as const),
            kind: "expired" as const,
            error: dead ? runningMessage : pausedMessage,
            updatedAt: now,
            ...(dead ? { leaseToken: undefined, leaseUntil: undefined } : {}),
          });
          expired.push({ executionId: execution.executionId, status: dead ? "error" : "rejected" });
        }
        // As the libSQL store reports them: the dead running runs first, then the stale paused ones.
        return [
          ...expired.filter((item) => item.status === "error"),
          ...expired.filter((item) => item.status === "rejected"),
        ];
      }),
    deleteAllData: () =>
      write(() => {
        const unfinished = [...executions.values()]
          .filter((stored) => !isTerminal(stored))
          .map((stored) => stored.execution.executionId);
        executions.clear();
        snippets.clear();
        moduleSources.clear();
        return unfinished;
      }),

    saveSnippet: (snippet) =>
      write(() => {
        snippets.set(snippet.name, copy<SnippetRecord>(snippet));
      }),
    snippets: () => read(sortedSnippets),
    deleteSnippet: (name) => write(() => snippets.delete(name)),

    searchVectors: (model, textHashes) =>
      read(() =>
        textHashes.flatMap((textHash): SearchVector[] => {
          const vector = vectors.get(`${model}\n${textHash}`);
          return vector === undefined ? [] : [{ textHash, vector: new Float32Array(vector) }];
        }),
      ),
    saveSearchVectors: (model, saved) =>
      write(() => {
        for (const { textHash, vector } of saved) vectors.set(`${model}\n${textHash}`, new Float32Array(vector));
      }),
  };
}
