/**
 * The part of a libSQL client the store uses: `execute` and `batch` (one
 * round trip each, so remote Turso behaves like the embedded file) and
 * `close`, with the statement types of `@libsql/client` declared here, so the
 * package's types never name that optional peer. An `@libsql/client` Client
 * satisfies it, and so do the embedded database's own connection
 * ({@link LocalSqliteClient}) and the store's Hrana client.
 */

/** A value bound to a statement's parameter (`@libsql/client`'s `InValue`). */
export type InValue = null | string | number | bigint | ArrayBuffer | boolean | Uint8Array | Date;

/** A statement: SQL text, or SQL with positional (`?`) or named (`:name`) arguments (`@libsql/client`'s `InStatement`). */
export type InStatement = string | { sql: string; args?: InValue[] | Record<string, InValue> };

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

/**
 * An `@libsql/client` `Client` as the `store` option takes it: the methods the store calls, so an app passes its
 * own Client and an app without that package still compiles.
 */
export interface LibsqlClient {
  execute(statement: InStatement): Promise<SqlResult>;
  batch(statements: InStatement[], mode?: "write" | "read" | "deferred"): Promise<SqlResult[]>;
  close(): void;
  /** `"file"` for a local database (WAL and the busy timeout then apply), else `"http"`, `"ws"`, …. */
  readonly protocol: string;
}
