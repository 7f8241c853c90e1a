/**
 * Journal cost, side by side in one run (SPEC §6: a 1,000-call execution on a
 * file database costs at most ~2x the same run without a journal; resuming
 * reads the log in O(1) queries):
 * - a 1,000-call execution run by the executor alone (plain bindings) and
 *   through the durable runtime on a `file:` database, for both executor isolations;
 * - resume cost (approve → replay → finish) for logs of 100 / 1,000 / 10,000
 *   calls, with round trips and statements counted by a wrapped client;
 * - statements and round trips per connector call;
 * - tracing off and on, side by side (`tracing-cost.ts`).
 *
 * Run: `node --import tsx bench/journal.ts` (or through `bench/index.ts`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient, type Client } from "@libsql/client";
import type { Connector } from "../src/connectors/types.js";
import { createDurableRuntime } from "../src/runtime/durable-runtime.js";
import { LocalSqliteClient } from "../src/runtime/store/connection/local-sqlite-client.js";
import { collectGarbage } from "./gc.js";
import { tracingCostSection } from "./tracing-cost.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import type { Executor } from "../src/sandbox/types.js";

const CALLS = 1_000;
const SAMPLES = 7;
const RESUME_SIZES = [100, 1_000, 10_000];
const RESUME_SAMPLES = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Counts round trips and statements sent through a client. */
interface CountingClient {
  client: Client;
  counts: { roundTrips: number; statements: number };
}

