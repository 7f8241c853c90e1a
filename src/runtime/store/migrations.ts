/**
 * The store's schema, owned by the package: a version table and forward
 * migrations, applied on first use. Every row carries its runtime name.
 */
import type { InStatement } from "@libsql/client";
import { StoreError } from "../../errors/store-error.js";
import { messageOf } from "../../shared/message-of.js";
import type { SqlClient } from "./connection/sql-client.js";

/** One forward migration: statements applied together with its version row. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Table holding the applied migration versions. */
export const MIGRATIONS_TABLE = "codemode_schema_migrations";

/** Every column of a call row, in table order (used to copy rows between table versions). */
const CALL_COLUMNS =
  "runtime, execution_id, seq, record_version, connector, method, args, status, result, error, replay, requires_approval, approved_at, started_at, finished_at, replayed_count";

/** All migrations, oldest first. Never edit a released one: add the next version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "executions, calls and snippets",
    statements: [
      `CREATE TABLE IF NOT EXISTS codemode_executions (
        runtime TEXT NOT NULL,
        id TEXT NOT NULL,
        record_version INTEGER NOT NULL,
        status TEXT NOT NULL,
        code TEXT NOT NULL,
        connectors TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        passes INTEGER NOT NULL,
        result TEXT,
        logs TEXT,
        error TEXT,
        kind TEXT,
        lease_token TEXT,
        lease_until INTEGER,
        tool_call_id TEXT,
        PRIMARY KEY (runtime, id)
      )`,
      `CREATE INDEX IF NOT EXISTS codemode_executions_by_status
        ON codemode_executions (runtime, status, created_at)`,
      `CREATE TABLE IF NOT EXISTS codemode_calls (
        runtime TEXT NOT NULL,
        execution_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        record_version INTEGER NOT NULL,
        connector TEXT NOT NULL,
        method TEXT NOT NULL,
        args TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        error TEXT,
        replay TEXT NOT NULL,
        requires_approval INTEGER NOT NULL,
        approved_at INTEGER,
        started_at INTEGER,
        finished_at INTEGER,
        replayed_count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (runtime, execution_id, seq)
      )`,
      `CREATE TABLE IF NOT EXISTS codemode_snippets (
        runtime TEXT NOT NULL,
        name TEXT NOT NULL,
        record_version INTEGER NOT NULL,
        description TEXT,
        code TEXT NOT NULL,
        connectors TEXT NOT NULL,
        input_schema TEXT,
        execution_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (runtime, name)
      )`,
    ],
  },
  {
    version: 2,
    name: "call rows stored in their primary key (WITHOUT ROWID)",
    // One b-tree instead of a table plus its key index: a journaled call writes fewer pages
    // (measured ~6 µs less per call, ~48 → ~42 µs per journal statement in a running pass).
    statements: [
      `CREATE TABLE codemode_calls_v2 (
        runtime TEXT NOT NULL,
        execution_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        record_version INTEGER NOT NULL,
        connector TEXT NOT NULL,
        method TEXT NOT NULL,
        args TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        error TEXT,
        replay TEXT NOT NULL,
        requires_approval INTEGER NOT NULL,
        approved_at INTEGER,
        started_at INTEGER,
        finished_at INTEGER,
        replayed_count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (runtime, execution_id, seq)
      ) WITHOUT ROWID`,
      `INSERT INTO codemode_calls_v2 (${CALL_COLUMNS}) SELECT ${CALL_COLUMNS} FROM codemode_calls`,
      "DROP TABLE codemode_calls",
      "ALTER TABLE codemode_calls_v2 RENAME TO codemode_calls",
    ],
  },
  {
    version: 3,
    name: "execution owner (scope)",
    // An execution started with a scope (e.g. a user id) is `not-found` to every other scope.
    statements: ["ALTER TABLE codemode_executions ADD COLUMN scope TEXT"],
  },
  {
    version: 4,
    name: "search vectors cached by model and text hash",
    // Shared by every runtime name (a vector depends only on the model and the text). `vector` holds
    // little-endian float32s, the layout of libSQL's F32_BLOB: `vector_distance_cos(vector, vector32(?))`
    // reads it as is. No fixed dimension in the type: each model has its own (`dimensions` says which).
    statements: [
      `CREATE TABLE IF NOT EXISTS codemode_search_vectors (
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        dimensions INTEGER NOT NULL,
        vector F32_BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (model, text_hash)
      ) WITHOUT ROWID`,
    ],
  },
  {
    version: 5,
    name: "execution trace context",
    // The trace context of the execution's first pass (a version-tagged JSON the runtime's tracing reads), so a
    // pass resumed in another invocation joins the same trace. NULL when the first pass was not traced.
    statements: ["ALTER TABLE codemode_executions ADD COLUMN trace_context TEXT"],
  },
  {
    version: 6,
    name: "budgets and who decided",
    // `budgets`: the execution's call and cost budgets (a version-tagged JSON, `journal/budget-record.ts`), fixed when
    // it starts so every later pass, in any process, enforces the same numbers. `cost`: what a call counted against
    // `maxCost` where it first ran (NULL: no cost function). `decided_by`: who approved or rejected a call.
    statements: [
      "ALTER TABLE codemode_executions ADD COLUMN budgets TEXT",
      "ALTER TABLE codemode_calls ADD COLUMN cost REAL",
      "ALTER TABLE codemode_calls ADD COLUMN decided_by TEXT",
    ],
  },
  {
    version: 7,
    name: "arguments an approver changed",
    // Approve with changes: the codec text of the arguments the connector runs with, beside `args` (the program's,
    // which replay matches). NULL when the approver did not change them.
    statements: ["ALTER TABLE codemode_calls ADD COLUMN approved_args TEXT"],
  },
  {
    version: 8,
    name: "modules an execution imported",
    // The sandbox modules its passes imported, with a content hash of each (a version-tagged JSON,
    // `runtime/journal/module-record.ts`): a resumed pass whose module changed ends as a divergence naming it.
    statements: ["ALTER TABLE codemode_executions ADD COLUMN modules TEXT"],
  },
];

/**
 * Per-connection settings of a local file database (WAL itself is stored in
 * the file). WAL + NORMAL: a commit is safe against a crashed or killed
 * process (the failure a pass must survive) without an fsync per journal
 * write; see docs/decisions/durable-runtime.md.
 */
