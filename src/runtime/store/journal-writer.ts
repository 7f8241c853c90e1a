/**
 * Group commit for a pass's journal writes. A durable write (`commit`: a call's
 * `executing` or `pending` row, an approved call starting, the pass's end) is
 * sent at once, together with everything queued. A deferred write (`defer`: a
 * call's `applied` or `error` row, replay counters, lease renewals) rides along
 * with the next durable write, so a sequential program costs one statement and
 * one round trip per connector call with effects, and calls issued together share
 * one: while other calls are in flight a flush waits one macrotask, so that every
 * call of a `Promise.all` joins it.
 * A read-only call's row (`applied` or `error` with its result) and a step's
 * `executing` row are deferred too, so reads and steps cost no round trip of their own. (A
 * pass that dies loses at most the `applied` row of its last call: that call
 * stays `executing` and is never run again.) Every flush is one round trip, all
 * or nothing: the call-row writes merged into upsert statements of at most
 * {@link MAX_ROWS_PER_STATEMENT} rows, plus any other statements, in one
 * `batch()` (or one `execute()` when there is a single statement). No flush
 * carries much more than {@link MAX_FLUSH_CHARS}: held rows past it are sent
 * at once, and a longer queue goes in several round trips, in order.
 */
import type { InStatement, SqlClient } from "./connection/sql-client.js";
import { callRowsStatement, isCallRowWrite, type CallRowWrite } from "./call-statements.js";
import type { PassLease } from "../journal/journal-store.js";

/** Call rows per upsert statement (SQLite caps compound SELECTs at 500 terms). */
export const MAX_ROWS_PER_STATEMENT = 100;

/**
 * Characters of held statements (SQL, arguments, a row's arguments and result) sent in one round trip. A program
 * may read a thousand results of up to a million characters each before its next write; held until then, they
 * would make one request of a gigabyte, which no database or proxy accepts. A few MB keeps a flush one request
 * for any ordinary program and a remote request of a size every server takes.
 */
export const MAX_FLUSH_CHARS = 4_000_000;

/** The characters a statement puts on the wire, roughly (strings only: numbers and nulls are small). */
function charsOf(statement: InStatement | CallRowWrite): number {
  if (isCallRowWrite(statement)) {
    const { argsText, resultText, error, connector, method } = statement;
    return argsText.length + (resultText?.length ?? 0) + (error?.length ?? 0) + connector.length + method.length;
  }
  if (typeof statement === "string") return statement.length;
  const args = statement.args === undefined ? [] : Object.values(statement.args);
  return args.reduce<number>(
    (sum, value) => sum + (typeof value === "string" ? value.length : 8),
    statement.sql.length,
  );
}

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
  /** {@link charsOf} the statement. */
  chars: number;
}

/** Queues and flushes journal statements for one pass. */
export class JournalWriter {
  readonly #client: SqlClient;
  readonly #lease: PassLease | undefined;
  #queue: Queued[] = [];
  /** Characters queued (the held rows' weight). */
  #queuedChars = 0;
  #flushing: Promise<void> | undefined;
  #failure: unknown;
  #lostRows = 0;
  #statements = 0;
  #roundTrips = 0;

  /** `lease` is required to write call rows (it guards them). */
  constructor(client: SqlClient, lease?: PassLease) {
    this.#client = client;
    this.#lease = lease;
  }

  /**
   * Queues a statement to commit with the next durable write; `send: true` starts that write now (without
   * waiting for it: a failure is reported by `failure` and `flush`, a changed-nothing by `lostRows`).
   */
  defer(
    statement: InStatement | CallRowWrite,
    { expectRow = true, send = false }: { expectRow?: boolean; send?: boolean } = {},
  ): void {
    this.#enqueue({ statement, expectRow, chars: charsOf(statement) });
    // Held rows past the flush size go now, not with the next durable write.
    if (send || this.#queuedChars >= MAX_FLUSH_CHARS) this.#schedule();
  }

  /**
   * Commits everything queued, then `statement`, in one round trip; resolves with `statement`'s result.
   * `gather: true` (other calls of the pass are in flight) waits one macrotask before sending, so that the calls
   * issued together (`Promise.all`) join the same write; a sequential program sends at once.
   */
  commit(statement: InStatement | CallRowWrite, { gather = false }: { gather?: boolean } = {}): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      this.#enqueue({ statement, resolve, reject, expectRow: false, chars: charsOf(statement) });
      this.#schedule(gather);
    });
  }

  /** Commits everything still queued. Rejects if any batch failed. */
  async flush(): Promise<void> {
    while (this.#queue.length > 0 || this.#flushing !== undefined) {
      if (this.#flushing === undefined) this.#schedule();
      await this.#flushing;
    }
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

  /** Round trips (one `execute` or one `batch`) so far. */
  get roundTrips(): number {
    return this.#roundTrips;
  }

  #enqueue(item: Queued): void {
    this.#queue.push(item);
    this.#queuedChars += item.chars;
  }

  /** The queue's head up to {@link MAX_FLUSH_CHARS} (at least one statement), taken off the queue. */
  #takeFlush(): Queued[] {
    let count = 0;
    let chars = 0;
    for (const item of this.#queue) {
      if (count > 0 && chars + item.chars > MAX_FLUSH_CHARS) break;
      chars += item.chars;
      count += 1;
    }
    this.#queuedChars -= chars;
    return this.#queue.splice(0, count);
  }

  #schedule(gather = false): void {
    if (this.#flushing !== undefined) return;
    // Gathering waits one macrotask: calls issued together reach the writer within it and share one write.
    const start = gather
      ? new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain())
      : this.#drain();
    this.#flushing = start.finally(() => {
      this.#flushing = undefined;
      if (this.#queuedChars >= MAX_FLUSH_CHARS || this.#queue.some((item) => item.resolve !== undefined))
        this.#schedule();
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const items = this.#takeFlush();
      const rows = items.filter((item) => isCallRowWrite(item.statement));
      const others = items.filter((item) => !isCallRowWrite(item.statement));
      const chunks: Queued[][] = [];
      for (let start = 0; start < rows.length; start += MAX_ROWS_PER_STATEMENT)
        chunks.push(rows.slice(start, start + MAX_ROWS_PER_STATEMENT));
      const statements: InStatement[] = [];
      if (chunks.length > 0 && this.#lease === undefined) throw new Error("JournalWriter: call rows need a lease");
      for (const chunk of chunks)
        statements.push(
          callRowsStatement(
            this.#lease as PassLease,
            chunk.map((item) => item.statement as CallRowWrite),
          ),
        );
      for (const item of others) statements.push(item.statement as InStatement);
      this.#statements += statements.length;
      this.#roundTrips += 1;
      let results: Array<{ rowsAffected: number }>;
      try {
        results =
          statements.length === 1 && statements[0] !== undefined
            ? [await this.#client.execute(statements[0])]
            : await this.#client.batch(statements, "write");
      } catch (error) {
        this.#failure ??= error;
        for (const item of items) item.reject?.(error);
        continue;
      }
      chunks.forEach((chunk, index) => {
        // A merged write applied whole, or is reported failed for every row (its guard is the lease).
        const applied = results[index]?.rowsAffected === chunk.length;
        for (const item of chunk) this.#settle(item, { rowsAffected: applied ? 1 : 0 });
      });
      others.forEach((item, index) => {
        const result = results[index + chunks.length];
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
