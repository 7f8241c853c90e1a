/**
 * Group commit for a pass's journal writes. Deferred statements (a call's
 * `applied` row, replay counters) wait in a queue and ride along with the next
 * durable write (a call's `executing` row, a pause, the pass's end), so a
 * sequential program costs one round trip per connector call, and calls issued
 * together share one. Every flush is one round trip, all or nothing: the
 * call-row writes merged into one upsert statement (a plain `execute`, the
 * cheapest durable write), plus any other statements in one `batch()`.
 */
import type { Client, InStatement } from "@libsql/client";
import { callRowsStatement, isCallRowWrite, type CallRowWrite, type PassLease } from "./call-statements.js";

/** What a committed write reports. */
export interface WriteResult {
  /** Rows the write changed (a call-row write: 1 when it applied, 0 when its guard failed). */
  rowsAffected: number;
}

interface Queued {
  statement: InStatement | CallRowWrite;
  /** Resolves with the statement's own result once its batch committed. */
  resolve?: (result: WriteResult) => void;
  reject?: (error: unknown) => void;
  /** A deferred statement that must change a row; zero rows means the lease was lost. */
  expectRow: boolean;
}

/** Queues and flushes journal statements for one pass. */
export class JournalWriter {
  readonly #client: Client;
  readonly #lease: PassLease | undefined;
  #queue: Queued[] = [];
  #flushing: Promise<void> | undefined;
  #failure: unknown;
  #lostRows = 0;
  #statements = 0;
  #roundTrips = 0;

  /** `lease` is required to write call rows (it guards them). */
  constructor(client: Client, lease?: PassLease) {
    this.#client = client;
    this.#lease = lease;
  }

  /** Queues a statement to commit with the next durable write. */
  defer(statement: InStatement | CallRowWrite, { expectRow = true }: { expectRow?: boolean } = {}): void {
    this.#queue.push({ statement, expectRow });
  }

  /** Commits everything queued plus `statement` in one batch; resolves with `statement`'s result. */
  commit(statement: InStatement | CallRowWrite): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      this.#queue.push({ statement, resolve, reject, expectRow: false });
      this.#schedule();
    });
  }

  /** Commits everything still queued. Rejects if any earlier batch failed. */
  async flush(): Promise<void> {
    if (this.#queue.length > 0) this.#schedule();
    while (this.#flushing !== undefined) await this.#flushing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** The first store failure seen by a batch, if any. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Deferred statements that changed no row (the execution's lease was taken away). */
  get lostRows(): number {
    return this.#lostRows;
  }

  /** Statements sent so far. */
  get statements(): number {
    return this.#statements;
  }

  /** Batches sent so far. */
  get roundTrips(): number {
    return this.#roundTrips;
  }

  #schedule(): void {
    if (this.#flushing !== undefined) return;
    this.#flushing = this.#drain().finally(() => {
      this.#flushing = undefined;
      if (this.#queue.some((item) => item.resolve !== undefined)) this.#schedule();
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const items = this.#queue;
      this.#queue = [];
      const rows = items.filter((item) => isCallRowWrite(item.statement));
      const others = items.filter((item) => !isCallRowWrite(item.statement));
      const statements: InStatement[] = [];
      if (rows.length > 0) {
        if (this.#lease === undefined) throw new Error("JournalWriter: call rows need a lease");
        statements.push(callRowsStatement(this.#lease, rows.map((item) => item.statement as CallRowWrite)));
      }
      for (const item of others) statements.push(item.statement as InStatement);
      this.#statements += statements.length;
      this.#roundTrips += 1;
      let results: Array<{ rowsAffected: number }>;
      try {
        results = statements.length === 1 && statements[0] !== undefined
          ? [await this.#client.execute(statements[0])]
          : await this.#client.batch(statements, "write");
      } catch (error) {
        this.#failure ??= error;
        for (const item of items) item.reject?.(error);
        continue;
      }
      const offset = rows.length > 0 ? 1 : 0;
      // The merged write applied whole, or is reported failed for every row (the guard is the lease).
      const rowsApplied = rows.length > 0 && results[0]?.rowsAffected === rows.length;
      for (const item of rows) this.#settle(item, { rowsAffected: rowsApplied ? 1 : 0 });
      others.forEach((item, index) => {
        const result = results[index + offset];
        if (result === undefined) item.reject?.(new Error("libSQL batch returned fewer results than statements"));
        else this.#settle(item, result);
      });
    }
  }

  #settle(item: Queued, result: WriteResult): void {
    if (item.expectRow && result.rowsAffected === 0) this.#lostRows += 1;
    item.resolve?.({ rowsAffected: result.rowsAffected });
  }
}
