/**
 * The retention and listing statements on a real libSQL file: every statement a run start, an approval, a listing
 * and a prune send to the journal walks an index (`EXPLAIN QUERY PLAN`: no full scan of the executions or calls,
 * no sort in a temporary b-tree), so none costs more as the journal grows.
 */
import { join } from "node:path";
import type { InStatement } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../../src/runtime/durable-runtime.js";
import { TERMINAL_SQL } from "../../../src/runtime/store/store-context.js";
import { ENDED_SQL } from "../../../src/runtime/store/migrations.js";
import { LocalSqliteClient } from "../../../src/runtime/store/connection/local-sqlite-client.js";
import type { SqlClient } from "../../../src/runtime/store/connection/sql-client.js";
import { createMockConnector } from "../../../src/test/index.js";
import { tempFolder } from "../../support/temp-folder.js";
import { sequentialIds, sharedExecutor, testClock } from "../runtime-fixture.js";

const HOUR_MS = 60 * 60_000;

/** `client`, recording every statement sent through it. */
function recording(client: SqlClient): { client: SqlClient; sent: InStatement[] } {
  const sent: InStatement[] = [];
  return {
    sent,
    client: {
      execute: (statement) => {
        sent.push(statement);
        return client.execute(statement);
      },
      batch: (statements, mode) => {
        sent.push(...statements);
        return client.batch(statements, mode);
      },
      close: () => client.close(),
    },
  };
}

/** The lines of `EXPLAIN QUERY PLAN` of `statement`. */
async function planOf(client: SqlClient, statement: InStatement): Promise<string[]> {
  const { sql, args = [] } = typeof statement === "string" ? { sql: statement, args: [] } : statement;
  const result = await client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: args as never });
  return result.rows.map((row) => String(row["detail"]));
}

/** A plan line that costs as much as the journal: a table walked whole, or rows sorted after reading them all. */
const GROWS_WITH_JOURNAL = /^SCAN codemode_(executions|calls)\b|TEMP B-TREE/;

describe("retention and listing statements on a libSQL file", () => {
  it("walk an index: no full scan, no sort of the history (EXPLAIN QUERY PLAN)", async () => {
    const folder = tempFolder("codemode-retention-plan-");
    const raw = new LocalSqliteClient(join(folder, "journal.db"), { timeout: 5_000 });
    const { client, sent } = recording(raw);
    const clock = testClock();
    const svc = createMockConnector("svc", { methods: { read: { readOnly: true }, order: { needsApproval: true } } });
    const runtime = createDurableRuntime({
      store: client as never,
      executor: sharedExecutor(),
      connectors: { svc },
      maxExecutions: 2,
      retention: { maxAgeMs: 3 * HOUR_MS, minAgeMs: HOUR_MS },
      _internal: { now: clock.now, generateId: sequentialIds("plan") },
    });
    try {
      for (const scope of ["alice", "bob", undefined, "alice", "alice", "bob"]) {
        await runtime.execute({ code: "async () => svc.read({})", ...(scope === undefined ? {} : { scope }) });
        clock.advance(HOUR_MS);
      }
      sent.length = 0;
      const paused = await runtime.execute({
        code: "async () => svc.order({ n: await svc.read({}) })",
        scope: "alice",
      });
      expect(paused.status).toBe("paused");
      expect(await runtime.approve({ executionId: paused.executionId, scope: "alice" })).toMatchObject({
        status: "completed",
      });
      await runtime.executions(50);
      await runtime.executions(50, { scope: "alice" });
      clock.advance(2 * HOUR_MS);
      expect((await runtime.pruneExecutions()).deleted.length).toBeGreaterThan(0);
      const touching = sent.filter((statement) => {
        const sql = typeof statement === "string" ? statement : statement.sql;
        return /codemode_(executions|calls)/.test(sql) && !/^\s*(CREATE|PRAGMA)/i.test(sql);
      });
      // The listing, the run start's prune (by count and by age) and the explicit prune's owners were all sent.
      const texts = touching.map((statement) => (typeof statement === "string" ? statement : statement.sql));
      expect(texts.some((sql) => sql.includes("ORDER BY created_at DESC") && sql.includes("scope = ?"))).toBe(true);
      expect(texts.some((sql) => sql.includes("scope IS ?") && sql.startsWith("DELETE"))).toBe(true);
      expect(texts.some((sql) => sql.includes("WITH RECURSIVE owners"))).toBe(true);
      const costly: string[] = [];
      for (const statement of touching) {
        const plan = await planOf(raw, statement);
        if (plan.some((line) => GROWS_WITH_JOURNAL.test(line))) {
          costly.push(`${typeof statement === "string" ? statement : statement.sql}\n  ${plan.join("\n  ")}`);
        }
      }
      expect(costly).toEqual([]);
    } finally {
      await runtime.close();
      raw.close();
    }
  });

  it("the retention statements name the statuses the partial indexes were built with", () => {
    expect(TERMINAL_SQL).toBe(ENDED_SQL);
  });
});
