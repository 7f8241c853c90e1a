/**
 * The retention and listing statements on a real libSQL file: every statement a run start, an approval, a listing
 * (of executions, of pending calls) and a prune send to the journal walks an index (`EXPLAIN QUERY PLAN`: no full scan of the executions or calls,
 * no sort in a temporary b-tree), so none costs more as the journal grows; and what the prune deletes, checked
 * against a small reference model of the rule over random histories.
 */
import { join } from "node:path";
import type { InStatement } from "@libsql/client";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PruneRule } from "../../../src/runtime/journal/journal-store.js";
import { pruneRule, type ResolvedRetention } from "../../../src/runtime/retention-options.js";
import { createLibsqlJournalStore } from "../../../src/runtime/store/libsql-journal-store.js";
import { createDurableRuntime } from "../../../src/runtime/durable-runtime.js";
import { TERMINAL_SQL } from "../../../src/runtime/store/store-context.js";
import { ENDED_SQL } from "../../../src/runtime/store/migrations.js";
import { LocalSqliteClient } from "../../../src/runtime/store/connection/local-sqlite-client.js";
import type { SqlClient } from "../../../src/runtime/store/connection/sql-client.js";
import { createMockConnector } from "../../../src/test/index.js";
import { tempFolder } from "../../support/temp-folder.js";
import { memoryClient, sequentialIds, sharedExecutor, testClock } from "../runtime-fixture.js";

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

/**
 * A plan line that costs as much as the journal: a table walked whole, or rows sorted after reading them all. (A
 * sort of the right part of an ORDER BY only orders rows already found by an index, e.g. paused executions' calls.)
 */
const GROWS_WITH_JOURNAL = /^SCAN codemode_(executions|calls)\b|TEMP B-TREE FOR ORDER BY/;

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
      const waiting = await runtime.execute({ code: "async () => svc.order({})", scope: "bob" });
      expect(await runtime.pending(waiting.executionId, { scope: "bob" })).toHaveLength(1);
      expect(await runtime.pending()).toHaveLength(1);
      expect(await runtime.pending(undefined, { scope: "bob" })).toHaveLength(1);
      clock.advance(2 * HOUR_MS);
      expect((await runtime.pruneExecutions()).deleted.length).toBeGreaterThan(0);
      const touching = sent.filter((statement) => {
        const sql = typeof statement === "string" ? statement : statement.sql;
        return /codemode_(executions|calls)/.test(sql) && !/^\s*(CREATE|PRAGMA)/i.test(sql);
      });
      // The listings, the run start's prune (by count and by age) and the explicit prune's owners were all sent.
      const texts = touching.map((statement) => (typeof statement === "string" ? statement : statement.sql));
      expect(texts.some((sql) => sql.includes("ORDER BY created_at DESC") && sql.includes("scope = ?"))).toBe(true);
      expect(texts.some((sql) => sql.includes("scope IS ?") && sql.startsWith("DELETE"))).toBe(true);
      expect(texts.some((sql) => sql.includes("WITH RECURSIVE owners"))).toBe(true);
      expect(texts.some((sql) => sql.includes("CROSS JOIN codemode_calls"))).toBe(true);
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

/** One execution of the reference model. */
interface ModelExecution {
  id: string;
  owner: string | null;
  status: "running" | "paused" | "completed";
  endedAt: number;
  order: number;
}

/** The reference model of retention: which ended executions one part of a rule deletes, oldest ended first. */
function modelSelected(
  executions: ModelExecution[],
  rule: PruneRule,
  part: { owner: string | null } | "age",
): ModelExecution[] {
  const ended = executions
    .filter((execution) => execution.status === "completed")
    .sort((a, b) => a.endedAt - b.endedAt || a.order - b.order);
  if (part === "age") {
    const before = Math.min(rule.endedBefore, rule.expiredBefore ?? rule.endedBefore);
    return ended.filter((execution) => execution.endedAt < before).slice(0, rule.limit);
  }
  const owned = ended.filter((execution) => execution.owner === part.owner);
  return owned
    .slice(0, Math.max(0, owned.length - (rule.keepPerOwner ?? owned.length)))
    .filter((execution) => execution.endedAt < rule.endedBefore)
    .slice(0, rule.limit);
}

/** What survives a full prune by `rule`: whatever is not ended, in its grace, or (not expired and) in its owner's newest. */
function modelSurvivors(executions: ModelExecution[], rule: PruneRule): string[] {
  return executions
    .filter((execution) => {
      if (execution.status !== "completed" || execution.endedAt >= rule.endedBefore) return true;
      if (rule.expiredBefore !== undefined && execution.endedAt < rule.expiredBefore) return false;
      if (rule.keepPerOwner === undefined) return true;
      const newer = executions.filter(
        (other) =>
          other.status === "completed" &&
          other.owner === execution.owner &&
          (other.endedAt > execution.endedAt || (other.endedAt === execution.endedAt && other.order > execution.order)),
      );
      return newer.length < rule.keepPerOwner;
    })
    .map((execution) => execution.id)
    .sort();
}