export const LOCAL_CONNECTION_PRAGMAS: readonly string[] = ["PRAGMA synchronous=NORMAL"];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

async function appliedVersion(client: SqlClient): Promise<number> {
  const result = await client.execute(`SELECT MAX(version) AS version FROM ${MIGRATIONS_TABLE}`);
  const value = result.rows[0]?.["version"];
  return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : 0;
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`;

/** The write batch applying every migration after `current`: each one's version row, then its statements. */
function pendingBatch(current: number, now: number): InStatement[] {
  const statements: InStatement[] = [CREATE_MIGRATIONS_TABLE];
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    statements.push(
      {
        sql: `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)`,
        args: [migration.version, migration.name, now],
      },
      ...migration.statements,
    );
  }
  return statements;
}

/**
 * How long a database found at the current schema is not checked again by this process (runtimes built per
 * request on one shared connection would otherwise each pay the check's round trip). A database migrated by a
 * newer package meanwhile is still refused, at most this long after.
 */
export const SCHEMA_RECHECK_MS = 60_000;

/** When each database (by `SqlClient.database`) was last found at the current schema. */
const checkedAt = new WeakMap<object, number>();

/**
 * Brings the schema up to {@link SCHEMA_VERSION}, in as few round trips as a
 * remote database allows (each costs a cold serverless invocation 5–30 ms):
 * one read when the schema is current (none when this process found it current
 * less than {@link SCHEMA_RECHECK_MS} ago); on a new database, the failed read
 * and one write batch holding every pending migration. Safe to run from several
 * processes at once: the batch's version rows make a second migrator's batch
 * fail whole, and it re-reads the version. Local files are switched to WAL so
 * readers and one writer share the file.
 */
export async function migrateStore(client: SqlClient, options: { local: boolean; now: number }): Promise<void> {
  const database = client.database ?? client;
  const checked = checkedAt.get(database);
  if (checked !== undefined && options.now >= checked && options.now - checked < SCHEMA_RECHECK_MS) return;
  await bringUpToDate(client, options);
  checkedAt.set(database, options.now);
}

async function bringUpToDate(client: SqlClient, { local, now }: { local: boolean; now: number }): Promise<void> {
  // A database this package never opened has no version table: the read fails, and the batch creates it.
  // Any other failure (network, auth) is the store's error, reported as it is.
  const version = await appliedVersion(client).catch((error: unknown) => {
    if (/no such table/i.test(messageOf(error))) return 0;
    throw error;
  });
  // After that read: a failed statement may cost a local client its connection, and these settings are per connection.
  if (local) {
    await client.execute("PRAGMA journal_mode=WAL");
    for (const pragma of LOCAL_CONNECTION_PRAGMAS) await client.execute(pragma);
  }
  if (version > SCHEMA_VERSION) {
    throw new StoreError({
      message: `The database schema is at version ${version}, newer than this package supports (${SCHEMA_VERSION}). Upgrade ai-codemode.`,
    });
  }
  if (version === SCHEMA_VERSION) return;
  try {
    await client.batch(pendingBatch(version, now), "write");
  } catch (error) {
    // Another process applied them first: its version rows make ours fail whole.
    const applied = await appliedVersion(client).catch(() => 0);
    if (applied < SCHEMA_VERSION) throw error;
    if (applied > SCHEMA_VERSION) await bringUpToDate(client, { local: false, now });
  }
}
