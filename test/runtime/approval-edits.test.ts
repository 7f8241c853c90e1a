/**
 * Approve with changes: `approve({ executionId, seq, args })` and `args` on a `decide` decision run the call with
 * the approver's arguments, journaled beside the program's; replay matches the program's own.
 */
import type { JSONSchema7 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "./runtime-fixture.js";

const AMOUNT_SCHEMA: JSONSchema7 = {
  type: "object",
  properties: { amount: { type: "number", minimum: 1 }, note: { type: "string" } },
  required: ["amount"],
  additionalProperties: false,
};

function billing(editable = true) {
  return createMockConnector("billing", {
    methods: {
      refund: {
        needsApproval: true,
        editable,
        inputSchema: AMOUNT_SCHEMA,
        result: (args: unknown) => ({ refunded: (args as { amount: number }).amount }),
      },
      lookup: { result: { order: 7 } },
    },
  });
}

const SINGLE = `async () => {
  const order = await billing.lookup({});
  const refund = await billing.refund({ amount: 500, note: "order " + order.order });
  return refund;
}`;

function refundsRun(connector: ReturnType<typeof billing>): unknown[] {
  return connector.ledger.entries.filter((entry) => entry.method === "refund").map((entry) => entry.args);
}

describe("approve with changes", () => {
  it("runs a single call with the approver's arguments; the output and execution() show both sets", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const paused = await runtime.execute({ code: SINGLE });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 2, editable: true }] });
    const done = await runtime.approve({ executionId: paused.executionId, seq: 2, args: { amount: 50 } });
    expect(done).toMatchObject({
      status: "completed",
      result: { refunded: 50 },
      edited: [
        {
          seq: 2,
          connector: "billing",
          method: "refund",
          args: { amount: 500, note: "order 7" },
          approvedArgs: { amount: 50 },
        },
      ],
    });
    expect(refundsRun(shop)).toEqual([{ amount: 50 }]);
    const detail = await runtime.execution(paused.executionId);
    expect(detail?.calls.find((call) => call.seq === 2)).toMatchObject({
      status: "applied",
      args: { amount: 500, note: "order 7" },
      approvedArgs: { amount: 50 },
      result: { refunded: 50 },
    });
    // A call that ran with the program's arguments has no approvedArgs.
    expect(detail?.calls.find((call) => call.seq === 1)).not.toHaveProperty("approvedArgs");
  });

  it("an edit may lower a call's cost but not raise it past what was charged (the cost budget holds)", async () => {
    const shop = billing();
    const refund = shop.methods.refund;
    if (refund === undefined) throw new Error("billing.refund is defined above");
    refund.cost = (args) => (args as { amount: number }).amount;
    const runtime = testRuntime({ connectors: { billing: shop }, limits: { maxCost: 600 } });
    const paused = await runtime.execute({ code: SINGLE });
    expect(paused.status).toBe("paused");
    const raised = await runtime.approve({ executionId: paused.executionId, seq: 2, args: { amount: 5000 } });
    expect(raised).toMatchObject({ status: "error", kind: "validation" });
    expect((raised as { error: string }).error).toContain("would cost 5000, more than the 500 charged");
    expect(refundsRun(shop)).toEqual([]);
    expect((await runtime.execution(paused.executionId))?.status).toBe("paused");
    const lowered = await runtime.approve({ executionId: paused.executionId, seq: 2, args: { amount: 50 } });
    expect(lowered).toMatchObject({ status: "completed", result: { refunded: 50 } });
    expect(refundsRun(shop)).toEqual([{ amount: 50 }]);
  });

  it("records the cost of the arguments that ran, and budgets later calls on it", async () => {
    const shop = billing();
    const refund = shop.methods.refund;
    if (refund === undefined) throw new Error("billing.refund is defined above");
    refund.cost = (args) => (args as { amount: number }).amount;
    const runtime = testRuntime({ connectors: { billing: shop }, limits: { maxCost: 600 } });
    const code = "async () => [await billing.refund({ amount: 450 }), await billing.refund({ amount: 350 })]";
    const paused = await runtime.execute({ code });
    const edited = await runtime.approve({ executionId: paused.executionId, seq: 1, args: { amount: 200 } });
    // 200 + 350 fits the budget of 600: the second refund asks for approval instead of ending the run.
    expect(edited).toMatchObject({ status: "paused", pending: [{ seq: 2, args: { amount: 350 } }] });
    const calls = (await runtime.execution(paused.executionId))?.calls ?? [];
    expect(calls.map((call) => [call.seq, call.cost])).toEqual([
      [1, 200],
      [2, 350],
    ]);
  });

  it("names the calls the cost was spent by when the budget ends the run", async () => {
    const shop = billing();
    const refund = shop.methods.refund;
    if (refund === undefined) throw new Error("billing.refund is defined above");
    refund.cost = (args) => (args as { amount: number }).amount;
    const runtime = testRuntime({ connectors: { billing: shop }, limits: { maxCost: 600 } });
    const code = "async () => [await billing.refund({ amount: 450 }), await billing.refund({ amount: 350 })]";
    const paused = await runtime.execute({ code });
    const ended = await runtime.approve({ executionId: paused.executionId, seq: 1 });
    expect(ended).toMatchObject({ status: "error", kind: "limit" });
    expect((ended as { error: string }).error).toContain("450 was spent by 1 call made; call #2");
  });

  it("survives two more passes: replay matches the program's arguments and returns the edited call's result", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const code = `async () => {
      const first = await billing.refund({ amount: 500 });
      const second = await billing.refund({ amount: 20 });
      const third = await billing.refund({ amount: 30 });
      return [first.refunded, second.refunded, third.refunded];
    }`;
    const paused = await runtime.execute({ code });
    const { executionId } = paused;
    const edited = await runtime.approve({ executionId, seq: 1, args: { amount: 50 } });
    expect(edited).toMatchObject({ status: "paused", pending: [{ seq: 2 }], edited: [{ seq: 1 }] });
    const second = await runtime.approve({ executionId, seq: 2 });
    expect(second).toMatchObject({ status: "paused", pending: [{ seq: 3 }] });
    const done = await runtime.approve({ executionId, seq: 3 });
    expect(done).toMatchObject({ status: "completed", result: [50, 20, 30], edited: [{ seq: 1 }] });
    expect(refundsRun(shop)).toEqual([{ amount: 50 }, { amount: 20 }, { amount: 30 }]);
    const detail = await runtime.execution(executionId);
    expect(detail?.calls.find((call) => call.seq === 1)?.replayedCount).toBe(2);
  });

  it("edits one of three pending calls, approves another and rejects the third (decide)", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const code = `async () => {
      const settled = await Promise.allSettled([
        billing.refund({ amount: 100 }), billing.refund({ amount: 200 }), billing.refund({ amount: 300 }),
      ]);
      return settled.map((s) => s.status === "fulfilled" ? s.value.refunded : s.reason.message);
    }`;
    const paused = await runtime.execute({ code });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1 }, { seq: 2 }, { seq: 3 }] });
    const done = await runtime.decide({
      executionId: paused.executionId,
      decisions: [
        { seq: 1, approved: true },
        { seq: 2, approved: true, args: { amount: 20 } },
        { seq: 3, approved: false, reason: "no" },
      ],
    });
    expect(done).toMatchObject({
      status: "completed",
      result: [100, 20, "Rejected by a human: no (billing.refund, call #3). The call did not run."],
      edited: [{ seq: 2, args: { amount: 200 }, approvedArgs: { amount: 20 } }],
    });
    expect(refundsRun(shop)).toEqual([{ amount: 100 }, { amount: 20 }]);
  });

  it("refuses a schema-invalid edit with nothing run; the call stays pending and can still be approved", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const paused = await runtime.execute({ code: SINGLE });
    const { executionId } = paused;
    for (const args of [{ amount: "fifty" }, { amount: 0 }, { amount: 5, extra: true }, "50"]) {
      const out = await runtime.approve({ executionId, seq: 2, args });
      expect(out, JSON.stringify(args)).toMatchObject({ status: "error", kind: "validation" });
      expect((out as { error: string }).error).toContain("Nothing was changed or run");
    }
    const viaDecide = await runtime.decide({
      executionId,
      decisions: [{ seq: 2, approved: true, args: { amount: -1 } }],
    });
    expect(viaDecide).toMatchObject({ status: "error", kind: "validation" });
    expect(refundsRun(shop)).toEqual([]);
    expect(await runtime.pending(executionId)).toMatchObject([{ seq: 2, args: { amount: 500, note: "order 7" } }]);
    expect(await runtime.approve({ executionId, seq: 2 })).toMatchObject({ status: "completed" });
    expect(refundsRun(shop)).toEqual([{ amount: 500, note: "order 7" }]);
  });

  it("refuses an edit of a method that is not editable, and args without seq, with nothing run", async () => {
    const shop = billing(false);
    const runtime = testRuntime({ connectors: { billing: shop } });
    const paused = await runtime.execute({ code: SINGLE });
    const { executionId } = paused;
    expect(paused).toMatchObject({ status: "paused" });
    expect((paused as { pending: object[] }).pending[0]).not.toHaveProperty("editable");
    const out = await runtime.approve({ executionId, seq: 2, args: { amount: 50 } });
    expect(out).toMatchObject({ status: "error", kind: "validation" });
    expect((out as { error: string }).error).toContain("billing.refund (call #2) is not editable");
    const decided = await runtime.decide({ executionId, decisions: [{ seq: 2, approved: true, args: { amount: 5 } }] });
    expect(decided).toMatchObject({ status: "error", kind: "validation" });
    const withoutSeq = await runtime.approve({ executionId, args: { amount: 50 } });
    expect(withoutSeq).toMatchObject({ status: "error", kind: "validation" });
    const rejectedWithArgs = await runtime.decide({
      executionId,
      decisions: [{ seq: 2, approved: false, args: { amount: 5 } }],
    });
    expect(rejectedWithArgs).toMatchObject({ status: "error", kind: "validation" });
    expect(refundsRun(shop)).toEqual([]);
    expect(await runtime.pending(executionId)).toHaveLength(1);
  });

  it("binds the edit to its call: another call's seq or another execution is refused, a settled call too", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const first = await runtime.execute({ code: SINGLE });
    const second = await runtime.execute({ code: SINGLE });
    // Call #1 of the first execution ran without approval: an edit cannot land on it.
    expect(await runtime.approve({ executionId: first.executionId, seq: 1, args: { amount: 1 } })).toMatchObject({
      status: "error",
    });
    expect(await runtime.approve({ executionId: first.executionId, seq: 2, args: { amount: 9 } })).toMatchObject({
      status: "completed",
      result: { refunded: 9 },
    });
    // Approved once: the same edit again is refused, and the other execution is untouched.
    expect(await runtime.approve({ executionId: first.executionId, seq: 2, args: { amount: 8 } })).toMatchObject({
      status: "error",
      kind: "conflict",
    });
    expect(await runtime.pending(second.executionId)).toMatchObject([{ seq: 2, args: { amount: 500 } }]);
    expect(refundsRun(shop)).toEqual([{ amount: 9 }]);
  });

  it("a rejection after an edited call lists it as applied with the arguments it ran with", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const code = "async () => { await billing.refund({ amount: 500 }); return billing.refund({ amount: 9 }); }";
    const paused = await runtime.execute({ code });
    await runtime.approve({ executionId: paused.executionId, seq: 1, args: { amount: 50 } });
    const rejected = await runtime.reject({ executionId: paused.executionId });
    expect(rejected).toMatchObject({ status: "rejected", applied: [{ seq: 1, args: { amount: 50 } }] });
  });

  it("an edit equal to the program's arguments is no edit", async () => {
    const shop = billing();
    const runtime = testRuntime({ connectors: { billing: shop } });
    const paused = await runtime.execute({ code: SINGLE });
    const done = await runtime.approve({
      executionId: paused.executionId,
      seq: 2,
      args: { note: "order 7", amount: 500 },
    });
    expect(done).toMatchObject({ status: "completed" });
    expect(done).not.toHaveProperty("edited");
    const detail = await runtime.execution(paused.executionId);
    expect(detail?.calls.find((call) => call.seq === 2)).not.toHaveProperty("approvedArgs");
  });
});
