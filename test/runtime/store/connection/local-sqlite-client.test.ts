import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  LocalSqliteClient,
  STATEMENT_CACHE_SIZE,
} from "../../../../src/runtime/store/connection/local-sqlite-client.js";

const folders: string[] = [];
const clients: LocalSqliteClient[] = [];

function databaseFile(): string {
  const folder = mkdtempSync(join(tmpdir(), "codemode-local-client-"));
  folders.push(folder);
  return join(folder, "test.db");
}

function open(path: string, timeout = 5_000, pragmas: string[] = []): LocalSqliteClient {
  const client = new LocalSqliteClient(path, { timeout, pragmas });
  clients.push(client);
  return client;
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const client of clients.splice(0)) client.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function withTable(client: LocalSqliteClient): Promise<void> {
  await client.execute(
    "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, flag INTEGER, at INTEGER, data BLOB)",
  );
}

describe("LocalSqliteClient", () => {
  it("returns rows by column name and rows changed by writes", async () => {
    const client = open(":memory:");
    await withTable(client);
    const insert = await client.execute({
      sql: "INSERT INTO t (id, name) VALUES (?, ?), (?, ?)",
      args: [1, "a", 2, "b"],
    });
    expect(insert).toEqual({ rows: [], rowsAffected: 2 });
    const read = await client.execute({ sql: "SELECT id, name FROM t ORDER BY id", args: [] });
    expect(read.rows).toEqual([
      { id: 1, name: "a" },
      { id: 2, name: "b" },
    ]);
    expect(read.rowsAffected).toBe(0);
    const update = await client.execute({ sql: "UPDATE t SET name = 'c' WHERE id = ?", args: [1] });
    expect(update.rowsAffected).toBe(1);
    const returning = await client.execute({ sql: "UPDATE t SET name = 'd' RETURNING id", args: [] });
    expect(returning.rows.map((row) => row["id"]).sort()).toEqual([1, 2]);
  });

  it("converts arguments like @libsql/client and names the ones it refuses", async () => {
    const client = open(":memory:");
    await withTable(client);
    const at = new Date("2026-01-02T03:04:05.000Z");
    await client.execute({
      sql: "INSERT INTO t (id, name, flag, at, data) VALUES (?, ?, ?, ?, ?)",
      args: [1, "x", true, at, new Uint8Array([1, 2]).buffer],
    });
    await client.execute({
      sql: "INSERT INTO t (id, name, flag) VALUES (:id, $name, @flag)",
      args: { ":id": 2, $name: "y", "@flag": false },
    });
    const rows = (await client.execute("SELECT id, flag, at, length(data) AS bytes FROM t ORDER BY id")).rows;
    expect(rows).toEqual([
      { id: 1, flag: 1, at: at.valueOf(), bytes: 2 },
      { id: 2, flag: 0, at: null, bytes: null },
    ]);
    await expect(client.execute({ sql: "SELECT ?", args: [undefined as never] })).rejects.toThrow(
      /undefined cannot be passed/,
    );
    await expect(client.execute({ sql: "SELECT ?", args: [Number.NaN] })).rejects.toThrow(/finite numbers/);
  });

  it("prepares each statement once and reuses it", async () => {
    const client = open(":memory:");
    await withTable(client);
    const prepare = vi.spyOn(Database.prototype, "prepare");
    for (let id = 0; id < 20; id++)
      await client.execute({ sql: "INSERT INTO t (id, name) VALUES (?, ?)", args: [id, `n${id}`] });
    expect(prepare.mock.calls.filter(([sql]) => String(sql).startsWith("INSERT"))).toHaveLength(1);
    expect((await client.execute("SELECT COUNT(*) AS n FROM t")).rows[0]?.["n"]).toBe(20);
  });

  it("keeps working past the statement cache's size (least recently used statements are dropped)", async () => {
    const client = open(":memory:");
    await withTable(client);
    const prepare = vi.spyOn(Database.prototype, "prepare");
    const hot = "SELECT COUNT(*) AS n FROM t";
    for (let index = 0; index < STATEMENT_CACHE_SIZE * 2; index++) {
      expect((await client.execute(`SELECT ${index} AS v`)).rows).toEqual([{ v: index }]);
      await client.execute(hot);
    }
    // The hot statement was used after every other one, so it was never evicted.
    expect(prepare.mock.calls.filter(([sql]) => sql === hot)).toHaveLength(1);
  });

  it("runs a batch as one transaction: a failing statement undoes the others and leaves the connection usable", async () => {
    const client = open(databaseFile());
    await withTable(client);
    await expect(
      client.batch(
        [
          { sql: "INSERT INTO t (id, name) VALUES (1, 'kept?')", args: [] },
          { sql: "INSERT INTO t (id, name) VALUES (1, 'duplicate')", args: [] },
        ],
        "write",
      ),
    ).rejects.toThrow(/UNIQUE/);
    expect((await client.execute("SELECT COUNT(*) AS n FROM t")).rows[0]?.["n"]).toBe(0);
    const results = await client.batch(
      [
        { sql: "INSERT INTO t (id, name) VALUES (1, 'a')", args: [] },
        { sql: "SELECT name FROM t", args: [] },
      ],
      "write",
    );
    expect(results.map((result) => result.rows)).toEqual([[], [{ name: "a" }]]);
  });

  it("reports a lock held by another connection as SQLITE_BUSY, then replaces the spoiled connection and carries on", async () => {
    const path = databaseFile();
    const client = open(path, 50, ["PRAGMA synchronous=NORMAL"]);
    await client.execute("PRAGMA journal_mode=WAL");
    await withTable(client);
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const codes = await Promise.all(
        [
          client.batch([{ sql: "INSERT INTO t (id, name) VALUES (1, 'a')", args: [] }], "write"),
          client.execute({ sql: "INSERT INTO t (id, name) VALUES (2, 'b')", args: [] }),
        ].map((request) =>
          request.then(
            () => "ok",
            (failure: unknown) => (failure as { code?: string }).code,
          ),
        ),
      );
      expect(codes).toEqual(["SQLITE_BUSY", "SQLITE_BUSY"]);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    // A statement that failed with SQLITE_BUSY stays in progress on its connection, and a later
    // COMMIT there fails ("SQL statements in progress"): the client has opened a new connection.
    await client.batch([{ sql: "INSERT INTO t (id, name) VALUES (1, 'a')", args: [] }], "deferred");
    await client.execute({ sql: "INSERT INTO t (id, name) VALUES (2, 'b')", args: [] });
    expect((await client.execute("SELECT name FROM t ORDER BY id")).rows).toEqual([{ name: "a" }, { name: "b" }]);
    expect(client.connectionsOpened).toBeGreaterThan(1);
    // The new connection got the per-connection settings too.
    expect((await client.execute("PRAGMA synchronous")).rows).toEqual([{ synchronous: 1 }]);
  });

  it("keeps its connection after a constraint violation, and an in-memory database after any failure", async () => {
    const file = open(databaseFile());
    await withTable(file);
    await file.execute("INSERT INTO t (id, name) VALUES (1, 'a')");
    await expect(file.execute("INSERT INTO t (id, name) VALUES (1, 'again')")).rejects.toThrow(/UNIQUE/);
    expect(file.connectionsOpened).toBe(1);
    const memory = open(":memory:");
    await withTable(memory);
    await memory.execute("INSERT INTO t (id, name) VALUES (1, 'kept')");
    await expect(memory.execute("SELECT * FROM missing")).rejects.toThrow(/no such table/);
    expect((await memory.execute("SELECT name FROM t")).rows).toEqual([{ name: "kept" }]);
    expect(memory.connectionsOpened).toBe(1);
  });

  it("refuses work after close", async () => {
    const client = open(":memory:");
    client.close();
    client.close();
    await expect(client.execute("SELECT 1")).rejects.toThrow(/closed/);
    await expect(client.batch(["SELECT 1"])).rejects.toThrow(/closed/);
  });
});
