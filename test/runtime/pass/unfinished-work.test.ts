/**
 * Defect 7 (issue 14): an approved call must never be dropped in silence. A step that a pause interrupted is not
 * recorded as finished (it runs again on the resumed pass), and an approved call the resumed pass never reaches
 * ends the run with kind `approval-unreached`, never `completed`.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Connector } from "../../../src/connectors/types.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { createMockConnector } from "../../../src/test/index.js";
import { testRuntime } from "../runtime-fixture.js";

describe("unfinished work at the end of a pass", () => {
  it("a transfer inside codemode.step whose pause the program catches runs once on approval (the issue's program)", async () => {
    const bank = createMockConnector("bank", {
      methods: { transfer: { needsApproval: true, result: { ok: true, id: "t-1" } } },
    });
    const runtime = testRuntime({ connectors: { bank } });
    const code = `async () => {
      const paid = await codemode.step("pay", async () => {
        try { return await bank.transfer({ to: "acct-9", cents: 500 }); } catch { return "later"; }
      });
      return paid;
    }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    // The interrupted step is not recorded as finished: only the pending transfer is in the journal.
    const paused = await runtime.execution(first.executionId);
    expect(paused?.calls.map((call) => [call.connector, call.method, call.status])).toEqual([
      ["bank", "transfer", "pending"],
    ]);
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: { ok: true, id: "t-1" } });
    expect(bank.ledger.count("bank.transfer")).toBe(1);
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls.map((call) => [call.seq, call.connector, call.method, call.status])).toEqual([
      [1, "codemode", "pay", "applied"],
      [2, "bank", "transfer", "applied"],
    ]);
  });

  it("a step whose paused call the program does not catch also runs again after approval", async () => {
    const bank = createMockConnector("bank", { methods: { transfer: { needsApproval: true, result: "sent" } } });
    const runtime = testRuntime({ connectors: { bank } });
    const first = await runtime.execute({
      code: `async () => codemode.step("pay", () => bank.transfer({ cents: 1 }))`,
    });
    expect(first.status).toBe("paused");
    expect(await runtime.approve({ executionId: first.executionId })).toMatchObject({
      status: "completed",
      result: "sent",
    });
    expect(bank.ledger.count("bank.transfer")).toBe(1);
  });

  it("an approved call the resumed program no longer reaches ends the run `approval-unreached`, not `completed`", async () => {
    let reads = 0;
    const flags = createMockConnector("flags", {
      methods: { pay_now: { replay: "reexecute", result: () => ++reads === 1 } },
    });
    const bank = createMockConnector("bank", { methods: { transfer: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { flags, bank } });
    const code = `async () => {
      if (await flags.pay_now({})) await bank.transfer({ cents: 700 });
      return "done";
    }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "error", kind: "approval-unreached" });
    expect((resumed as { error: string }).error).toMatch(/Approved call #2 was not run/);
    expect(bank.ledger.count("bank.transfer")).toBe(0);
    const detail = await runtime.execution(first.executionId);
    expect(detail).toMatchObject({ status: "error", kind: "approval-unreached" });
    expect(detail?.calls.find((call) => call.seq === 2)).toMatchObject({ status: "error" });
    expect(await runtime.pending(first.executionId)).toEqual([]);
  });
});

describe("calls still running when a failed pass ends", () => {
  // A short deadline; the runtime's grace after it is the default.
  const executor = new QuickJSExecutor({ isolation: "in-process", timeoutMs: 300 });
  afterAll(() => executor.dispose());

  /** A connector whose `wait` settles only when the test says (or never). */
  function gate(): { connector: Connector; started: Promise<void>; settle: (value: unknown) => void } {
    let settle: (value: unknown) => void = () => undefined;
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const connector: Connector = {
      methods: {
        wait: {
          execute: () =>
            new Promise((resolve) => {
              settle = resolve;
              markStarted();
            }),
        },
      },
    };
    return { connector, started, settle: (value) => settle(value) };
  }

  it("a connector call that never settles: execute() ends with kind timeout, the call and the execution end error", async () => {
    const slow = gate();
    const runtime = testRuntime({ executor, connectors: { slow: slow.connector } });
    const out = await runtime.execute({ code: "async () => { await slow.wait({}); return 'done'; }" });
    expect(out).toMatchObject({ status: "error", kind: "timeout" });
    const detail = await runtime.execution(out.executionId);
    expect(detail).toMatchObject({
      status: "error",
      kind: "timeout",
      calls: [
        {
          seq: 1,
          status: "error",
          error: expect.stringMatching(
            /^Call #1 \(slow\.wait\) was still running when the run ended \(timeout\): its outcome is unknown/,
          ),
        },
      ],
    });
    // It settles later: nothing changes (the pass is over), and nothing throws.
    slow.settle({ late: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await runtime.execution(out.executionId))?.calls[0]).toMatchObject({ status: "error" });
  });

  it("a step open around such a call ends error too", async () => {
    const slow = gate();
    const runtime = testRuntime({ executor, connectors: { slow: slow.connector } });
    const out = await runtime.execute({
      code: "async () => codemode.step('fetch', () => slow.wait({}))",
    });
    expect(out).toMatchObject({ status: "error", kind: "timeout" });
    const detail = await runtime.execution(out.executionId);
    expect(detail?.status).toBe("error");
    expect(detail?.calls.map((call) => [call.seq, call.connector, call.method, call.status])).toEqual([
      [1, "codemode", "fetch", "error"],
      [2, "slow", "wait", "error"],
    ]);
    expect(detail?.calls[0]?.error).toMatch(/step "fetch"\) was still running/);
  });
});
