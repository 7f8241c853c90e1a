import { describe, expect, it } from "vitest";
import {
  MIGRATIONS,
  MIGRATIONS_TABLE,
  SCHEMA_RECHECK_MS,
  SCHEMA_VERSION,
  migrateStore,
} from "../../../src/runtime/store/migrations.js";
import { memoryClient, sharedExecutor } from "../runtime-fixture.js";
import { createDurableRuntime } from "../../../src/runtime/durable-runtime.js";
import { createClient } from "@libsql/client";
import { join } from "node:path";
import { LocalSqliteClient } from "../../../src/runtime/store/connection/local-sqlite-client.js";
import { countingClient } from "../../support/counting-client.js";
import { tempFolder } from "../../support/temp-folder.js";

/** A database as a pre-release of the package left it: its version rows up to `version`, and one execution. */
async function preReleaseDatabase(version: number): Promise<ReturnType<typeof memoryClient>> {
  const client = memoryClient();
  await client.execute(
    `CREATE TABLE ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  );
  for (let applied = 1; applied <= version; applied++) {
    await client.execute({ sql: `INSERT INTO ${MIGRATIONS_TABLE} VALUES (?, ?, 0)`, args: [applied, `v${applied}`] });
  }
  await client.execute("CREATE TABLE codemode_executions (runtime TEXT NOT NULL, id TEXT NOT NULL, status TEXT)");
  await client.execute("INSERT INTO codemode_executions VALUES ('default', 'old', 'paused')");
  return client;
}

/** A database at the current schema. */
async function migrated(): Promise<ReturnType<typeof memoryClient>> {
  const client = memoryClient();
  await migrateStore(client, { local: false, now: 0 });
  return client;
}

describe("migrateStore", () => {
  it("creates the schema once and records its version", async () => {
    const client = memoryClient();
    await migrateStore(client, { local: false, now: 1 });
    await migrateStore(client, { local: false, now: 2 });
    const versions = await client.execute(`SELECT version, applied_at FROM ${MIGRATIONS_TABLE}`);
    expect(versions.rows.map((row) => [row["version"], row["applied_at"]])).toEqual(
      MIGRATIONS.map((migration) => [migration.version, 1]),
    );
    const tables = await client.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'codemode_%' ORDER BY name",
    );
    expect(tables.rows.map((row) => row["name"])).toEqual([
      "codemode_calls",
      "codemode_executions",
      "codemode_module_sources",
      "codemode_schema_migrations",
      "codemode_search_vectors",
      "codemode_snippets",
    ]);
    // Call rows live in their primary key: one b-tree per journaled call.
    const calls = await client.execute("SELECT sql FROM sqlite_master WHERE name = 'codemode_calls'");
    expect(String(calls.rows[0]?.["sql"])).toMatch(/WITHOUT ROWID\s*$/);
  });

  it("costs one round trip on a current schema, two on a new database (cold serverless starts pay each)", async () => {
    const inner = memoryClient();
    const { client, sent } = countingClient(inner);
    await migrateStore(client, { local: false, now: 1 });
    // The version read (fails: no table yet), then one batch creating the table and applying every migration.
    expect(sent.map((statements) => statements.length)).toEqual([
      1,
      1 + MIGRATIONS.length + MIGRATIONS.flatMap((m) => m.statements).length,
    ]);
    sent.length = 0;
    // Found current a moment ago by this process: not checked again (runtimes built per request share it).
    await migrateStore(client, { local: false, now: 2 });
    expect(sent).toEqual([]);
    await migrateStore(client, { local: false, now: 1 + SCHEMA_RECHECK_MS });
    expect(sent).toEqual([[`SELECT MAX(version) AS version FROM ${MIGRATIONS_TABLE}`]]);
    const versions = await inner.execute(`SELECT COUNT(*) AS n FROM ${MIGRATIONS_TABLE}`);
    expect(versions.rows[0]?.["n"]).toBe(MIGRATIONS.length);
  });

  it("reports a failed version read that is not a missing table as it is, and writes nothing", async () => {
    const inner = memoryClient();
    const { client, sent } = countingClient(inner);
    const down = new Proxy(client, {
      get(target, property, receiver) {
        if (property === "execute") return () => Promise.reject(new Error("fetch failed: ECONNRESET"));
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    await expect(migrateStore(down, { local: false, now: 1 })).rejects.toThrow("fetch failed: ECONNRESET");
    expect(sent).toEqual([]);
  });

  it("refuses a database of a pre-release schema with what to do, and changes nothing in it", async () => {
    for (const version of [1, 7]) {
      const client = await preReleaseDatabase(version);
      await expect(migrateStore(client, { local: false, now: 1 })).rejects.toThrow(
        new RegExp(`schema is at version ${version}, written by a pre-release .* at a new database`),
      );
      const versions = await client.execute(`SELECT MAX(version) AS version FROM ${MIGRATIONS_TABLE}`);
      expect(versions.rows[0]?.["version"]).toBe(version);
      const rows = await client.execute("SELECT * FROM codemode_executions");
      expect(rows.rows.map((row) => ({ ...row }))).toEqual([{ runtime: "default", id: "old", status: "paused" }]);
      const tables = await client.execute("SELECT name FROM sqlite_master WHERE name = 'codemode_calls'");
      expect(tables.rows).toEqual([]);
    }
  });

  it("leaves a local connection with its settings even after the failed version read of a new file", async () => {
    const client = new LocalSqliteClient(join(tempFolder("codemode-migrate-pragmas-"), "db.sqlite"), { timeout: 5000 });
    await migrateStore(client, { local: true, now: 1 });
    // 1 = NORMAL: with WAL, a commit then costs no fsync (FULL, the default, costs one per journaled call).
    expect((await client.execute("PRAGMA synchronous")).rows[0]?.["synchronous"]).toBe(1);
    expect((await client.execute("PRAGMA journal_mode")).rows[0]?.["journal_mode"]).toBe("wal");
    client.close();
  });

  it("refuses a database migrated by a newer package", async () => {
    const client = memoryClient();
    await migrateStore(client, { local: false, now: 1 });
    await client.execute({
      sql: `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, 'future', 0)`,
      args: [SCHEMA_VERSION + 1],
    });
    // Noticed at the next check, at most SCHEMA_RECHECK_MS after the last one.
    await migrateStore(client, { local: false, now: SCHEMA_RECHECK_MS });
    await expect(migrateStore(client, { local: false, now: 1 + SCHEMA_RECHECK_MS })).rejects.toThrow(
      /newer than this package supports/,
    );
  });

  it("is safe when several clients migrate one file at once, and switches it to WAL", async () => {
    const url = `file:${join(tempFolder("codemode-migrate-"), "db.sqlite")}`;
    const clients = Array.from({ length: 4 }, () => createClient({ url, timeout: 5000 }));
    await Promise.all(clients.map((client) => migrateStore(client, { local: true, now: 1 })));
    const [first] = clients;
    const versions = await first!.execute(`SELECT COUNT(*) AS n FROM ${MIGRATIONS_TABLE}`);
    expect(versions.rows[0]?.["n"]).toBe(MIGRATIONS.length);
    const mode = await first!.execute("PRAGMA journal_mode");
    expect(mode.rows[0]?.["journal_mode"]).toBe("wal");
    for (const client of clients) client.close();
  });

  it("a paused execution without a trace context (its first pass untraced) resumes untraced", async () => {
    const client = await migrated();
    await client.execute(
      `INSERT INTO codemode_executions (runtime, id, record_version, status, code, connectors, created_at, updated_at,
        passes, logs) VALUES ('default', 'old', 1, 'paused', 'async () => svc.go({})', '["svc"]', 0, 0, 1, '[]')`,
    );
    await client.execute(
      `INSERT INTO codemode_calls (runtime, execution_id, seq, record_version, connector, method, args, status, replay,
        requires_approval) VALUES ('default', 'old', 1, 1, 'svc', 'go', '{}', 'pending', 'record', 1)`,
    );
    const runtime = createDurableRuntime({
      store: client,
      executor: sharedExecutor(),
      connectors: { svc: { methods: { go: { needsApproval: true, execute: () => "gone" } } } },
    });
    expect(await runtime.approve({ executionId: "old" })).toEqual({
      status: "completed",
      executionId: "old",
      result: "gone",
    });
    const columns = await client.execute("SELECT trace_context FROM codemode_executions WHERE id = 'old'");
    expect(columns.rows[0]?.["trace_context"]).toBeNull();
    await runtime.close();
  });

  it("an execution row without budgets resumes under the approving runtime's budgets, and records who decided", async () => {
    const client = await migrated();
    await client.execute(
      `INSERT INTO codemode_executions (runtime, id, record_version, status, code, connectors, created_at, updated_at,
        passes, logs) VALUES ('default', 'old', 1, 'paused', 'async () => { await svc.go({}); return svc.more({}); }',
        '["svc"]', 0, 0, 1, '[]')`,
    );
    await client.execute(
      `INSERT INTO codemode_calls (runtime, execution_id, seq, record_version, connector, method, args, status, replay,
        requires_approval) VALUES ('default', 'old', 1, 1, 'svc', 'go', '{}', 'pending', 'record', 1)`,
    );
    let more = 0;
    const runtime = createDurableRuntime({
      store: client,
      executor: sharedExecutor(),
      limits: { maxCalls: 1 },
      connectors: {
        svc: {
          methods: {
            go: { needsApproval: true, execute: () => "gone" },
            more: { execute: () => ++more },
          },
        },
      },
    });
    const out = await runtime.approve({ executionId: "old", decidedBy: "ann" });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(more).toBe(0);
    const detail = await runtime.execution("old");
    expect(detail?.calls).toMatchObject([{ seq: 1, status: "applied", decidedBy: "ann" }]);
    expect(detail?.calls[0]).not.toHaveProperty("cost");
    await runtime.close();
  });
});
