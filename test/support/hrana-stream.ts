/**
 * One Hrana stream of the test server (test/support/hrana-server.ts): a
 * `libsql` connection on the database file and the stream requests run on it
 * (`execute`, `batch` with step conditions, `sequence`, `store_sql`,
 * `close_sql`, `get_autocommit`, `close`), with Hrana's JSON value encoding:
 * integers as decimal strings, floats as numbers, text, blobs in base64, null.
 * Shapes follow docs/HRANA_3_SPEC.md of tursodatabase/libsql (the v2 subset
 * plus `get_autocommit`); see docs/decisions/hrana-test-server.md.
 */
import Database from "libsql";

/** A Hrana value as JSON. */
export type HranaValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };

/** A statement: SQL text or a stored SQL id, with positional or named arguments. */
export interface HranaStmt {
  sql?: string;
  sql_id?: number;
  args?: HranaValue[];
  named_args?: Array<{ name: string; value: HranaValue }>;
  want_rows?: boolean;
}

/** A batch step condition. */
export type HranaCond =
  | { type: "ok"; step: number }
  | { type: "error"; step: number }
  | { type: "not"; cond: HranaCond }
  | { type: "and"; conds: HranaCond[] }
  | { type: "or"; conds: HranaCond[] }
  | { type: "is_autocommit" };

/** A stream request of a pipeline. */
export type HranaStreamRequest =
  | { type: "close" }
  | { type: "execute"; stmt: HranaStmt }
  | { type: "batch"; batch: { steps: Array<{ condition?: HranaCond | null; stmt: HranaStmt }> } }
  | { type: "sequence"; sql?: string; sql_id?: number }
  | { type: "store_sql"; sql_id: number; sql: string }
  | { type: "close_sql"; sql_id: number }
  | { type: "get_autocommit" };

/** A statement's result as Hrana reports it. */
export interface HranaStmtResult {
  cols: Array<{ name: string; decltype: string | null }>;
  rows: HranaValue[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
}

/** A Hrana error: a message and a code (`SQLITE_CONSTRAINT`, `SQL_NO_STATEMENT`, …). */
export interface HranaError {
  message: string;
  code: string;
}

/** The result of one stream request. */
export type HranaStreamResult =
  | { type: "ok"; response: Record<string, unknown> & { type: string } }
  | { type: "error"; error: HranaError };

/** A failure reported to the client as a Hrana error (not an HTTP failure). */
export class HranaRequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function primaryCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return "SQLITE_UNKNOWN";
  // sqld reports primary result codes ("SQLITE_CONSTRAINT", not "SQLITE_CONSTRAINT_PRIMARYKEY").
  const match = /^SQLITE_[A-Z]+/.exec(code);
  return match === null ? code : match[0];
}

/** The Hrana error of a thrown value. */
export function toHranaError(error: unknown): HranaError {
  if (error instanceof HranaRequestError) return { message: error.message, code: error.code };
  return { message: error instanceof Error ? error.message : String(error), code: primaryCode(error) };
}

function fromValue(value: HranaValue): unknown {
  switch (value.type) {
    case "null":
      return null;
    case "integer":
      return BigInt(value.value);
    case "float":
      return value.value;
    case "text":
      return value.value;
    case "blob":
      return Buffer.from(value.base64, "base64");
    default:
      throw new HranaRequestError(
        `Unknown value type ${JSON.stringify((value as { type: unknown }).type)}`,
        "ARGS_INVALID",
      );
  }
}

/** Encodes a value read with safe integers on: bigint → integer, number → float. */
export function toValue(value: unknown): HranaValue {
  if (value === null || value === undefined) return { type: "null" };
  if (typeof value === "bigint") return { type: "integer", value: value.toString() };
  if (typeof value === "number") return { type: "float", value };
  if (typeof value === "string") return { type: "text", value };
  if (value instanceof Uint8Array) return { type: "blob", base64: Buffer.from(value).toString("base64") };
  throw new HranaRequestError(`Cannot encode a ${typeof value} value`, "SQLITE_MISMATCH");
}

function bindings(stmt: HranaStmt): unknown[] | Record<string, unknown> {
  const positional = stmt.args ?? [];
  const named = stmt.named_args ?? [];
  if (positional.length > 0 && named.length > 0) {
    throw new HranaRequestError("Statement has both positional and named arguments", "ARGS_BOTH_POSITIONAL_AND_NAMED");
  }
  if (named.length === 0) return positional.map(fromValue);
  const out: Record<string, unknown> = {};
  for (const { name, value } of named) out[/^[@$:]/.test(name) ? name.slice(1) : name] = fromValue(value);
  return out;
}

/** Opens a connection for streams on the database file at `path`. */
export function openConnection(path: string, busyTimeoutMs: number): Database.Database {
  return new Database(path, { timeout: busyTimeoutMs });
}

/** A stream: one connection (handed back to `release` on close), its stored SQL texts, and whether it is closed. */
export class HranaStream {
  readonly #db: Database.Database;
  readonly #release: (db: Database.Database) => void;
  readonly #sqls = new Map<number, string>();
  #closed = false;
  /** A SQLite failure other than a constraint may leave a statement in progress: such a connection is not reused. */
  #spoiled = false;

