/**
 * Who decided (SPEC §3.7): `approve`, `reject` and `decide` take `decidedBy`, journaled on every call they decide
 * and shown by `execution(id)`; bounded like a scope; absent when not given.
 */
import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

function shopRuntime(options: { approveProgram?: boolean } = {}) {
  const store = memoryClient();
  const shop = createMockConnector("shop", {
    methods: { buy: { needsApproval: true }, refund: { needsApproval: true }, look: {} },
  });
  const runtime = testRuntime({ store, connectors: { shop }, ...options });
  // A second runtime on the same database: what it shows was read back from the journal.
  const reader = testRuntime({ store, connectors: { shop } });
  return { runtime, reader, shop };
}

const TWO_PENDING = "async () => Promise.all([shop.buy({ item: 'lamp' }), shop.refund({ order: 7 })])";

describe("decidedBy", () => {
  it("is journaled for an approval and shown by execution()", async () => {
    const { runtime, reader } = shopRuntime();
    const paused = await runtime.execute({ code: "async () => shop.buy({ item: 'lamp' })" });
    const out = await runtime.approve({ executionId: paused.executionId, decidedBy: "user-42" });
    expect(out.status).toBe("completed");
    const [call] = (await reader.execution(paused.executionId))?.calls ?? [];
    expect(call).toMatchObject({ status: "applied", decidedBy: "user-42" });
    expect(call?.approvedAt).toBeTypeOf("number");
  });

  it("is journaled for a rejection, on every pending call it rejects", async () => {
    const { runtime, reader } = shopRuntime();
    const paused = await runtime.execute({ code: TWO_PENDING });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1 }, { seq: 2 }] });
    const out = await runtime.reject({ executionId: paused.executionId, reason: "no", decidedBy: "ops@example.com" });
    expect(out.status).toBe("rejected");
    const calls = (await reader.execution(paused.executionId))?.calls ?? [];
    expect(calls.map((call) => [call.seq, call.status, call.decidedBy])).toEqual([
      [1, "error", "ops@example.com"],
      [2, "error", "ops@example.com"],
    ]);
  });

  it("is journaled on each call of a decide (approved and rejected), not on undecided ones", async () => {
    const { runtime, reader } = shopRuntime();
    const paused = await runtime.execute({
      code: "async () => Promise.allSettled([shop.buy({ item: 'a' }), shop.refund({ order: 1 }), shop.buy({ item: 'b' })])",
    });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1 }, { seq: 2 }, { seq: 3 }] });
    const out = await runtime.decide({
      executionId: paused.executionId,
      decisions: [
        { seq: 1, approved: true },
        { seq: 2, approved: false, reason: "not this one" },
      ],
      decidedBy: "user-7",
    });
    expect(out).toMatchObject({ status: "paused", pending: [{ seq: 3 }] });
    const calls = (await reader.execution(paused.executionId))?.calls ?? [];
    expect(calls.map((call) => [call.seq, call.status, call.decidedBy])).toEqual([
      [1, "applied", "user-7"],
      [2, "error", "user-7"],
      [3, "pending", undefined],
    ]);
    expect(calls[2]).not.toHaveProperty("decidedBy");
  });

  it("is journaled on the whole-program approval", async () => {
    const { runtime, reader } = shopRuntime({ approveProgram: true });
    const paused = await runtime.execute({ code: "async () => shop.look({})" });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 0 }] });
    await runtime.approve({ executionId: paused.executionId, seq: 0, decidedBy: "admin" });
    const calls = (await reader.execution(paused.executionId))?.calls ?? [];
    expect(calls[0]).toMatchObject({ seq: 0, status: "applied", decidedBy: "admin" });
    expect(calls[1]).not.toHaveProperty("decidedBy");
  });

  it("is absent when not given", async () => {
    const { runtime, reader } = shopRuntime();
    const paused = await runtime.execute({ code: "async () => shop.buy({ item: 'lamp' })" });
    await runtime.approve({ executionId: paused.executionId });
    const [call] = (await reader.execution(paused.executionId))?.calls ?? [];
    expect(call?.approvedAt).toBeTypeOf("number");
    expect(call).not.toHaveProperty("decidedBy");
  });

  it.each([
    [
      "longer than 200 characters",
      "u".repeat(201),
      /decidedBy must be a non-empty string of at most 200 characters.*got 201 characters/,
    ],
    ["empty", "", /decidedBy must be a non-empty string/],
    ["not a string", 42, /decidedBy must be .*got number/],
  ])("is refused when %s: a validation error and nothing changed", async (_name, decidedBy, message) => {
    const { runtime, shop } = shopRuntime();
    const paused = await runtime.execute({ code: TWO_PENDING });
    const executionId = paused.executionId;
    const requests = [
      runtime.approve({ executionId, decidedBy } as never),
      runtime.reject({ executionId, decidedBy } as never),
      runtime.decide({ executionId, decisions: [{ seq: 1, approved: true }], decidedBy } as never),
    ];
    for (const out of await Promise.all(requests)) {
      expect(out).toMatchObject({ status: "error", kind: "validation" });
      expect((out as { error: string }).error).toMatch(message);
      expect((out as { error: string }).error).toContain("Nothing was changed");
    }
    expect(shop.ledger.count("shop.buy")).toBe(0);
    const detail = await runtime.execution(executionId);
    expect(detail?.status).toBe("paused");
    expect(detail?.calls.map((call) => [call.status, call.approvedAt, call.decidedBy])).toEqual([
      ["pending", undefined, undefined],
      ["pending", undefined, undefined],
    ]);
  });

  it("keeps exactly 200 characters", async () => {
    const { runtime, reader } = shopRuntime();
    const paused = await runtime.execute({ code: "async () => shop.buy({ item: 'lamp' })" });
    const decidedBy = "d".repeat(200);
    await runtime.approve({ executionId: paused.executionId, decidedBy });
    expect((await reader.execution(paused.executionId))?.calls[0]?.decidedBy).toBe(decidedBy);
  });
});
