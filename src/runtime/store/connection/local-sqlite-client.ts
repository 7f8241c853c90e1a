/**
 * The embedded database's connection: one `libsql` connection (the native
 * driver inside `@libsql/client`) behind the same `execute`/`batch` surface the
 * store uses with every client, plus a cache of prepared statements.
 *
 * Why not `@libsql/client` itself for `file:` URLs: its `execute` prepares the
 * statement anew on every call and tells writes from reads by catching an
 * exception, which measured ~90 of the ~160 µs a journaled connector call
 * spent in the driver (docs/decisions/durable-runtime.md). The store issues
 * a few dozen statement shapes over and over, so a cached statement is the
 * cheapest durable write SQLite offers. Semantics are `@libsql/client`'s:
 * `batch()` is one transaction (`BEGIN IMMEDIATE` for `"write"`), all or
 * nothing; integers come back as numbers; errors carry SQLite's code.
 *
 * A statement that fails with `SQLITE_BUSY` (another process held the lock
 * past the busy timeout) stays "in progress" on its connection until it is
 * finalized, and the driver offers no reset: every later COMMIT on that
 * connection would fail. So after any failure other than a constraint
 * violation the connection is closed and the next request opens a fresh one
 * (a file database only; an in-memory database lives in its one connection).
 */
import { createRequire } from "node:module";
import type Database from "libsql";
import type { InStatement, InValue, SqlClient, SqlResult, SqlRow } from "./sql-client.js";

/**
 * `libsql` is CommonJS: `require` loads it without the ES module loader's pass over its source and the wrapper
 * around it, which cost a cold start more than the native driver itself.
 */
const Driver = createRequire(import.meta.url)("libsql") as typeof Database;

/** Prepared statements kept per connection (the store uses a few dozen shapes). */
export const STATEMENT_CACHE_SIZE = 128;

type BatchMode = "write" | "read" | "deferred";

const BEGIN: Record<BatchMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN DEFERRED",
  deferred: "BEGIN DEFERRED",
};

/** Options of {@link LocalSqliteClient}. */
export interface LocalSqliteClientOptions {
  /** Busy timeout in ms: how long a statement waits for another connection's lock. */
  timeout: number;
  /** Per-connection settings run on every connection this client opens (e.g. `PRAGMA synchronous=NORMAL`). */
  pragmas?: readonly string[];
}

function toSqlValue(value: InValue): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    return value;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

function argsOf(statement: InStatement): unknown[] | Record<string, unknown> {
  if (typeof statement === "string") return [];
  const { args } = statement;
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(toSqlValue);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    named[/^[@$:]/.test(name) ? name.slice(1) : name] = toSqlValue(value);
  }
  return named;
}

/** A failure that may leave a statement in progress: any SQLite error but a constraint violation. */
function spoilsConnection(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") && !code.startsWith("SQLITE_CONSTRAINT");
}

/** A `file:` or `:memory:` database on one native connection with cached statements. */
export class LocalSqliteClient implements SqlClient {
  /** As `@libsql/client` reports it for local databases. */
  readonly protocol = "file";
  readonly #path: string;
  readonly #options: LocalSqliteClientOptions;
  #db: Database.Database | undefined;
  readonly #statements = new Map<string, Database.Statement>();
  #closed = false;
  #connections = 0;

  /** `path` as SQLite takes it: a file path or `:memory:`. Nothing is opened until the first request. */
  constructor(path: string, options: LocalSqliteClientOptions) {
    this.#path = path;
    this.#options = options;
  }

  /** Connections opened so far (a new one after each failure that spoils the previous). */
  get connectionsOpened(): number {
    return this.#connections;
  }

  execute(statement: InStatement): Promise<SqlResult> {
    try {
      return Promise.resolve(this.#run(statement));
    } catch (error) {
      this.#afterFailure(error);
      return Promise.reject(error as Error);
    }
  }

  batch(statements: InStatement[], mode: BatchMode = "deferred"): Promise<SqlResult[]> {
    try {
      this.#prepare(BEGIN[mode]).run();
      try {
        const results = statements.map((statement) => this.#run(statement));
        this.#prepare("COMMIT").run();
        return Promise.resolve(results);
      } catch (error) {
        // SQLite may already have rolled back; otherwise undo everything this batch did.
        if (this.#db?.inTransaction === true) this.#db.exec("ROLLBACK");
        throw error;
      }
    } catch (error) {
      this.#afterFailure(error);
      return Promise.reject(error as Error);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#dropConnection();
  }

  #connection(): Database.Database {
    if (this.#closed) throw new Error("The database connection is closed");
    if (this.#db !== undefined) return this.#db;
    const db = new Driver(this.#path, { timeout: this.#options.timeout });
    this.#connections += 1;
    try {
      for (const pragma of this.#options.pragmas ?? []) db.exec(pragma);
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    return db;
  }

  #afterFailure(error: unknown): void {
    if (this.#path !== ":memory:" && spoilsConnection(error)) this.#dropConnection();
  }

  #dropConnection(): void {
    this.#statements.clear();
    const db = this.#db;
    this.#db = undefined;
    try {
      db?.close();
    } catch {
      // Closing rolls back whatever is open; a connection that cannot even close is gone anyway.
    }
  }

  #prepare(sql: string): Database.Statement {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      // Least recently used goes first: move a hit to the end.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = this.#connection().prepare(sql);
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  #run(statement: InStatement): SqlResult {
    const prepared = this.#prepare(typeof statement === "string" ? statement : statement.sql);
    const args = argsOf(statement);
    if (prepared.reader) return { rows: prepared.all(args) as SqlRow[], rowsAffected: 0 };
    return { rows: [], rowsAffected: prepared.run(args).changes };
  }
}
