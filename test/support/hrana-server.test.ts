/**
 * The Hrana test server through `@libsql/client`'s real HTTP transport: value
 * encoding, batches as transactions, batons across requests, auth and faults.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, LibsqlError, type Client } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { startHranaServer, type HranaServer, type HranaServerOptions } from "./hrana-server.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Omit<HranaServerOptions, "path"> = {}): Promise<{ server: HranaServer; client: Client }> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-hrana-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const server = await startHranaServer({ path: join(folder, "db.sqlite"), ...options });
  cleanups.push(() => server.close());
  const client = createClient({
    url: server.url,
    ...(options.authToken === undefined ? {} : { authToken: options.authToken }),
  });
  cleanups.push(() => client.close());
  await client.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, b BLOB, n)");
  return { server, client };
}

async function count(client: Client): Promise<number> {
  return Number((await client.execute("SELECT count(*) AS c FROM t")).rows[0]?.["c"]);
}

describe("Hrana test server", () => {
  it("round-trips every value type with column names, decltypes, affected rows and the last rowid", async () => {
    const { server, client } = await serve();
    const inserted = await client.execute({
      sql: "INSERT INTO t (i, f, s, b, n) VALUES (?, ?, ?, ?, ?)",
      args: [9007199254740993n, 1.5, "héllo", new Uint8Array([0, 255, 7]), null],
    });
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(1n);
    await client.execute({ sql: "INSERT INTO t (i) VALUES (?)", args: [42] });
    // Integers travel as decimal strings: a 64-bit value survives exactly for a bigint client.
    const bigints = createClient({ url: server.url, intMode: "bigint" });
    cleanups.push(() => bigints.close());
    const read = await bigints.execute({ sql: "SELECT i, f, s, b, n FROM t WHERE id = :id", args: { id: 1 } });
    expect(read.columns).toEqual(["i", "f", "s", "b", "n"]);
    expect(read.columnTypes).toEqual(["INTEGER", "REAL", "TEXT", "BLOB", ""]);
    const row = read.rows[0]!;
    expect(row["i"]).toBe(9007199254740993n);
    expect(row["f"]).toBe(1.5);
    expect(row["s"]).toBe("héllo");
    expect([...new Uint8Array(row["b"] as ArrayBuffer)]).toEqual([0, 255, 7]);
    expect(row["n"]).toBeNull();
    const small = await client.execute("SELECT i, typeof(i) AS type FROM t WHERE id = 2");
    expect(small.rows[0]).toMatchObject({ i: 42, type: "integer" });
  });

  it("reports the changes of a write with RETURNING and a SQLite error code for a constraint violation", async () => {
    const { client } = await serve();
    await client.batch(["INSERT INTO t (id, s) VALUES (1, 'a')", "INSERT INTO t (id, s) VALUES (2, 'b')"], "write");
    const deleted = await client.execute("DELETE FROM t WHERE id > 0 RETURNING id");
    expect(deleted.rows.map((row) => row["id"])).toEqual([1, 2]);
    expect(deleted.rowsAffected).toBe(2);
    const plain = await client.execute("SELECT 1 AS one");
    expect(plain.rowsAffected).toBe(0);
    await client.execute("INSERT INTO t (id) VALUES (5)");
    const error = await client.execute("INSERT INTO t (id) VALUES (5)").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LibsqlError);
    expect((error as LibsqlError).code).toBe("SQLITE_CONSTRAINT");
  });

  it("runs a batch as one transaction: a failing statement rolls back the ones before it", async () => {
    const { client, server } = await serve();
    server.resetStats();
    const failed = await client
      .batch(
        ["INSERT INTO t (id) VALUES (1)", "INSERT INTO t (id) VALUES (2)", "INSERT INTO t (id) VALUES (1)"],
        "write",
      )
      .catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(LibsqlError);
    // One HTTP request carried store_sql, the batch (BEGIN, steps, COMMIT or ROLLBACK by condition) and close.
    expect(server.stats).toMatchObject({ pipelines: 1, requests: { batch: 1, close: 1 } });
    expect(await count(client)).toBe(0);
    const results = await client.batch(["INSERT INTO t (id) VALUES (1)", "SELECT count(*) AS c FROM t"], "write");
    expect(results[1]?.rows[0]?.["c"]).toBe(1);
  });

  it("keeps an interactive transaction's stream across requests with a baton, and refuses an unknown baton", async () => {
    const { client, server } = await serve();
    const transaction = await client.transaction("write");
    await transaction.execute("INSERT INTO t (id) VALUES (1)");
    expect(server.openStreams).toBe(1);
    await transaction.execute("INSERT INTO t (id) VALUES (2)");
    await transaction.rollback();
    transaction.close();
    expect(await count(client)).toBe(0);
    const committed = await client.transaction("write");
    await committed.execute("INSERT INTO t (id) VALUES (3)");
    await committed.commit();
    expect(await count(client)).toBe(1);
    const response = await fetch(`${server.url}/v2/pipeline`, {
      method: "POST",
      body: JSON.stringify({ baton: "nope", requests: [] }),
    });
    expect(response.status).toBe(400);
  });

  it("runs sequences (executeMultiple) and named arguments", async () => {
    const { client } = await serve();
    await client.executeMultiple("INSERT INTO t (id, s) VALUES (1, 'x'); INSERT INTO t (id, s) VALUES (2, 'y');");
    const named = await client.execute({ sql: "SELECT s FROM t WHERE id = $id", args: { $id: 2 } });
    expect(named.rows[0]?.["s"]).toBe("y");
  });

  it("answers 401 without the bearer token and serves a client that has it", async () => {
    const { server, client } = await serve({ authToken: "secret" });
    const anonymous = createClient({ url: server.url });
    const wrong = createClient({ url: server.url, authToken: "guess" });
    try {
      await expect(anonymous.execute("SELECT 1")).rejects.toThrow(/401/);
      await expect(wrong.execute("SELECT 1")).rejects.toThrow(/401/);
    } finally {
      anonymous.close();
      wrong.close();
    }
    expect(await count(client)).toBe(0);
  });

  it("injects a dropped connection and a 5xx before the request runs: nothing is written", async () => {
    const { server, client } = await serve();
    server.injectFault({ kind: "drop" });
    await expect(client.execute("INSERT INTO t (id) VALUES (1)")).rejects.toThrow();
    server.injectFault({ kind: "status", status: 503 });
    await expect(client.batch(["INSERT INTO t (id) VALUES (2)"], "write")).rejects.toThrow(/503/);
    expect(server.stats.faults).toBe(2);
    expect(await count(client)).toBe(0);
  });

  it("injects a response lost after commit: the client sees a failure, the batch is in the database", async () => {
    const { server, client } = await serve();
    server.injectFault(
      { kind: "lose-response" },
      { when: (requests) => requests.some((request) => request.type === "batch") },
    );
    await client.execute("SELECT 1"); // not a batch: untouched
    await expect(client.batch(["INSERT INTO t (id) VALUES (1)"], "write")).rejects.toThrow();
    expect(await count(client)).toBe(1);
    expect(server.stats.faults).toBe(1);
  });

  it("adds latency per request without changing results, and counts pipelines", async () => {
    const { server, client } = await serve({ latencyMs: 5 });
    server.resetStats();
    await client.execute("INSERT INTO t (id) VALUES (1)");
    await client.batch(["SELECT 1", "SELECT 2"], "read");
    expect(server.stats.pipelines).toBe(2);
    expect(server.latencyMs).toBe(5);
    expect(await count(client)).toBe(1);
  });
});
