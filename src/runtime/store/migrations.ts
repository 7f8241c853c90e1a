/**
 * The store's schema, owned by the package: a version table and forward
 * migrations, applied on first use. Every row carries its runtime name.
 */
import type { InStatement, SqlClient } from "./connection/sql-client.js";
import { StoreError } from "../../errors/store-error.js";
import { messageOf } from "../../shared/message-of.js";

/** One forward migration: statements applied together with its version row. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Table holding the applied migration versions. */
export const MIGRATIONS_TABLE = "codemode_schema_migrations";

/**
 * The first release's schema version. Versions 1 to 7 were migrations of pre-releases, folded into this one schema
 * before the first release; a database still at one of them is refused, not migrated.
 */
const FIRST_RELEASED_VERSION = 8;

/**
 * The terminal statuses as the partial retention indexes of version 10 name them. A query uses a partial index only
 * when its WHERE clause repeats this term, so the retention queries use this very text (`ENDED_SQL`).
 */
export const ENDED_SQL = "('completed', 'error', 'rejected', 'rolled_back')";

/** All migrations, oldest first. Never edit a released one: add the next version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: FIRST_RELEASED_VERSION,
    name: "executions, calls, snippets and search vectors",
    statements: [
      // `scope`: the execution's owner (another scope sees `not-found`). `trace_context`: the trace context of the
      // first pass (version-tagged JSON), so a pass resumed elsewhere joins the same trace; NULL when untraced.
      // `budgets`: the call and cost budgets fixed when the execution starts (`journal/budget-record.ts`), so every
      // later pass, in any process, enforces the same numbers. `modules`: the sandbox modules its passes imported,
      // with a content hash of each (`journal/module-record.ts`).
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
        scope TEXT,
        trace_context TEXT,
        budgets TEXT,
        modules TEXT,
        PRIMARY KEY (runtime, id)
      )`,
      `CREATE INDEX IF NOT EXISTS codemode_executions_by_status
        ON codemode_executions (runtime, status, created_at)`,
      // WITHOUT ROWID: one b-tree instead of a table plus its key index, so a journaled call writes fewer pages.
      // `cost`: what a call counted against `maxCost` where it first ran (NULL: no cost function). `decided_by`: who
      // approved or rejected it. `approved_args`: the codec text of arguments an approver changed (NULL: unchanged),
      // beside `args`, the program's, which replay matches.
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
        cost REAL,
        decided_by TEXT,
        approved_args TEXT,
        PRIMARY KEY (runtime, execution_id, seq)
      ) WITHOUT ROWID`,
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
      // Shared by every runtime name (a vector depends only on the model and the text). `vector` holds
      // little-endian float32s, the layout of libSQL's F32_BLOB: `vector_distance_cos(vector, vector32(?))`
      // reads it as is. No fixed dimension in the type: each model has its own (`dimensions` says which).
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
    version: 10,
    name: "indexes for listings and retention",
    statements: [
      // Newest first, of the runtime or of one owner: an index walk of the rows returned, never a sort of the history.
      `CREATE INDEX IF NOT EXISTS codemode_executions_by_created ON codemode_executions (runtime, created_at)`,
      `CREATE INDEX IF NOT EXISTS codemode_executions_by_scope ON codemode_executions (runtime, scope, created_at)`,
      // Retention: ended executions per owner and by when they ended. Partial, so a running or paused row costs
      // them nothing and a prune never walks past unfinished runs.
      `CREATE INDEX IF NOT EXISTS codemode_executions_ended_by_scope ON codemode_executions (runtime, scope, updated_at)
        WHERE status IN ${ENDED_SQL}`,
      `CREATE INDEX IF NOT EXISTS codemode_executions_ended ON codemode_executions (runtime, updated_at)
        WHERE status IN ${ENDED_SQL}`,
    ],
  },
  {
    version: 11,
    name: "module sources kept for paused executions",
    statements: [
      // One row per runtime name and SHA-256 of a module source that a paused execution imported, so its resumed
      // passes import the same source after a deploy changed `modules` (`journal/module-record.ts`).
      `CREATE TABLE IF NOT EXISTS codemode_module_sources (
        runtime TEXT NOT NULL,
        digest TEXT NOT NULL,
        source TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (runtime, digest)
      )`,
    ],
  },
  {
    version: 12,
    name: "workflow run of an execution",
    statements: [
      // The Workflow SDK run whose durable step started the execution (`ai-codemode/workflow`); NULL otherwise.
      `ALTER TABLE codemode_executions ADD COLUMN workflow_run_id TEXT`,
    ],
  },
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Per-connection settings of a local file database (WAL itself is stored in
 * the file). WAL + NORMAL: a commit is safe against a crashed or killed
 * process (the failure a pass must survive) without an fsync per journal
 * write; see docs/decisions/durable-runtime.md.
 */
export const LOCAL_CONNECTION_PRAGMAS: readonly string[] = ["PRAGMA synchronous=NORMAL"];

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
  if (version > 0 && version < FIRST_RELEASED_VERSION) {
    throw new StoreError({
      message:
        `The database schema is at version ${version}, written by a pre-release of ai-codemode, which this release ` +
        "does not migrate. Point the runtime's `store` at a new database (or drop the database's codemode_* tables).",
    });
  }
  try {
    await client.batch(pendingBatch(version, now), "write");
  } catch (error) {
    // Another process applied them first: its version rows make ours fail whole.
    const applied = await appliedVersion(client).catch(() => 0);
    if (applied < SCHEMA_VERSION) throw error;
    if (applied > SCHEMA_VERSION) await bringUpToDate(client, { local: false, now });
  }
}
