/**
 * What a run costs as the journal grows: an embedded file journal seeded (one bulk SQL insert, not by running
 * programs) with 0, 10,000 and 100,000 ended executions of many owners, then, on the same file:
 * - execute → pause: a program with a read and an effect that needs approval, for a new owner;
 * - approve: its approval, to completion;
 * - list 50: `executions(50)`, newest first, and `executions(50, { scope })` of one owner;
 * - prune: the bounded batch a run start deletes (8 executions past an owner's `maxExecutions`, 8 past
 *   `retention.maxAgeMs`, each with its calls), as one write.
 * Each a median of several runs, with its ratio to the empty journal.
 *
 * Run: `npm run bench -- journal-scale` (or `node --import tsx bench/journal-scale.ts`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Connector } from "../src/connectors/types.js";
import { createDurableRuntime } from "../src/runtime/durable-runtime.js";
import { PRUNE_AT_START_LIMIT, pruneRule, type ResolvedRetention } from "../src/runtime/retention-options.js";
import { LocalSqliteClient } from "../src/runtime/store/connection/local-sqlite-client.js";
import { LOCAL_CONNECTION_PRAGMAS } from "../src/runtime/store/migrations.js";
import { pruneAtStartStatements } from "../src/runtime/store/retention-rows.js";
import { collectGarbage } from "./gc.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";

const SIZES = [0, 10_000, 100_000];
const SAMPLES = 21;
/** Each seeded owner holds `maxExecutions` ended runs: the steady state of a multi-user app. */
const PER_OWNER = 50;
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const RETENTION: ResolvedRetention = { maxExecutions: PER_OWNER, maxAgeMs: 30 * DAY_MS, minAgeMs: HOUR_MS };
const PROGRAM = "async () => { const stock = await svc.read({ sku: 'a' }); return svc.order({ sku: 'a', stock }); }";

