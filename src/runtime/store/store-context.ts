/**
 * What each part of the libSQL journal store shares: the client, the runtime name every row is scoped by, and
 * reads and writes that migrate the schema on first use (once per store; a failed migration is retried). A local
 * database file that does not exist yet is read as empty, without creating it: only a write (a run) creates it,
 * so an approver or a listing opened on the wrong store leaves no stray `.codemode/codemode.db` behind.
 */
import type { InStatement, SqlClient, SqlResult } from "./connection/sql-client.js";
import { migrateStore } from "./migrations.js";
import { TERMINAL_EXECUTION_STATUSES } from "../journal/records.js";

/** The client of one runtime name, behind the migration. */
export interface StoreContext {
  client: SqlClient;
  runtime: string;
  /** Statements as one write transaction. */
  write(statements: InStatement[]): Promise<SqlResult[]>;
  /** Statements as one read transaction. */
  read(statements: InStatement[]): Promise<SqlResult[]>;
  /** One statement (the schema migrated first). */
  execute(statement: InStatement): Promise<SqlResult>;
}

/** `('completed', 'error', …)`: the terminal statuses as an SQL list. */
export const TERMINAL_SQL = `(${TERMINAL_EXECUTION_STATUSES.map((status) => `'${status}'`).join(", ")})`;

/** The `id` column of each row a statement returned. */
export function idsOf(result: SqlResult | undefined): string[] {
  return (result?.rows ?? []).map((row) => String(row["id"]));
}

/** The context for `runtime` on `client`. */
export function createStoreContext({
  client,
  runtime,
  local,
  now,
  missing,
}: {
  client: SqlClient;
  runtime: string;
  local: boolean;
  now: () => number;
  /** Whether the database does not exist yet (`OpenedStore.missing`). */
  missing?: (() => boolean) | undefined;
}): StoreContext {
  let ready: Promise<void> | undefined;
  const migrate = (): Promise<void> => {
    ready ??= migrateStore(client, { local, now: now() }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  return {
    client,
    runtime,
    write: async (statements) => {
      await migrate();
      return client.batch(statements, "write");
    },
    read: async (statements) => {
      if (missing?.() === true) return statements.map(() => ({ rows: [], rowsAffected: 0 }));
      await migrate();
      return client.batch(statements, "read");
    },
    execute: async (statement) => {
      await migrate();
      return client.execute(statement);
    },
  };
}
