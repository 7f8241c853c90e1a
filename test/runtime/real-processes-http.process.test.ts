/**
 * Separate `node` processes sharing one database over HTTP: the Hrana test
 * server (in this process) stands in for Turso, and every worker reaches it
 * through `@libsql/client`'s HTTP transport at `http://127.0.0.1:PORT`, as
 * serverless invocations reach Turso.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { startHranaServer, type HranaServer } from "../support/hrana-server.js";
import { workerStarter, workerWorkspace } from "./fixtures/worker-workspace.js";

const ROUNDS = 50;
const WORKERS = 8;

let folder = "";
let server: HranaServer;
let workspaces = 0;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "codemode-processes-http-"));
  server = await startHranaServer({ path: join(folder, "root.db") });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

function workspace(): ReturnType<typeof workerWorkspace> {
  const name = `w${++workspaces}`;
  return workerWorkspace(server.databaseUrl(name), join(folder, `${name}.jsonl`));
}

const startWorker = workerStarter();

describe("real processes on one database over HTTP (Hrana test server)", { timeout: 180_000 }, () => {
  it("pauses in process A (which exits) and is approved in process B over HTTP: the effect once", async () => {
    const { env, ledger } = workspace();
    const a = await startWorker(env);
    const paused = await a.request<CodemodeOutput>("execute", {
      code: 'async () => shop.charge({ amount: (await shop.quote({ item: "lamp" })).price })',
    });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 2, method: "charge", args: { amount: 40 } }] });
    await a.exit();
    server.resetStats();
    const b = await startWorker(env);
    expect(await b.request<CodemodeOutput>("approve", { executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: { charged: 40, receipt: "r-40" },
    });
    expect(server.stats.pipelines).toBeGreaterThan(0);
    expect(ledger().map((line) => line.method)).toEqual(["quote", "charge"]);
    expect(await b.request("integrity")).toEqual(["ok"]);
  });

  it(`${WORKERS} processes approve the same paused execution at once, ${ROUNDS} rounds: exactly one effect per round, the rest conflict`, async () => {
    const { env, ledger } = workspace();
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => startWorker(env)));
    const kinds = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round += 1) {
      const paused = await workers[round % WORKERS]!.request<CodemodeOutput>("execute", {
        code: `async () => shop.charge({ amount: ${round} })`,
      });
      expect(paused.status).toBe("paused");
      const outcomes = await Promise.all(
        workers.map((worker) => worker.request<CodemodeOutput>("approve", { executionId: paused.executionId, seq: 1 })),
      );
      expect(
        outcomes.filter((outcome) => outcome.status === "completed"),
        `round ${round}`,
      ).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === "error") kinds.set(outcome.kind, (kinds.get(outcome.kind) ?? 0) + 1);
      }
      expect(
        ledger().filter((line) => line.key === `${paused.executionId}:1`),
        `round ${round}`,
      ).toHaveLength(1);
    }
    expect(Object.fromEntries(kinds)).toEqual({ conflict: ROUNDS * (WORKERS - 1) });
    expect(ledger()).toHaveLength(ROUNDS);
  });
});