const svc: Connector = {
  methods: {
    read: { readOnly: true, execute: () => 3 },
    order: { needsApproval: true, execute: () => "ordered" },
  },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const EXECUTION_COLUMNS =
  "record_version, status, code, connectors, passes, result, logs, error, kind, tool_call_id, trace_context, budgets, modules";
const CALL_COLUMNS =
  "record_version, connector, method, args, status, result, error, replay, requires_approval, approved_at, started_at, finished_at, replayed_count, cost, decided_by, approved_args";

/**
 * Copies the completed `template` execution and its calls `count` times in one write: ids `<prefix><i>`, owners
 * `<owner><i % owners>`, each ended `endedAgoMs + i * stepMs` before `now` (created a second before it ended).
 */
async function seed(
  client: LocalSqliteClient,
  {
    template,
    prefix,
    count,
    owner,
    owners,
    now,
    endedAgoMs,
    stepMs,
  }: {
    template: string;
    prefix: string;
    count: number;
    owner: string;
    owners: number;
    now: number;
    endedAgoMs: number;
    stepMs: number;
  },
): Promise<void> {
  if (count === 0) return;
  await client.batch(
    [
      {
        sql: `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < CAST(? AS INTEGER))
          INSERT INTO codemode_executions (runtime, id, created_at, updated_at, scope, ${EXECUTION_COLUMNS})
          SELECT t.runtime, ? || n.i, CAST(? - ? - n.i * ? - 1000 AS INTEGER), CAST(? - ? - n.i * ? AS INTEGER),
            ? || (n.i % CAST(? AS INTEGER)), ${EXECUTION_COLUMNS}
          FROM n, codemode_executions t WHERE t.id = ?`,
        args: [count, prefix, now, endedAgoMs, stepMs, now, endedAgoMs, stepMs, owner, owners, template],
      },
      {
        sql: `INSERT INTO codemode_calls (runtime, execution_id, seq, ${CALL_COLUMNS})
          SELECT e.runtime, e.id, c.seq, ${CALL_COLUMNS.split(", ")
            .map((column) => `c.${column}`)
            .join(", ")}
          FROM codemode_executions e, codemode_calls c
          WHERE e.runtime = c.runtime AND c.execution_id = ? AND e.id >= ? AND e.id < ?`,
        args: [template, prefix, `${prefix}\u{10FFFF}`],
      },
    ],
    "write",
  );
}

/** Wall-clock and CPU time of one measured operation, ms. */
interface Cost {
  wall: number;
  cpu: number;
}

const MEASURED = ["execute", "approve", "list", "listOwner", "prune"] as const;
type Sample = Record<(typeof MEASURED)[number], Cost>;

interface Row extends Sample {
  size: number;
  fileMb: number;
}

/**
 * Times `operation`: its wall-clock time, and the CPU time of this process meanwhile (the whole run is in this
 * process: the in-process sandbox and the embedded database), which the other processes of a shared machine
 * lengthen far less than the wall clock.
 */
async function timed<T>(operation: () => Promise<T>): Promise<{ value: T; cost: Cost }> {
  collectGarbage();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const value = await operation();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { value, cost: { wall, cpu: (cpu.user + cpu.system) / 1000 } };
}

/** One seeded journal: its runtime, a second connection for seeding and the direct prune, its clock. */
interface Journal {
  size: number;
  folder: string;
  runtime: ReturnType<typeof createDurableRuntime>;
  client: LocalSqliteClient;
  template: string;
  clock: { now: number };
}

async function openJournal(size: number, executor: QuickJSExecutor): Promise<Journal> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-scale-"));
  const path = join(folder, "journal.db");
  const clock = { now: Date.UTC(2026, 11, 1) };
  const runtime = createDurableRuntime({
    store: `file:${path}`,
    executor,
    connectors: { svc },
    maxExecutions: RETENTION.maxExecutions,
    retention: { maxAgeMs: RETENTION.maxAgeMs as number, minAgeMs: RETENTION.minAgeMs },
    _internal: { now: () => clock.now },
  });
  const client = new LocalSqliteClient(path, { timeout: 10_000 });
  // As the store's own connection commits (a prune rides in a run start's batch there).
  for (const pragma of LOCAL_CONNECTION_PRAGMAS) await client.execute(pragma);
  // The template: the measured program, paused and approved, by an owner of its own.
  const paused = await runtime.execute({ code: PROGRAM, scope: "template" });
  await runtime.approve({ executionId: paused.executionId, scope: "template" });
  const template = paused.executionId;
  const now = clock.now;
  // Ended between 2 hours and 29 days ago: past the grace, before the age limit, each owner at its count.
  await seed(client, {
    template,
    prefix: "seed-",
    count: size,
    owner: "user-",
    owners: Math.max(1, size / PER_OWNER),
    now,
    endedAgoMs: 2 * HOUR_MS,
    stepMs: Math.floor((27 * DAY_MS) / Math.max(1, size)),
  });
  // The owner whose run starts prune: a full count of newer ended runs.
  await seed(client, {
    template,
    prefix: "keep-",
    count: PER_OWNER,
    owner: "pruned-",
    owners: 1,
    now,
    endedAgoMs: 2 * HOUR_MS,
    stepMs: 1000,
  });
  // The seed went through the WAL: copy it into the database now, not during a measured run's commit.
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  return { size, folder, runtime, client, template, clock };
}

async function sampleOnce(journal: Journal, sample: number): Promise<Sample> {
  const { runtime, client, template, clock } = journal;
  clock.now += 1000;
  const now = clock.now;
  const scope = `bench-${sample}`;
  const started = await timed(() => runtime.execute({ code: PROGRAM, scope }));
  const out = started.value;
  if (out.status !== "paused") throw new Error(JSON.stringify(out));
  const approved = await timed(() => runtime.approve({ executionId: out.executionId, scope }));
  if (approved.value.status !== "completed") throw new Error(JSON.stringify(approved.value));
  const listed = await timed(() => runtime.executions(50));
  const ownListed = await timed(() => runtime.executions(50, { scope: "pruned-0" }));
  if (listed.value.length !== 50 || ownListed.value.length !== 50) throw new Error("a listing missed rows");
  // A full batch to prune: older ended runs past the owner's count, and runs past the age limit.
  const backlog = { template, count: PRUNE_AT_START_LIMIT, now, stepMs: 1000 };
  await seed(client, { ...backlog, prefix: `old-${sample}-`, owner: "pruned-", owners: 1, endedAgoMs: 3 * HOUR_MS });
  await seed(client, { ...backlog, prefix: `expired-${sample}-`, owner: "gone-", owners: 3, endedAgoMs: 40 * DAY_MS });
  const rule = pruneRule(RETENTION, { now, limit: PRUNE_AT_START_LIMIT });
  const statements = pruneAtStartStatements(rule, "default", "pruned-0");
  const pruned = await timed(() => client.batch(statements, "write"));
  const [byCount, byAge] = [pruned.value[1]?.rows.length ?? 0, pruned.value[3]?.rows.length ?? 0];
  if (byCount !== PRUNE_AT_START_LIMIT || byAge !== PRUNE_AT_START_LIMIT)
    throw new Error(`pruned ${byCount} by count, ${byAge} by age`);
  // The bench's own writes (the backlog, the prune) leave the next measured run the WAL it would have found.
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  return {
    execute: started.cost,
    approve: approved.cost,
    list: listed.cost,
    listOwner: ownListed.cost,
    prune: pruned.cost,
  };
}

