/**
 * Crash-point matrix, process kill (issue 7): a `node` process running the
 * crash scenario on a file database kills itself (SIGKILL) just before, or
 * just after, each write of a pass, an approval and a rollback. Another
 * process (this one) then recovers: `expirePaused` once the lease has run
 * out, `approve` while paused, `rollback` once ended. Nothing may run or be
 * reverted twice, every row must match the effects in the ledger file, and
 * `PRAGMA integrity_check` must pass.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { DEFAULT_LEASE_MS } from "../../src/runtime/durable-runtime-options.js";
import { sharedExecutor } from "../runtime/runtime-fixture.js";
import {
  CRASH_PHASES,
  CRASH_RESULT,
  finishScenario,
  scenarioProblems,
  type CrashPhase,
} from "./support/crash-scenario.js";
import { fileLedgerConnector, readLedger } from "./support/ledger-connector.js";
import { tempFolder } from "../support/temp-folder.js";

const WORKER = fileURLToPath(new URL("./fixtures/crash-worker.ts", import.meta.url));
const PARALLEL = 2;

function workspace(): { db: string; ledger: string } {
  const folder = tempFolder("codemode-kill-");
  return { db: `file:${join(folder, "codemode.db")}`, ledger: join(folder, "ledger.jsonl") };
}

function runWorker(
  env: Record<string, string>,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const kills: string[] = [];
afterAll(() => {
  console.log(`crash matrix (process kill): ${kills.length} kill points`);
});

async function recoverAndCheck(space: { db: string; ledger: string }, where: string): Promise<void> {
  const client = createClient({ url: space.db });
  // A later invocation: the killed pass's lease has run out.
  const runtime = createDurableRuntime({
    store: client,
    executor: sharedExecutor(),
    connectors: { svc: fileLedgerConnector(space.ledger) },
    _internal: { now: () => Date.now() + DEFAULT_LEASE_MS + 1 },
  });
  try {
    await runtime.expirePaused();
    const [summary] = await runtime.executions(1);
    if (summary !== undefined) await finishScenario(runtime, summary.executionId);
    const detail = summary === undefined ? undefined : await runtime.execution(summary.executionId);
    expect(scenarioProblems(detail, readLedger(space.ledger), detail?.status === "rolled_back"), where).toEqual([]);
    if (detail?.status === "completed") expect(detail.result, where).toEqual(CRASH_RESULT);
    const [check] = (await client.execute("PRAGMA integrity_check")).rows;
    expect(check?.["integrity_check"], where).toBe("ok");
  } finally {
    await runtime.close();
    client.close();
  }
}

describe("crash-point matrix: SIGKILL at every write boundary (file database, real processes)", {
  timeout: 600_000,
}, () => {
  it("before and after every write of a pass, an approval and a rollback: a new process recovers with nothing twice", async () => {
    const clean = workspace();
    const dry = await runWorker({ DB_URL: clean.db, LEDGER_FILE: clean.ledger, PHASES: CRASH_PHASES.join(",") });
    expect(dry.code, dry.stderr).toBe(0);
    const writes = (JSON.parse(dry.stdout.trim()) as { writes: Record<CrashPhase, number> }).writes;
    expect(writes.pass).toBeGreaterThan(3);

    const points: Array<{ phase: CrashPhase; at: number; after: boolean }> = [];
    for (const phase of CRASH_PHASES) {
      for (let at = 1; at <= writes[phase]; at += 1)
        for (const after of [false, true]) points.push({ phase, at, after });
    }
    let next = 0;
    const failures: string[] = [];
    const lane = async (): Promise<void> => {
      while (next < points.length) {
        const point = points[next++]!;
        const where = `${point.phase} write ${point.at} ${point.after ? "after" : "before"}`;
        const space = workspace();
        const phases = CRASH_PHASES.slice(0, CRASH_PHASES.indexOf(point.phase) + 1).join(",");
        const ran = await runWorker({
          DB_URL: space.db,
          LEDGER_FILE: space.ledger,
          PHASES: phases,
          KILL_PHASE: point.phase,
          KILL_AT: String(point.at),
          KILL_AFTER: point.after ? "1" : "0",
        });
        if (ran.signal !== "SIGKILL")
          failures.push(`${where}: the worker was not killed (${ran.code}) ${ran.stderr.slice(0, 300)}`);
        kills.push(where);
        try {
          await recoverAndCheck(space, where);
        } catch (error) {
          failures.push(`${where}: ${(error as Error).message.slice(0, 500)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    expect(failures).toEqual([]);
    expect(kills.length).toBe(points.length);
  });
});
