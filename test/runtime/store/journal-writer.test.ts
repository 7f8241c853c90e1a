import { describe, expect, it } from "vitest";
import { JournalWriter } from "../../../src/runtime/store/journal-writer.js";
import { memoryClient } from "../runtime-fixture.js";

describe("JournalWriter", () => {
  it("sends deferred statements with the next durable write, in one batch", async () => {
    const client = memoryClient();
    await client.execute("CREATE TABLE t (n INTEGER)");
    const writer = new JournalWriter(client);
    writer.defer({ sql: "INSERT INTO t VALUES (1)", args: [] });
    writer.defer({ sql: "INSERT INTO t VALUES (2)", args: [] });
    expect(writer.roundTrips).toBe(0);
    const result = await writer.commit({ sql: "INSERT INTO t VALUES (3)", args: [] });
    expect(result.rowsAffected).toBe(1);
    expect(writer.roundTrips).toBe(1);
    expect(writer.statements).toBe(3);
    expect((await client.execute("SELECT COUNT(*) AS n FROM t")).rows[0]?.["n"]).toBe(3);
  });

  it("groups concurrent commits and counts deferred statements that changed nothing", async () => {
    const client = memoryClient();
    await client.execute("CREATE TABLE t (n INTEGER)");
    const writer = new JournalWriter(client);
    writer.defer({ sql: "UPDATE t SET n = 0 WHERE n = 99", args: [] });
    await Promise.all([1, 2, 3, 4].map((n) => writer.commit({ sql: "INSERT INTO t VALUES (?)", args: [n] })));
    await writer.flush();
    expect(writer.roundTrips).toBeLessThanOrEqual(2);
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