const OWNERS = ["alice", "bob", null] as const;

// Mostly run starts, so owners pile up past their count within the grace and a start meets more than its batch.
const operation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("start" as const),
      owner: fc.constantFrom(...OWNERS),
      end: fc.constantFrom("completed" as const, "completed" as const, "paused" as const, "running" as const),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("advance" as const), ms: fc.constantFrom(0, 1, 4, 12, 30) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("prune" as const),
      keep: fc.constantFrom(0, 1, 2, Number.POSITIVE_INFINITY),
    }),
  },
);

const retention = fc
  .record({
    maxExecutions: fc.constantFrom(1, 2, 3, Number.POSITIVE_INFINITY),
    minAgeMs: fc.constantFrom(0, 5, 20),
    extraAgeMs: fc.option(fc.constantFrom(0, 10, 40), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ maxExecutions, minAgeMs, extraAgeMs, limit }) => ({
    retention: {
      maxExecutions,
      minAgeMs,
      maxAgeMs: extraAgeMs === undefined ? undefined : minAgeMs + extraAgeMs,
    } satisfies ResolvedRetention,
    limit,
  }));

describe("retention against a reference model (seeded)", () => {
  it("deletes exactly what the rule selects at each run start and after a full prune", async () => {
    const seed = Date.now() % 1_000_000;
    let deletions = 0;
    let fullBatches = 0;
    await fc.assert(
      fc.asyncProperty(
        retention,
        fc.array(operation, { minLength: 10, maxLength: 60 }),
        async (settings, operations) => {
          const store = createLibsqlJournalStore({
            client: memoryClient() as unknown as SqlClient,
            runtime: "r",
            local: true,
            now: () => 0,
            owned: true,
          });
          const model: ModelExecution[] = [];
          let now = 1_000;
          let order = 0;
          const stored = async () => (await store.list(1_000)).map((execution) => execution.executionId).sort();
          const modelIds = () => model.map((execution) => execution.id).sort();
          const remove = (gone: ModelExecution[]) => {
            for (const execution of gone) model.splice(model.indexOf(execution), 1);
          };
          try {
            for (const step of operations) {
              if (step.op === "advance") {
                now += step.ms;
                continue;
              }
              if (step.op === "prune") {
                const rule = pruneRule(settings.retention, { now, keep: step.keep, limit: settings.limit });
                const expected = modelSurvivors(model, rule);
                while ((await store.prune(rule)).length > 0);
                expect(await stored()).toEqual(expected);
                const gone = model.filter((execution) => !expected.includes(execution.id));
                deletions += gone.length;
                remove(gone);
                continue;
              }
              const rule = pruneRule(settings.retention, { now, limit: settings.limit });
              const executionId = `e${order}`;
              await store.startExecution({
                executionId,
                code: "1",
                connectors: [],
                now,
                leaseToken: `lease-${executionId}`,
                leaseUntil: now + 1_000,
                prune: rule,
                ...(step.owner === null ? {} : { scope: step.owner }),
              });
              // The rule's parts in the order the start applies them: the owner's count, then the age limit.
              for (const part of [{ owner: step.owner }, "age"] as const) {
                if (part === "age" ? rule.expiredBefore === undefined : rule.keepPerOwner === undefined) continue;
                const gone = modelSelected(model, rule, part);
                deletions += gone.length;
                // A start that meets a backlog larger than its batch (the bound is what is checked then).
                if (gone.length === rule.limit) fullBatches += 1;
                remove(gone);
              }
              const execution: ModelExecution = {
                id: executionId,
                owner: step.owner,
                status: step.end,
                endedAt: now,
                order: order++,
              };
              model.push(execution);
              if (step.end !== "running") {
                const pass = store.passJournal({ runtime: "r", executionId, leaseToken: `lease-${executionId}` });
                expect(await pass.finish({ status: step.end, logs: [], now })).toBe(true);
              }
              expect(await stored()).toEqual(modelIds());
            }
          } finally {
            store.close();
          }
        },
      ),
      { seed, numRuns: 60, verbose: true },
    );
    // Not vacuous: the histories pruned, and starts met backlogs larger than their batch.
    expect(deletions, `seed ${seed}`).toBeGreaterThan(0);
    expect(fullBatches, `seed ${seed}`).toBeGreaterThan(0);
  });
});
