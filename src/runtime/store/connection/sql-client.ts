/**
 * The part of a libSQL client the store uses: `execute` and `batch` (one
 * round trip each, so remote Turso behaves like the embedded file) and
 * `close`. An `@libsql/client` Client satisfies it, and so does the embedded
 * database's own connection ({@link LocalSqliteClient}).
 */
import type { InStatement } from "@libsql/client";

/** A result row, by column name. */
export type SqlRow = Record<string, unknown>;

/** What a statement returns. */
export interface SqlResult {
  rows: SqlRow[];
  /** Rows changed by a write without `RETURNING` (0 for reads). */
  rowsAffected: number;
}

/** `execute`/`batch`/`close` of a libSQL client. */
export interface SqlClient {
  execute(statement: InStatement): Promise<SqlResult>;
  /** Runs the statements as one transaction: all or nothing. */
  batch(statements: InStatement[], mode?: "write" | "read" | "deferred"): Promise<SqlResult[]>;
  close(): void;
  /**
   * What stands for the database behind this client when the runtime remembers that its schema is current
   * (a shared connection's handles all name the connection); the client itself when absent.
   */
  readonly database?: object;
}