async function fileMbOf(client: LocalSqliteClient): Promise<number> {
  const pages = await client.execute("PRAGMA page_count");
  const pageSize = await client.execute("PRAGMA page_size");
  return (Number(pages.rows[0]?.["page_count"] ?? 0) * Number(pageSize.rows[0]?.["page_size"] ?? 0)) / 2 ** 20;
}

/**
 * Every journal measured in each round, in turn, so a busy moment of a shared machine weighs on all sizes alike;
 * the first round warms the statement caches and is dropped.
 */
async function measureAll(executor: QuickJSExecutor): Promise<Row[]> {
  const journals: Journal[] = [];
  try {
    for (const size of SIZES) journals.push(await openJournal(size, executor));
    const samples = journals.map((): Sample[] => []);
    for (let round = 0; round < SAMPLES + 1; round++) {
      for (const [index, journal] of journals.entries()) {
        const sample = await sampleOnce(journal, round);
        if (round > 0) samples[index]?.push(sample);
      }
    }
    const rows: Row[] = [];
    for (const [index, journal] of journals.entries()) {
      const taken = samples[index] ?? [];
      const of = (key: keyof Sample): Cost => ({
        wall: median(taken.map((sample) => sample[key].wall)),
        cpu: median(taken.map((sample) => sample[key].cpu)),
      });
      rows.push({
        size: journal.size,
        execute: of("execute"),
        approve: of("approve"),
        list: of("list"),
        listOwner: of("listOwner"),
        prune: of("prune"),
        fileMb: await fileMbOf(journal.client),
      });
    }
    return rows;
  } finally {
    for (const journal of journals) {
      journal.client.close();
      await journal.runtime.close();
      rmSync(journal.folder, { recursive: true, force: true });
    }
  }
}

/** Runs the journal-scale suite and returns its markdown section. */
export async function run(): Promise<string> {
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  let rows: Row[];
  try {
    rows = await measureAll(executor);
  } finally {
    await executor.dispose();
  }
  const base = rows[0] as Row;
  const table = (clock: keyof Cost) => [
    "| executions | execute → pause | approve | list 50 | list 50 of one owner | prune (16 deleted) | file (MB) |",
    "|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((row) => {
      const cells = MEASURED.map((key) => {
        const value = row[key][clock];
        return `${value.toFixed(2)} (${(value / base[key][clock]).toFixed(2)}×)`;
      });
      return `| ${row.size.toLocaleString("en-US")} | ${cells.join(" | ")} | ${row.fileMb.toFixed(1)} |`;
    }),
  ];
  return [
    "## Journal scale (executions in the journal)",
    "",
    `An embedded \`file:\` journal seeded with N ended executions (bulk SQL copies of a real one, with its 2 calls) of N/${PER_OWNER} owners, ${PER_OWNER} each (\`maxExecutions\`), ended 2 h to 29 days ago (row 0 holds only the bench's own runs: its template and 50 of the pruned owner); \`retention: { maxAgeMs: 30 d, minAgeMs: 1 h }\`. Median of ${SAMPLES} rounds, each measuring every size in turn (a busy moment of the machine weighs on all alike), ms (ratio to the empty journal). execute → pause: a program with a read and an effect needing approval; approve: to completion; list 50: \`executions(50)\` and \`executions(50, { scope })\`; prune: the bounded batch a run start deletes (${PRUNE_AT_START_LIMIT} past an owner's count, ${PRUNE_AT_START_LIMIT} past the age limit, with their calls), as one write. Goal: at most 1.5× at 100,000.`,
    "",
    "Wall clock:",
    "",
    ...table("wall"),
    "",
    "CPU time of the process over the same operations (everything runs in it: the in-process sandbox, the embedded database), which the other processes of a shared machine stretch far less than the wall clock:",
    "",
    ...table("cpu"),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`);
}
