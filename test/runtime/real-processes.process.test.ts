/**
 * Separate `node` processes sharing one file database: what a serverless
 * deployment does between the invocation that pauses and the one that approves.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { workerStarter, workerWorkspace } from "./fixtures/worker-workspace.js";
import { tempFolder } from "../support/temp-folder.js";

function workspace(): ReturnType<typeof workerWorkspace> {
  const folder = tempFolder("codemode-processes-");
  return workerWorkspace(`file:${join(folder, "codemode.db")}`, join(folder, "ledger.jsonl"));
}

const startWorker = workerStarter();

const PROGRAM = `async () => {
  const q = await shop.quote({ item: "lamp" });
  const c = await shop.charge({ amount: q.price });
  const r = await shop.quote({ item: "bulb" });
  return { q, c, r, total: q.price + r.price, year: q.at.getUTCFullYear() };
}`;

describe("real processes on one file database", { timeout: 180_000 }, () => {
  it("pauses in process A (which exits) and is approved in process B: every effect once, result equals a run without pauses", async () => {
    const { env, ledger } = workspace();
    const a = await startWorker(env);
    const paused = await a.request<CodemodeOutput>("execute", { code: PROGRAM });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 2, method: "charge", args: { amount: 40 } }] });
    await a.exit();
    const b = await startWorker(env);
    const resumed = await b.request<CodemodeOutput>("approve", { executionId: paused.executionId });
    expect(resumed.status).toBe("completed");
    const effects = ledger();
    expect(effects.map((line) => `${line.method}:${JSON.stringify(line.args)}`)).toEqual([
      'quote:{"item":"lamp"}',
      'charge:{"amount":40}',
      'quote:{"item":"bulb"}',
    ]);
    expect(new Set(effects.map((line) => line.pid)).size).toBe(2);

    const direct = workspace();
    const c = await startWorker({ ...direct.env, APPROVAL: "off" });
    const unpaused = await c.request<CodemodeOutput>("execute", { code: PROGRAM });
    expect(unpaused.status).toBe("completed");
    expect((resumed as { result: unknown }).result).toEqual((unpaused as { result: unknown }).result);
  });

  it("an approval with changed arguments in process B holds over two more passes in processes C and D", async () => {
    const { env, ledger } = workspace();
    const code = `async () => {
      const a = await shop.charge({ amount: 40 });
      const b = await shop.charge({ amount: 50 });
      const c = await shop.charge({ amount: 60 });
      return [a.charged, b.charged, c.charged];
    }`;
    const a = await startWorker(env);
    const paused = await a.request<CodemodeOutput>("execute", { code });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1, args: { amount: 40 }, editable: true }] });
    await a.exit();
    const { executionId } = paused;
    const outputs: CodemodeOutput[] = [];
    for (const approval of [{ seq: 1, args: { amount: 4 } }, { seq: 2 }, { seq: 3 }]) {
      const worker = await startWorker(env);
      outputs.push(await worker.request<CodemodeOutput>("approve", { executionId, ...approval }));
      await worker.exit();
    }
    expect(outputs.map((output) => output.status)).toEqual(["paused", "paused", "completed"]);
    expect(outputs[2]).toMatchObject({
      result: [4, 50, 60],
      edited: [{ seq: 1, args: { amount: 40 }, approvedArgs: { amount: 4 } }],
    });
    const effects = ledger();
    expect(effects.map((line) => line.args)).toEqual([{ amount: 4 }, { amount: 50 }, { amount: 60 }]);
    expect(new Set(effects.map((line) => line.pid)).size).toBe(3);
    const reader = await startWorker(env);
    const detail = await reader.request<{ calls: Array<{ seq: number; replayedCount: number }> }>("execution", {
      executionId,
    });
    await reader.exit();
    expect(detail.calls.find((call) => call.seq === 1)).toMatchObject({
      args: { amount: 40 },
      approvedArgs: { amount: 4 },
      replayedCount: 2,
    });
  });

  it("eight processes approve the same paused execution at once, 50 rounds: exactly one effect per round, the rest conflict", async () => {
    const { env, ledger } = workspace();
    const workers = await Promise.all(Array.from({ length: 8 }, () => startWorker(env)));
    const kinds = new Map<string, number>();
    for (let round = 0; round < 50; round += 1) {
      const paused = await workers[round % 8]!.request<CodemodeOutput>("execute", {
        code: `async () => shop.charge({ amount: ${round} })`,
      });
      expect(paused.status).toBe("paused");
      const outcomes = await Promise.all(
        workers.map((worker) => worker.request<CodemodeOutput>("approve", { executionId: paused.executionId, seq: 1 })),
      );
      const completed = outcomes.filter((outcome) => outcome.status === "completed");
      expect(completed, `round ${round}`).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === "error") kinds.set(outcome.kind, (kinds.get(outcome.kind) ?? 0) + 1);
      }
      expect(
        ledger().filter((line) => line.key === `${paused.executionId}:1`),
        `round ${round}`,
      ).toHaveLength(1);
    }
    expect(Object.fromEntries(kinds)).toEqual({ conflict: 50 * 7 });
    expect(ledger()).toHaveLength(50);
  });

  it("approve racing reject: never both", async () => {
    const { env, ledger } = workspace();
    const [approver, rejecter] = await Promise.all([startWorker(env), startWorker(env)]);
    let approvals = 0;
    for (let round = 0; round < 20; round += 1) {
      const paused = await approver!.request<CodemodeOutput>("execute", {
        code: `async () => shop.charge({ amount: ${round} })`,
      });
      const [approved, rejected] = await Promise.all([
        approver!.request<CodemodeOutput>("approve", { executionId: paused.executionId }),
        rejecter!.request<{ status: string; kind?: string }>("reject", {
          executionId: paused.executionId,
          reason: "race",
        }),
      ]);
      const approveWon = approved.status === "completed";
      const rejectWon = rejected.status === "rejected";
      expect(approveWon !== rejectWon, `round ${round}: exactly one wins`).toBe(true);
      if (approveWon) approvals += 1;
      const finalStatus = (
        await rejecter!.request<{ status: string }>("execution", { executionId: paused.executionId })
      ).status;
      expect(finalStatus).toBe(approveWon ? "completed" : "rejected");
      expect(ledger().filter((line) => line.key === `${paused.executionId}:1`)).toHaveLength(approveWon ? 1 : 0);
    }
    expect(ledger()).toHaveLength(approvals);
  });

  it("kill -9 between a call's executing and applied writes, then expirePaused: error, not re-run, integrity ok", async () => {
    const { env, ledger } = workspace();
    const leaseEnv = { ...env, LEASE_MS: "300" };
    const victim = await startWorker(leaseEnv);
    const running = victim.request("execute", {
      code: 'async () => { await shop.quote({ item: "x" }); await shop.hang({}); return shop.quote({ item: "never" }); }',
    });
    running.catch(() => undefined);
    await victim.waitFor("executing");
    await victim.killHard();
    const survivor = await startWorker(leaseEnv);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const expired = await survivor.request<{ expired: Array<{ executionId: string; status: string }> }>("expire", {});
    expect(expired.expired).toHaveLength(1);
    const [{ executionId, status }] = expired.expired as [{ executionId: string; status: string }];
    expect(status).toBe("error");
    const detail = await survivor.request<{
      status: string;
      kind: string;
      calls: Array<{ method: string; status: string }>;
    }>("execution", { executionId });
    expect(detail).toMatchObject({ status: "error", kind: "expired" });
    expect(detail.calls.map((call) => [call.method, call.status])).toEqual([
      ["quote", "applied"],
      ["hang", "error"],
    ]);
    expect(await survivor.request("approve", { executionId })).toMatchObject({ status: "error", kind: "stale" });
    expect(ledger().map((line) => line.method)).toEqual(["quote", "hang"]);
    expect(await survivor.request("integrity")).toEqual(["ok"]);
  });

  it("a call budget journaled by process A holds when process B, built with another budget, approves", async () => {
    const { env, ledger } = workspace();
    const a = await startWorker({ ...env, MAX_CALLS: "4" });
    const code = `async () => {
      for (let i = 0; i < 3; i++) await shop.quote({ item: "q" + i });
      await shop.charge({ amount: 1 });
      for (let i = 0; i < 10000; i++) await shop.quote({ item: "after" + i });
    }`;
    const paused = await a.request<CodemodeOutput>("execute", { code });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 4, method: "charge" }] });
    await a.exit();
    const b = await startWorker({ ...env, MAX_CALLS: "1000" });
    const resumed = await b.request<CodemodeOutput>("approve", { executionId: paused.executionId });
    expect(resumed).toMatchObject({ status: "error", kind: "limit" });
    expect((resumed as { error: string }).error).toContain(
      "may make 4 connector calls (limits.maxCalls) and has made 4",
    );
    // The three quotes ran in A, the charge in B, nothing after it in either.
    expect(ledger().map((line) => line.method)).toEqual(["quote", "quote", "quote", "charge"]);
    expect(new Set(ledger().map((line) => line.pid)).size).toBe(2);
  });
});