  constructor(db: Database.Database, release: (db: Database.Database) => void) {
    this.#db = db;
    this.#release = release;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** True outside an explicit transaction. */
  get autocommit(): boolean {
    return !this.#db.inTransaction;
  }

  /** Runs one stream request; a failing request becomes an error result, the stream stays usable. */
  handle(request: HranaStreamRequest): HranaStreamResult {
    try {
      return { type: "ok", response: this.#respond(request) };
    } catch (error) {
      return { type: "error", error: this.#failure(error) };
    }
  }

  #failure(error: unknown): HranaError {
    const reported = toHranaError(error);
    if (reported.code.startsWith("SQLITE_") && reported.code !== "SQLITE_CONSTRAINT") this.#spoiled = true;
    return reported;
  }

  /** Rolls back whatever is open and hands the connection back. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (this.#db.inTransaction) this.#db.exec("ROLLBACK");
      if (this.#spoiled) this.#db.close();
      else this.#release(this.#db);
    } catch {
      this.#db.close();
    }
  }

  #respond(request: HranaStreamRequest): Record<string, unknown> & { type: string } {
    switch (request.type) {
      case "close":
        this.close();
        return { type: "close" };
      case "execute":
        return { type: "execute", result: this.#execute(request.stmt) };
      case "batch":
        return { type: "batch", result: this.#batch(request.batch.steps) };
      case "sequence":
        this.#db.exec(this.#sqlOf(request));
        return { type: "sequence" };
      case "store_sql":
        this.#sqls.set(request.sql_id, request.sql);
        return { type: "store_sql" };
      case "close_sql":
        this.#sqls.delete(request.sql_id);
        return { type: "close_sql" };
      case "get_autocommit":
        return { type: "get_autocommit", is_autocommit: this.autocommit };
      default:
        throw new HranaRequestError(
          `Unknown request type ${JSON.stringify((request as { type: unknown }).type)}`,
          "PROTO_ERROR",
        );
    }
  }

  #sqlOf(source: { sql?: string | undefined; sql_id?: number | undefined }): string {
    if (source.sql !== undefined && source.sql !== null) return source.sql;
    const stored = source.sql_id === undefined ? undefined : this.#sqls.get(source.sql_id);
    if (stored === undefined)
      throw new HranaRequestError(
        `SQL text with id ${String(source.sql_id)} is not stored`,
        "SQL_STORE_DOES_NOT_EXIST",
      );
    return stored;
  }

  #totalChanges(): bigint {
    const statement = this.#db.prepare("SELECT total_changes(), last_insert_rowid()");
    statement.raw(true);
    statement.safeIntegers(true);
    const [row] = statement.all([]) as bigint[][];
    return row?.[0] ?? 0n;
  }

  #execute(stmt: HranaStmt): HranaStmtResult {
    const sql = this.#sqlOf(stmt);
    if (sql.trim() === "") throw new HranaRequestError("SQL string does not contain any statement", "SQL_NO_STATEMENT");
    const statement = this.#db.prepare(sql);
    statement.safeIntegers(true);
    const args = bindings(stmt);
    if (!statement.reader) {
      const info = statement.run(args);
      return { cols: [], rows: [], affected_row_count: info.changes, last_insert_rowid: String(info.lastInsertRowid) };
    }
    statement.raw(true);
    const cols = statement.columns().map((column) => ({ name: column.name, decltype: column.type ?? null }));
    const before = this.#totalChanges();
    const rows = (statement.all(args) as unknown[][]).map((row) => row.map(toValue));
    // A statement with RETURNING is a reader that also writes: report its changes as sqld does.
    const changed = this.#totalChanges() - before;
    return {
      cols,
      rows: stmt.want_rows === false ? [] : rows,
      affected_row_count: Number(changed),
      last_insert_rowid: null,
    };
  }

  #batch(steps: Array<{ condition?: HranaCond | null; stmt: HranaStmt }>): Record<string, unknown> {
    const results: Array<HranaStmtResult | null> = [];
    const errors: Array<HranaError | null> = [];
    steps.forEach((step, index) => {
      const run =
        step.condition === undefined || step.condition === null || this.#holds(step.condition, results, errors, index);
      if (!run) {
        results.push(null);
        errors.push(null);
        return;
      }
      try {
        results.push(this.#execute(step.stmt));
        errors.push(null);
      } catch (error) {
        results.push(null);
        errors.push(this.#failure(error));
      }
    });
    return { step_results: results, step_errors: errors };
  }

  #holds(
    cond: HranaCond,
    results: Array<HranaStmtResult | null>,
    errors: Array<HranaError | null>,
    current: number,
  ): boolean {
    switch (cond.type) {
      case "ok":
      case "error":
        if (cond.step >= current)
          throw new HranaRequestError(
            `Condition refers to step ${cond.step}, not before step ${current}`,
            "BATCH_COND_INVALID",
          );
        return cond.type === "ok" ? results[cond.step] !== null : errors[cond.step] !== null;
      case "not":
        return !this.#holds(cond.cond, results, errors, current);
      case "and":
        return cond.conds.every((inner) => this.#holds(inner, results, errors, current));
      case "or":
        return cond.conds.some((inner) => this.#holds(inner, results, errors, current));
      case "is_autocommit":
        return this.autocommit;
      default:
        throw new HranaRequestError(
          `Unknown condition ${JSON.stringify((cond as { type: unknown }).type)}`,
          "BATCH_COND_INVALID",
        );
    }
  }
}