function counting(inner: Client): CountingClient {
  const counts = { roundTrips: 0, statements: 0 };
  const client = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "execute") {
        return (...args: Parameters<Client["execute"]>) => {
          counts.roundTrips += 1;
          counts.statements += 1;
          return target.execute(...args);
        };
      }
      if (property === "batch") {
        return (...args: Parameters<Client["batch"]>) => {
          counts.roundTrips += 1;
          counts.statements += args[0].length;
          return target.batch(...args);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { client, counts };
}

const svc: Connector = {
  methods: {
    inc: { execute: (args) => (args as { i: number }).i + 1 },
    gate: { needsApproval: true, execute: () => "approved" },
  },
};

const LOOP = (calls: number, tail = "") =>
  `async () => { let sum = 0; for (let i = 0; i < ${calls}; i++) sum += await svc.inc({ i }); ${tail} return sum; }`;

function freshDatabase(): { path: string; cleanup: () => void } {
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-"));
  return { path: join(folder, "journal.db"), cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

async function withoutJournal(executor: Executor): Promise<number> {
  const functions = { inc: (args: unknown) => Promise.resolve((args as { i: number }).i + 1) };
  const started = performance.now();
  const result = await executor.run({ program: LOOP(CALLS), bindings: [{ global: "svc", functions }] });
  if (result.error !== undefined) throw new Error(result.error.message);
  return performance.now() - started;
}

/** The two ways a `file:` database is reached: the runtime's own embedded driver (what `store: "file:…"` opens) or an `@libsql/client` Client handed in. */
const DRIVERS = {
  "embedded (default for `file:` URLs)": (path: string): Client | LocalSqliteClient =>
    new LocalSqliteClient(path, { timeout: 10_000 }),
  "`@libsql/client` Client passed as `store`": (path: string): Client | LocalSqliteClient =>
    createClient({ url: `file:${path}`, timeout: 10_000, concurrency: 1 }),
};

async function overheadRows(): Promise<{ rows: string[]; perCall: { statements: number; roundTrips: number } }> {
  const rows: string[] = [];
  let perCall = { statements: 0, roundTrips: 0 };
  for (const isolation of ["worker-thread", "in-process"] as const) {
    for (const [driver, open] of Object.entries(DRIVERS)) {
      const executor = new QuickJSExecutor({ isolation, poolSize: 1 });
      const database = freshDatabase();
      const { client, counts } = counting(open(database.path) as Client);
      const runtime = createDurableRuntime({
        store: client,
        executor,
        connectors: { svc },
        maxExecutions: 1_000,
        // A measured program, not a runaway: over the default call budget (1,000) on purpose.
        limits: { maxCalls: 2 * CALLS },
      });
      await runtime.execute({ code: "async () => svc.inc({ i: 0 })" });
      await withoutJournal(executor);
      const plain: number[] = [];
      const journaled: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample++) {
        collectGarbage();
        plain.push(await withoutJournal(executor));
        collectGarbage();
        const before = { ...counts };
        const started = performance.now();
        const out = await runtime.execute({ code: LOOP(CALLS) });
        journaled.push(performance.now() - started);
        if (out.status !== "completed") throw new Error(JSON.stringify(out));
        perCall = {
          statements: (counts.statements - before.statements) / CALLS,
          roundTrips: (counts.roundTrips - before.roundTrips) / CALLS,
        };
      }
      const a = median(plain);
      const b = median(journaled);
      rows.push(
        `| ${isolation} | ${driver} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)}x | ${(((b - a) / CALLS) * 1000).toFixed(1)} |`,
      );
      await runtime.close();
      await executor.dispose();
      client.close();
      database.cleanup();
    }
  }
  return { rows, perCall };
}

async function resumeRows(): Promise<string[]> {
  const rows: string[] = [];
  const executor = new QuickJSExecutor({ isolation: "in-process", timeoutMs: 600_000 });
  for (const size of RESUME_SIZES) {
    const database = freshDatabase();
    const { client, counts } = counting(new LocalSqliteClient(database.path, { timeout: 10_000 }) as unknown as Client);
    const runtime = createDurableRuntime({
      store: client,
      executor,
      connectors: { svc },
      maxExecutions: 1_000,
      limits: { maxCalls: 2 * Math.max(...RESUME_SIZES) },
    });
    const times: number[] = [];
    let trips = 0;
    let statements = 0;
    for (let sample = 0; sample < RESUME_SAMPLES; sample++) {
      const paused = await runtime.execute({ code: LOOP(size, "await svc.gate({});") });
      collectGarbage();
      if (paused.status !== "paused") throw new Error(JSON.stringify(paused));
      const before = { ...counts };
      const started = performance.now();
      const resumed = await runtime.approve({ executionId: paused.executionId });
      times.push(performance.now() - started);
      if (resumed.status !== "completed") throw new Error(JSON.stringify(resumed));
      trips = counts.roundTrips - before.roundTrips;
      statements = counts.statements - before.statements;
    }
    const time = median(times);
    rows.push(
      `| ${size.toLocaleString("en-US")} | ${time.toFixed(1)} | ${((time / size) * 1000).toFixed(1)} | ${trips} | ${statements} |`,
    );
    await runtime.close();
    client.close();
    database.cleanup();
  }
  await executor.dispose();
  return rows;
}

/** Runs the journal suite and returns its markdown section. */
export async function run(): Promise<string> {
  const overhead = await overheadRows();
  const resume = await resumeRows();
  const tracing = await tracingCostSection();
  return [
    "## Journal (durable runtime on a file database)",
    "",
    `A ${CALLS.toLocaleString("en-US")}-call program (\`for … sum += await svc.inc({ i })\`), median of ${SAMPLES}: the executor alone with plain bindings vs. \`runtime.execute\` journaling every call to a fresh \`file:\` libSQL database (WAL), through the runtime's embedded driver (what a \`file:\` URL opens: one native connection, statements prepared once) and through an \`@libsql/client\` Client handed in (which prepares every statement anew). Target: at most ~2x.`,
    "",
    "| executor isolation | store driver | without journal (ms) | with journal (ms) | ratio | journal cost per call (µs) |",
    "|---|---|---:|---:|---:|---:|",
    ...overhead.rows,
    "",
    `Per connector call: ${overhead.perCall.statements.toFixed(3)} statements in ${overhead.perCall.roundTrips.toFixed(3)} round trips (the \`executing\` row must be durable before the connector runs; the previous call's \`applied\` update is merged into the same upsert statement — group commit).`,
    "",
    `Resume: \`approve()\` of an execution paused after N recorded calls (replays N, runs the approved call, completes), median of ${RESUME_SAMPLES}; round trips and statements counted by a wrapped client. Work is linear in N; the number of queries is constant.`,
    "",
    "| recorded calls | resume (ms) | per recorded call (µs) | round trips | statements |",
    "|---:|---:|---:|---:|---:|",
    ...resume,
    "",
    tracing,
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`);
}
