import { describe, expect, it } from "vitest";
import { MIGRATIONS_TABLE, SCHEMA_VERSION, migrateStore } from "../../../src/runtime/store/migrations.js";
import { memoryClient } from "../runtime-fixture.js";
import { createClient } from "@libsql/client";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("migrateStore", () => {
  it("creates the schema once and records its version", async () => {
    const client = memoryClient();
    await migrateStore(client, { local: false, now: 1 });
    await migrateStore(client, { local: false, now: 2 });
    const versions = await client.execute(`SELECT version, applied_at FROM ${MIGRATIONS_TABLE}`);
    expect(versions.rows.map((row) => [row["version"], row["applied_at"]])).toEqual([[SCHEMA_VERSION, 1]]);
    const tables = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'codemode_%' ORDER BY name");
    expect(tables.rows.map((row) => row["name"])).toEqual(["codemode_calls", "codemode_executions", "codemode_schema_migrations", "codemode_snippets"]);
  });

  it("refuses a database migrated by a newer package", async () => {
    const client = memoryClient();
    await migrateStore(client, { local: false, now: 1 });
    await client.execute({ sql: `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, 'future', 0)`, args: [SCHEMA_VERSION + 1] });
    await expect(migrateStore(client, { local: false, now: 1 })).rejects.toThrow(/newer than this package supports/);
  });

  it("is safe when several clients migrate one file at once, and switches it to WAL", async () => {
    const url = `file:${join(mkdtempSync(join(tmpdir(), "codemode-migrate-")), "db.sqlite")}`;
    const clients = Array.from({ length: 4 }, () => createClient({ url, timeout: 5000 }));
    await Promise.all(clients.map((client) => migrateStore(client, { local: true, now: 1 })));
    const [first] = clients;
    const versions = await first!.execute(`SELECT COUNT(*) AS n FROM ${MIGRATIONS_TABLE}`);
    expect(versions.rows[0]?.["n"]).toBe(SCHEMA_VERSION);
    const mode = await first!.execute("PRAGMA journal_mode");
    expect(mode.rows[0]?.["journal_mode"]).toBe("wal");
    for (const client of clients) client.close();
  });
});
