/**
 * Batched reads under process kill (issue 38): a `readOnly` call (or a step) has no write of its own; its row rides with the
 * pass's next write (an effect's `executing` row, a `pending` row). A `node` process runs the scenario on a file
 * database and kills itself (SIGKILL) inside a read (it ran, its row is only buffered), or just before or just
 * after each write of the first pass and of the approval pass. This process then recovers (`expirePaused` once
 * the lease has run out, `approve` while paused, which replays the recorded reads) and checks: no effect twice or
 * without its row, a read's row exactly when its carrying write committed, no effect before the reads it follows
 * were recorded, and a completed run that replayed every read instead of running it again.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { DEFAULT_LEASE_MS } from "../../src/runtime/durable-runtime-options.js";
import { sharedExecutor } from "../runtime/runtime-fixture.js";
import { tempFolder } from "../support/temp-folder.js";
import { readKillConnector, readKillLedger, readKillProblems } from "./support/read-kill-scenario.js";

const WORKER = fileURLToPath(new URL("./fixtures/read-kill-worker.ts", import.meta.url));
const PARALLEL = 2;

interface Space {
  folder: string;
  db: string;
  ledger: string;
}

function workspace(from?: Space): Space {
  const folder = tempFolder("codemode-read-kill-");
  const space = { folder, db: `file:${join(folder, "codemode.db")}`, ledger: join(folder, "ledger.jsonl") };
  if (from !== undefined) {
    // A copy of a paused execution (the database, its WAL if any, and the ledger) for an approval to start from.
    for (const name of ["codemode.db", "codemode.db-wal", "ledger.jsonl"])
      if (existsSync(join(from.folder, name))) copyFileSync(join(from.folder, name), join(folder, name));
  }
  return space;
}

interface Ran {
  signal: NodeJS.Signals | null;
  code: number | null;
  report: { executionId: string; writes: number; status: string } | undefined;
  stderr: string;
}

function runWorker(space: Space, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      env: { ...process.env, DB_URL: space.db, LEDGER_FILE: space.ledger, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code, signal) => {
      const line = stdout.split("\n").find((text) => text.startsWith("{"));
      resolve({ code, signal, stderr, report: line === undefined ? undefined : (JSON.parse(line) as Ran["report"]) });
    });
  });
}

/** A later invocation recovers: the dead pass expires, a paused run is approved (replaying its reads). */
async function recoverAndCheck(space: Space, where: string): Promise<string> {
  const client = createClient({ url: space.db });
  const runtime = createDurableRuntime({
    store: client,
    executor: sharedExecutor(),
    connectors: { svc: readKillConnector(space.ledger) },
    _internal: { now: () => Date.now() + DEFAULT_LEASE_MS + 1 },
  });
  try {
    await runtime.expirePaused();
    const [summary] = await runtime.executions(1);
    if (summary?.status === "paused") await runtime.approve({ executionId: summary.executionId });
    const detail = summary === undefined ? undefined : await runtime.execution(summary.executionId);
    expect(readKillProblems(detail, readKillLedger(space.ledger)), where).toEqual([]);
    const [check] = (await client.execute("PRAGMA integrity_check")).rows;
    expect(check?.["integrity_check"], where).toBe("ok");
    return detail?.status ?? "none";
  } finally {
    await runtime.close();
    client.close();
  }
}

const outcomes: string[] = [];
afterAll(() => {
  console.log(`batched reads under process kill: ${outcomes.length} kill points (${outcomes.join(", ")})`);
});

describe("batched reads: SIGKILL inside a read and at every write around it (file database, real processes)", {
  timeout: 600_000,
}, () => {
  it("a new process recovers with no effect twice, reads recorded with their carrying write, reads replayed", async () => {
    // Dry runs: the first pass pauses; the approval, on a copy, completes.
    const paused = workspace();
    const pass = await runWorker(paused, { PHASE: "pass" });
    expect(pass.report?.status, pass.stderr).toBe("paused");
    const executionId = pass.report?.executionId ?? "";
    const approved = await runWorker(workspace(paused), { PHASE: "approval", EXECUTION_ID: executionId });
    expect(approved.report?.status, approved.stderr).toBe("completed");

    type Point = { where: string; phase: "pass" | "approval"; env: Record<string, string>; killed: boolean };
    const points: Point[] = [];
    const writesOf = { pass: pass.report?.writes ?? 0, approval: approved.report?.writes ?? 0 };
    for (const phase of ["pass", "approval"] as const) {
      for (let at = 1; at <= writesOf[phase]; at += 1)
        for (const after of [false, true])
          points.push({
            where: `${phase} write ${at} ${after ? "after" : "before"}`,
            phase,
            env: { KILL_AT: String(at), KILL_AFTER: after ? "1" : "0" },
            killed: true,
          });
    }
    for (const k of ["l1", "l2", "l3"])
      points.push({ where: `pass inside ${k}`, phase: "pass", env: { KILL_READ: k }, killed: true });
    points.push({ where: "approval inside l4", phase: "approval", env: { KILL_READ: "l4" }, killed: true });
    // The approval pass replays l1 from the journal: it never runs, so the process is not killed.
    points.push({ where: "approval inside l1 (replayed)", phase: "approval", env: { KILL_READ: "l1" }, killed: false });

    let next = 0;
    const failures: string[] = [];
    const lane = async (): Promise<void> => {
      while (next < points.length) {
        const point = points[next++]!;
        const space = point.phase === "pass" ? workspace() : workspace(paused);
        const env = { PHASE: point.phase, EXECUTION_ID: executionId, ...point.env };
        const ran = await runWorker(space, env);
        if ((ran.signal === "SIGKILL") !== point.killed)
          failures.push(
            `${point.where}: killed ${ran.signal === "SIGKILL"}, expected ${point.killed} (${ran.code}) ${ran.stderr.slice(0, 300)}`,
          );
        try {
          outcomes.push(`${point.where} → ${await recoverAndCheck(space, point.where)}`);
        } catch (error) {
          failures.push(`${point.where}: ${(error as Error).message.slice(0, 500)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    expect(failures).toEqual([]);
    expect(outcomes.length).toBe(points.length);
  });
});
