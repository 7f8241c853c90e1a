import { afterAll, describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

function bank() {
  return createMockConnector("bank", {
    methods: {
      balance: { result: 100 },
      pay: { needsApproval: true, result: (args: unknown) => ({ paid: args }) },
      refund: { needsApproval: true, result: (args: unknown) => ({ refunded: args }) },
      note: {},
    },
  });
}

describe("pauses through the worker-thread executor (the default)", () => {
  // Calls from a worker arrive as separate messages, after the first pause was journaled: the
  // siblings of a Promise.all must still all be pending at once, and a swallowed pause still guarded.
  const executor = new QuickJSExecutor({ isolation: "worker-thread", poolSize: 1 });
  afterAll(() => executor.dispose());

  it("pauses every approval of a Promise.all together", async () => {
    const connector = bank();
    const runtime = testRuntime({ connectors: { bank: connector }, executor });
    const code =
      "async () => Promise.all([bank.pay({ to: 'a' }), bank.balance({}), bank.refund({ to: 'b' }), bank.pay({ to: 'c' })])";
    const first = await runtime.execute({ code });
    expect(first).toMatchObject({ status: "paused", pending: [{ seq: 1 }, { seq: 3 }, { seq: 4 }] });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({
      status: "completed",
      result: [{ paid: { to: "a" } }, 100, { refunded: { to: "b" } }, { paid: { to: "c" } }],
    });
    expect(connector.ledger.count("bank.pay")).toBe(2);
    expect(connector.ledger.duplicates()).toEqual([]);
  });

  it("a swallowed pause gets no further effects", async () => {
    const connector = bank();
    const runtime = testRuntime({ connectors: { bank: connector }, executor });
    const first = await runtime.execute({
      code: "async () => { try { await bank.pay({ n: 1 }); } catch {} await bank.note({}); return 1; }",
    });
    expect(first.status).toBe("paused");
    expect(connector.ledger.count("bank.note")).toBe(0);
  });
});

describe("pauses", () => {
  it("pauses calls issued together in Promise.all at once and replays them safely", async () => {
    const connector = bank();
    const runtime = testRuntime({ connectors: { bank: connector } });
    const code =
      "async () => { const [a, b, c] = await Promise.all([bank.pay({ to: 'a' }), bank.balance({}), bank.refund({ to: 'b' })]); return { a, b, c }; }";
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    if (first.status !== "paused") return;
    expect(first.pending.map((action) => [action.seq, action.method])).toEqual([
      [1, "pay"],
      [3, "refund"],
    ]);
    expect(await runtime.pending(first.executionId)).toHaveLength(2);
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({
      status: "completed",
      result: { a: { paid: { to: "a" } }, b: 100, c: { refunded: { to: "b" } } },
    });
    expect(connector.ledger.count("bank.pay")).toBe(1);
    expect(connector.ledger.count("bank.refund")).toBe(1);
    expect(connector.ledger.count("bank.balance")).toBe(1);
    expect(connector.ledger.duplicates()).toEqual([]);
  });

  it("approving one of several pending calls runs it and pauses again on the other", async () => {
    const connector = bank();
    const runtime = testRuntime({ connectors: { bank: connector } });
    const first = await runtime.execute({
      code: "async () => Promise.all([bank.pay({ n: 1 }), bank.refund({ n: 2 })])",
    });
    const second = await runtime.approve({ executionId: first.executionId, seq: 1 });
    expect(second).toMatchObject({ status: "paused", pending: [{ seq: 2, method: "refund" }] });
    expect(connector.ledger.count("bank.pay")).toBe(1);
    expect(connector.ledger.count("bank.refund")).toBe(0);
    const third = await runtime.approve({ executionId: first.executionId, seq: 2 });
    expect(third.status).toBe("completed");
    expect(connector.ledger.count("bank.pay")).toBe(1);
    expect(connector.ledger.count("bank.refund")).toBe(1);
  });

  it("a program that swallows the pause gets no further effects in that pass", async () => {
    const connector = bank();
    const runtime = testRuntime({ connectors: { bank: connector } });
    const code = `async () => {
      try { await bank.pay({ n: 1 }); } catch (e) { /* swallowed */ }
      let noted;
      try { await bank.note({ after: "pause" }); noted = true; } catch (e) { noted = e.message; }
      return noted;
    }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    expect(connector.ledger.count("bank.note")).toBe(0);
    expect(connector.ledger.count("bank.pay")).toBe(0);
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls.map((call) => call.method)).toEqual(["pay"]);
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: true });
    expect(connector.ledger.count("bank.note")).toBe(1);
    expect(connector.ledger.count("bank.pay")).toBe(1);
  });

  it("keeps the lines a paused pass printed, through a rejection, until a later pass replaces them", async () => {
    const runtime = testRuntime({ connectors: { bank: bank() } });
    const code = "async () => { console.log('checking', 1); await bank.pay({ n: 1 }); console.log('paid'); return 1; }";
    const paused = await runtime.execute({ code });
    expect(paused).toEqual({ status: "paused", executionId: paused.executionId, pending: expect.any(Array) });
    expect((await runtime.execution(paused.executionId))?.logs).toEqual(["checking 1"]);
    await runtime.reject({ executionId: paused.executionId, reason: "no" });
    expect(await runtime.execution(paused.executionId)).toMatchObject({ status: "rejected", logs: ["checking 1"] });

    const approved = await runtime.execute({ code });
    expect(await runtime.approve({ executionId: approved.executionId })).toMatchObject({
      status: "completed",
      logs: ["checking 1", "paid"],
    });
    expect((await runtime.execution(approved.executionId))?.logs).toEqual(["checking 1", "paid"]);
  });

  it("a call found executing on a later pass is never run again: the run ends interrupted", async () => {
    const connector = bank();
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { bank: connector }, store: client });
    const first = await runtime.execute({ code: "async () => { await bank.note({ a: 1 }); return bank.pay({}); }" });
    // Simulate a process that died between the `executing` and `applied` writes of call #1.
    await client.execute({
      sql: "UPDATE codemode_calls SET status = 'executing', result = NULL WHERE execution_id = ? AND seq = 1",
      args: [first.executionId],
    });
    connector.ledger.clear();
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "error", kind: "interrupted" });
    expect(connector.ledger.entries).toEqual([]);
  });

  it("aborting the caller's signal ends the run with kind abort", async () => {
    const connector = createMockConnector("slow", {
      methods: { wait: { result: () => new Promise((resolve) => setTimeout(resolve, 300)) } },
    });
    const runtime = testRuntime({ connectors: { slow: connector } });
    const controller = new AbortController();
    const running = runtime.execute(
      { code: "async () => { await slow.wait({}); return 1; }" },
      { abortSignal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    const out = await running;
    expect(out).toMatchObject({ status: "error", kind: "abort" });
  });
});

describe("leases and stuck calls", () => {
  it("a pass whose lease was taken by expirePaused writes nothing more and runs nothing more", async () => {
    let release: (() => void) | undefined;
    const slow = createMockConnector("slow", {
      methods: {
        wait: {
          result: () =>
            new Promise<void>((resolve) => {
              release = resolve;
            }),
        },
        after: {},
      },
    });
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { slow }, store: client, _internal: { leaseMs: 1000 } });
    const running = runtime.execute({ code: "async () => { await slow.wait({}); return slow.after({}); }" });
    while (release === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    runtime.clock.advance(5000);
    const [expired] = (await runtime.expirePaused()).expired;
    expect(expired).toMatchObject({ status: "error" });
    release();
    const out = await running;
    expect(out).toMatchObject({ status: "error", kind: "conflict" });
    expect(slow.ledger.count("slow.after")).toBe(0);
    expect(await runtime.execution(out.executionId)).toMatchObject({
      status: "error",
      kind: "expired",
      calls: [{ status: "error" }],
    });
  });

  it("a connector that never settles does not hold the run after the program failed", async () => {
    const stuck = createMockConnector("stuck", { methods: { forever: { result: () => new Promise(() => {}) } } });
    const runtime = testRuntime({ connectors: { stuck }, _internal: { inflightGraceMs: 50 } });
    const out = await runtime.execute({ code: "async () => { stuck.forever({}); throw new Error('gave up'); }" });
    expect(out).toMatchObject({ status: "error", kind: "exception" });
    expect((out as { error: string }).error).toContain("gave up");
  });
});
