import { describe, expect, it } from "vitest";
import {
  applyCallStatement,
  failCallStatement,
  insertCallStatement,
  readCallStatement,
} from "../../../src/runtime/store/call-statements.js";
import { JournalWriter, MAX_FLUSH_CHARS, MAX_ROWS_PER_STATEMENT } from "../../../src/runtime/store/journal-writer.js";
import { migrateStore } from "../../../src/runtime/store/migrations.js";
import { countingClient } from "../../support/counting-client.js";
import { memoryClient, memoryLibsqlClient } from "../runtime-fixture.js";

async function table() {
  const client = memoryClient();
  await client.execute("CREATE TABLE t (n INTEGER)");
  const count = async () => (await client.execute("SELECT COUNT(*) AS n FROM t")).rows[0]?.["n"];
  return { client, count };
}

describe("JournalWriter", () => {
  it("sends deferred writes with the next durable write, in one round trip", async () => {
    const { client, count } = await table();
    const writer = new JournalWriter(client);
    writer.defer({ sql: "INSERT INTO t VALUES (1)", args: [] });
    writer.defer({ sql: "INSERT INTO t VALUES (2)", args: [] });
    expect(writer.roundTrips).toBe(0);
    const result = await writer.commit({ sql: "INSERT INTO t VALUES (3)", args: [] });
    expect(result.rowsAffected).toBe(1);
    expect(writer.roundTrips).toBe(1);
    expect(writer.statements).toBe(3);
    expect(await count()).toBe(3);
  });

  it("groups concurrent commits and counts held writes that changed nothing", async () => {
    const { client } = await table();
    const writer = new JournalWriter(client);
    writer.defer({ sql: "UPDATE t SET n = 0 WHERE n = 99", args: [] });
    await Promise.all([1, 2, 3, 4].map((n) => writer.commit({ sql: "INSERT INTO t VALUES (?)", args: [n] })));
    expect(writer.roundTrips).toBeLessThanOrEqual(2);
    await writer.flush();
    expect(writer.lostRows).toBe(1);
  });

  it("reports a failed batch to every waiter and on flush", async () => {
    const client = memoryClient();
    const writer = new JournalWriter(client);
    writer.defer({ sql: "INSERT INTO missing VALUES (1)", args: [] });
    await expect(writer.commit({ sql: "SELECT 1", args: [] })).rejects.toThrow(/missing/);
    await expect(writer.flush()).rejects.toThrow(/missing/);
    expect(writer.failure).toBeDefined();
  });
});

// The lease guard and the merged upsert report their effect in rowsAffected: both store drivers must agree.
describe.each([
  ["embedded driver", memoryClient],
  ["@libsql/client", memoryLibsqlClient],
])("JournalWriter call rows (%s)", (_driver, newClient) => {
  async function leasedExecution() {
    const client = newClient();
    await migrateStore(client, { local: false, now: 0 });
    await client.execute(
      "INSERT INTO codemode_executions (runtime, id, record_version, status, code, connectors, created_at, updated_at, passes, lease_token) VALUES ('r', 'e', 1, 'running', 'x', '[]', 0, 0, 1, 'L')",
    );
    return client;
  }
  const lease = { runtime: "r", executionId: "e", leaseToken: "L" };
  const row = (seq: number) =>
    insertCallStatement({
      seq,
      connector: "svc",
      method: "m",
      argsText: "{}",
      status: "executing",
      replay: "record",
      needsApproval: false,
      now: 5,
    });
  const statuses = async (client: ReturnType<typeof memoryClient>) =>
    (await client.execute("SELECT seq, status, result FROM codemode_calls ORDER BY seq")).rows.map((entry) => [
      entry["seq"],
      entry["status"],
      entry["result"],
    ]);

  it("merges the previous call's applied update and the next executing insert into one statement", async () => {
    const client = await leasedExecution();
    const writer = new JournalWriter(client, lease);
    expect((await writer.commit(row(1))).rowsAffected).toBe(1);
    writer.defer(applyCallStatement(1, '"done"', 6));
    expect((await writer.commit(row(2))).rowsAffected).toBe(1);
    expect(writer.statements).toBe(2);
    expect(writer.roundTrips).toBe(2);
    expect(await statuses(client)).toEqual([
      [1, "applied", '"done"'],
      [2, "executing", null],
    ]);
  });

  it("splits many rows (Promise.all of hundreds of calls) into statements SQLite accepts", async () => {
    const client = await leasedExecution();
    const writer = new JournalWriter(client, lease);
    const count = MAX_ROWS_PER_STATEMENT * 2 + 50;
    const results = await Promise.all(Array.from({ length: count }, (_, index) => writer.commit(row(index + 1))));
    expect(results.every((result) => result.rowsAffected === 1)).toBe(true);
    expect((await client.execute("SELECT COUNT(*) AS n FROM codemode_calls")).rows[0]?.["n"]).toBe(count);
  });

  it("writes nothing once the lease is gone, and says so", async () => {
    const client = await leasedExecution();
    const writer = new JournalWriter(client, lease);
    await writer.commit(row(1));
    await client.execute("UPDATE codemode_executions SET lease_token = 'someone-else'");
    writer.defer(applyCallStatement(1, "1", 6));
    expect((await writer.commit(row(2))).rowsAffected).toBe(0);
    expect(writer.lostRows).toBe(1);
    expect(await statuses(client)).toEqual([[1, "executing", null]]);
  });

  it("never moves a row that is not executing", async () => {
    const client = await leasedExecution();
    const writer = new JournalWriter(client, lease);
    await writer.commit(row(1));
    await writer.commit(failCallStatement(1, "boom", 6));
    expect((await writer.commit(applyCallStatement(1, "1", 7))).rowsAffected).toBe(0);
    const rows = await client.execute("SELECT status, error FROM codemode_calls");
    expect(rows.rows.map((entry) => [entry["status"], entry["error"]])).toEqual([["error", "boom"]]);
  });

  it("sends held read rows once they pass the flush size, and never more than it in one request", async () => {
    const client = await leasedExecution();
    const counting = countingClient(client);
    let largestRequest = 0;
    const measured = new Proxy(counting.client, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property !== "execute" && property !== "batch") return value;
        return (statements: unknown, ...rest: unknown[]) => {
          largestRequest = Math.max(largestRequest, JSON.stringify(statements).length);
          return (value as (...args: unknown[]) => unknown).call(target, statements, ...rest);
        };
      },
    });
    const writer = new JournalWriter(measured, lease);
    // Twelve reads of a million characters each, and no write after them: held, they were one 12 MB request.
    const result = JSON.stringify("r".repeat(999_990));
    for (let seq = 1; seq <= 12; seq += 1) {
      const call = { seq, connector: "svc", method: "get", argsText: "{}", now: 5, startedAt: 5 };
      writer.defer(readCallStatement(call, { resultText: result }));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(counting.roundTrips()).toBeGreaterThan(0);
    await writer.flush();
    expect(largestRequest).toBeLessThanOrEqual(MAX_FLUSH_CHARS + 100_000);
    expect(counting.roundTrips()).toBeGreaterThanOrEqual(3);
    expect((await client.execute("SELECT COUNT(*) AS n FROM codemode_calls")).rows[0]?.["n"]).toBe(12);
  });
});
