import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "./runtime-fixture.js";

const THREE = `async () => {
  const settled = await Promise.allSettled([shop.buy({ n: 1 }), shop.buy({ n: 2 }), shop.buy({ n: 3 })]);
  return settled.map((s) => s.status === "fulfilled" ? "ok" : s.reason.message);
}`;

async function pausedOnThree() {
  const shop = createMockConnector("shop", { methods: { buy: { needsApproval: true } } });
  const runtime = testRuntime({ connectors: { shop } });
  const paused = await runtime.execute({ code: THREE });
  expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1 }, { seq: 2 }, { seq: 3 }] });
  return { shop, runtime, executionId: paused.executionId };
}

describe("decide(): several pending calls in one resume", () => {
  it("runs approved calls, rejects rejected ones inside the program (replayed alike later), leaves the rest pending", async () => {
    const { shop, runtime, executionId } = await pausedOnThree();
    const partial = await runtime.decide({
      executionId,
      decisions: [
        { seq: 2, approved: false, reason: "too much" },
        { seq: 3, approved: true },
      ],
    });
    expect(partial).toMatchObject({ status: "paused", pending: [{ seq: 1 }] });
    expect(shop.ledger.count("shop.buy")).toBe(1);
    const done = await runtime.approve({ executionId, seq: 1 });
    expect(done).toMatchObject({
      status: "completed",
      result: ["ok", "Rejected by a human: too much (shop.buy, call #2). The call did not run.", "ok"],
    });
    expect(shop.ledger.count("shop.buy")).toBe(2);
    const detail = await runtime.execution(executionId);
    expect(detail?.calls.map((call) => [call.seq, call.status])).toEqual([
      [1, "applied"],
      [2, "error"],
      [3, "applied"],
    ]);
  });

  it("refuses the whole request, changing nothing, when any decision cannot apply", async () => {
    const { shop, runtime, executionId } = await pausedOnThree();
    const attempts = [
      { decisions: [], kind: "validation" },
      {
        decisions: [
          { seq: 1, approved: true },
          { seq: 1, approved: false },
        ],
        kind: "validation",
      },
      { decisions: [{ seq: 0, approved: true }], kind: "validation" },
      {
        decisions: [
          { seq: 1, approved: true },
          { seq: 9, approved: true },
        ],
        kind: "not-found",
      },
      { decisions: [{ seq: 1, approved: "yes" }], kind: "validation" },
    ];
    for (const attempt of attempts) {
      const out = await runtime.decide({ executionId, decisions: attempt.decisions as never });
      expect(out, JSON.stringify(attempt.decisions)).toMatchObject({ status: "error", kind: attempt.kind });
    }
    expect(shop.ledger.count("shop.buy")).toBe(0);
    expect(await runtime.pending(executionId)).toHaveLength(3);
    expect(await runtime.decide({ executionId: "nope", decisions: [{ seq: 1, approved: true }] })).toMatchObject({
      kind: "not-found",
    });
    // Another owner scope sees the execution as not found, like approve().
    expect(
      await runtime.decide({ executionId, scope: "mallory", decisions: [{ seq: 1, approved: true }] }),
    ).toMatchObject({ kind: "not-found" });
    expect(shop.ledger.count("shop.buy")).toBe(0);
  });

  it("reports a rejected call as rejected in progress on the pass that meets it", async () => {
    const { runtime, executionId } = await pausedOnThree();
    const states: string[] = [];
    await runtime.decide(
      {
        executionId,
        decisions: [
          { seq: 1, approved: true },
          { seq: 2, approved: false },
          { seq: 3, approved: true },
        ],
      },
      {
        onProgress: (event) => {
          if (event.type === "call") states.push(`${event.seq}:${event.state}`);
        },
      },
    );
    expect(states).toContain("2:rejected");
    expect(states).toContain("1:applied");
    expect(states).toContain("3:applied");
  });
});
