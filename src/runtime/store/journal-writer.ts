/**
 * Group commit for a pass's journal writes. Deferred statements (a call's
 * `applied` row, replay counters) wait in a queue and ride along with the next
 * durable write (a call's `executing` row, a pause, the pass's end), so a
 * sequential program costs one round trip per connector call, and calls issued
 * together share one. Every flush is a single `batch()` in write mode: one
 * round trip, all or nothing.
 */
import type { Client, InStatement, ResultSet } from "@libsql/client";

interface Queued {
  statement: InStatement;
  /** Resolves with the statement's own result once its batch committed. */
  resolve?: (result: ResultSet) => void;
  reject?: (error: unknown) => void;
  /** A deferred statement that must change a row; zero rows means the lease was lost. */
  expectRow: boolean;
}

/** Queues and flushes journal statements for one pass. */
export class JournalWriter {
  readonly #client: Client;
  #queue: Queued[] = [];
  #flushing: Promise<void> | undefined;
  #failure: unknown;
  #lostRows = 0;
  #statements = 0;
  #roundTrips = 0;

  constructor(client: Client) {
    this.#client = client;
  }

  /** Queues a statement to commit with the next durable write. */
  defer(statement: InStatement, { expectRow = true }: { expectRow?: boolean } = {}): void {
    this.#queue.push({ statement, expectRow });
  }

  /** Commits everything queued plus `statement` in one batch; resolves with `statement`'s result. */
  commit(statement: InStatement): Promise<ResultSet> {
    return new Promise<ResultSet>((resolve, reject) => {
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
      this.#statements += items.length;
      this.#roundTrips += 1;
      let results: ResultSet[];
      try {
        results = items.length === 1 && items[0] !== undefined
          ? [await this.#client.execute(items[0].statement)]
          : await this.#client.batch(items.map((item) => item.statement), "write");
      } catch (error) {
        this.#failure ??= error;
        for (const item of items) item.reject?.(error);
        continue;
      }
      items.forEach((item, index) => {
        const result = results[index];
        if (result === undefined) {
          item.reject?.(new Error("libSQL batch returned fewer results than statements"));
          return;
        }
        if (item.expectRow && result.rowsAffected === 0) this.#lostRows += 1;
        item.resolve?.(result);
      });
    }
  }
}
