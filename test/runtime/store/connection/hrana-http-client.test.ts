/**
 * The store's own Hrana-over-HTTP client against the Hrana test server: values convert as `@libsql/client` converts
 * them, a batch is one request and one transaction (all or nothing), every request is one round trip, and failures
 * carry what `explainStoreError` reads (an HTTP status, a system error code, SQLite's code).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStore } from "../../../../src/runtime/store/connection/connect-store.js";
import { HranaHttpClient } from "../../../../src/runtime/store/connection/hrana-http-client.js";
import { pipelineUrl, servesUrl } from "../../../../src/runtime/store/connection/hrana-url.js";
import { startHranaServer, type HranaServer } from "../../../support/hrana-server.js";

let folder = "";
let server: HranaServer;
let databases = 0;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "codemode-hrana-client-"));
  server = await startHranaServer({ path: join(folder, "root.db"), authToken: "token" });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

function freshClient(): HranaHttpClient {
  return new HranaHttpClient(server.databaseUrl(`db${++databases}`), "token");
}

describe("HranaHttpClient", () => {
  it("reads rows by column name with the value types @libsql/client gives", async () => {
    const client = freshClient();
    await client.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)");
    const inserted = await client.execute({
      sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
      args: [42, 1.5, "text", new Uint8Array([1, 2, 3]), null],
    });
    expect(inserted.rowsAffected).toBe(1);
    const { rows } = await client.execute("SELECT i, r, s, b, n, i + 1 AS next FROM t");
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ i: 42, r: 1.5, s: "text", n: null, next: 43 });
    expect(row["b"]).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(row["b"] as ArrayBuffer)]).toEqual([1, 2, 3]);
    // What the other driver reads from the same database is the same.
    const other = createClient({ url: server.databaseUrl(`db${databases}`), authToken: "token" });
    const seen = await other.execute("SELECT i, r, s, n, i + 1 AS next FROM t");
    other.close();
    expect({ ...seen.rows[0] }).toEqual({ i: 42, r: 1.5, s: "text", n: null, next: 43 });
  });

  it("a batch is one request and one transaction: a failing statement leaves nothing of the others", async () => {
    const client = freshClient();
    await client.execute("CREATE TABLE k (id INTEGER PRIMARY KEY)");
    server.resetStats();
    const results = await client.batch(
      [
        { sql: "INSERT INTO k VALUES (?)", args: [1] },
        { sql: "SELECT COUNT(*) AS n FROM k", args: [] },
      ],
      "write",
    );
    expect(results.map((result) => result.rows)).toEqual([[], [{ n: 1 }]]);
    expect(server.stats.pipelines).toBe(1);
    const failed = client.batch(
      [
        { sql: "INSERT INTO k VALUES (?)", args: [2] },
        { sql: "INSERT INTO k VALUES (?)", args: [1] },
      ],
      "write",
    );
    await expect(failed).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT" });
    expect((await client.execute("SELECT id FROM k ORDER BY id")).rows).toEqual([{ id: 1 }]);
    expect(server.stats.pipelines).toBe(3);
  });

  it("a refused token is an error with the HTTP status", async () => {
    const client = new HranaHttpClient(server.databaseUrl("db-auth"), "wrong");
    await expect(client.execute("SELECT 1")).rejects.toMatchObject({ status: 401 });
    const none = new HranaHttpClient(server.databaseUrl("db-auth"), undefined);
    await expect(none.execute("SELECT 1")).rejects.toMatchObject({ status: 401 });
  });

  it("a refused connection keeps the system error as its cause", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new HranaHttpClient(`http://127.0.0.1:${port}`, undefined);
    const error = await client.execute("SELECT 1").catch((caught: unknown) => caught);
    expect((error as Error).cause).toMatchObject({ code: "ECONNREFUSED" });
  });

  it("a closed client runs nothing", async () => {
    const client = freshClient();
    client.close();
    await expect(client.execute("SELECT 1")).rejects.toThrow("closed");
  });
});

describe("which URLs it serves", () => {
  it.each([
    ["http://127.0.0.1:8080", true],
    ["https://db-org.turso.io", true],
    ["libsql://db-org.turso.io", true],
    ["LIBSQL://db-org.turso.io", true],
    ["libsql://db-org.turso.io?tls=0", false],
    ["https://db-org.turso.io?authToken=x", false],
    ["https://user:pass@db-org.turso.io", false],
    ["wss://db-org.turso.io", false],
    ["file:/tmp/a.db", false],
    ["not a url", false],
  ])("%s → %s", (url, served) => {
    expect(servesUrl(url)).toBe(served);
  });

  it("libsql: is HTTPS and the endpoint is relative to the URL's path, as in @libsql/client", () => {
    expect(pipelineUrl("libsql://db-org.turso.io").href).toBe("https://db-org.turso.io/v2/pipeline");
    expect(pipelineUrl("http://127.0.0.1:9/db/one/").href).toBe("http://127.0.0.1:9/db/one/v2/pipeline");
  });

  it("connectStore opens a served remote URL with it, and any other with @libsql/client", async () => {
    const served = await connectStore({
      kind: "client",
      url: server.databaseUrl("db-connect"),
      authToken: "token",
      local: false,
      source: "option",
      requestTimeoutMs: 10_000,
      key: "served",
    });
    expect(served).toBeInstanceOf(HranaHttpClient);
    served.close();
    const other = await connectStore({
      kind: "client",
      url: `${server.url}?tls=0`,
      authToken: "token",
      local: false,
      source: "option",
      requestTimeoutMs: 10_000,
      key: "other",
    });
    expect(other).not.toBeInstanceOf(HranaHttpClient);
    other.close();
  });
});
