import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

describe("rollback", () => {
  it("reverts applied calls newest first, including calls that needed no approval, and is idempotent", async () => {
    const crm = createMockConnector("crm", {
      methods: {
        create: { revert: true, result: (args: unknown) => ({ id: (args as { n: number }).n }) },
        approve: { needsApproval: true, revert: true },
        read: {},
      },
    });
    const disposed: string[] = [];
    crm.disposeExecution = (context) => void disposed.push(context.status);
    const runtime = testRuntime({ connectors: { crm } });
    const paused = await runtime.execute({
      code: "async () => { await crm.create({ n: 1 }); await crm.read({}); await crm.create({ n: 2 }); return crm.approve({ n: 3 }); }",
    });
    await runtime.approve({ executionId: paused.executionId });
    const out = await runtime.rollback({ executionId: paused.executionId });
    expect(out).toEqual({
      status: "rolled_back",
      executionId: paused.executionId,
      reverted: [4, 3, 1],
      skipped: [2],
      errors: [],
    });
    expect(crm.ledger.of("revert").map((entry) => entry.args)).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
    const detail = await runtime.execution(paused.executionId);
    expect(detail?.status).toBe("rolled_back");
    expect(detail?.calls.map((call) => call.status)).toEqual(["reverted", "applied", "reverted", "reverted"]);
    expect(disposed).toContain("rolled_back");
    const again = await runtime.rollback({ executionId: paused.executionId });
    expect(again).toMatchObject({ status: "rolled_back", reverted: [] });
    expect(crm.ledger.of("revert")).toHaveLength(3);
  });

  it("tries every revert when one throws and reports the errors after", async () => {
    const ops = createMockConnector("ops", {
      methods: { a: { revert: true }, b: { revert: "revert of b failed" }, c: { revert: true } },
    });
    const runtime = testRuntime({ connectors: { ops } });
    const done = await runtime.execute({ code: "async () => { await ops.a({}); await ops.b({}); await ops.c({}); }" });
    const out = await runtime.rollback({ executionId: done.executionId });
    expect(out).toEqual({
      status: "rolled_back",
      executionId: done.executionId,
      reverted: [3, 1],
      skipped: [],
      errors: [{ seq: 2, error: "revert of b failed" }],
    });
    expect(ops.ledger.of("revert").map((entry) => entry.method)).toEqual(["c", "b", "a"]);
  });

  it("skips missing connectors and stays put when nothing could be reverted", async () => {
    const client = memoryClient();
    const gone = createMockConnector("gone", { methods: { x: { revert: true } } });
    const plain = createMockConnector("plain", { methods: { y: {} } });
    const before = testRuntime({ connectors: { gone, plain }, store: client });
    const done = await before.execute({ code: "async () => { await gone.x({}); await plain.y({}); }" });
    const after = testRuntime({ connectors: { plain }, store: client });
    const ended = await after.execution(done.executionId);
    after.clock.advance(5 * 60_000);
    const out = await after.rollback({ executionId: done.executionId });
    expect(out).toMatchObject({ status: "error", kind: "nothing-to-revert", reverted: [], skipped: [2, 1] });
    // Unchanged, its last update too (the inspector's duration and timeline end there).
    expect(await after.execution(done.executionId)).toEqual(ended);
    expect(gone.ledger.of("revert")).toEqual([]);
  });

  it("execution(id) says which calls rollback can revert: configured here, with a revert", async () => {
    const client = memoryClient();
    const ops = createMockConnector("ops", { methods: { undoable: { revert: true }, final: {} } });
    const gone = createMockConnector("gone", { methods: { x: { revert: true } } });
    const before = testRuntime({ connectors: { ops, gone }, store: client });
    const done = await before.execute({
      code: "async () => { await ops.undoable({}); await ops.final({}); await gone.x({}); }",
    });
    const revertible = async (runtime: typeof before) =>
      (await runtime.execution(done.executionId))?.calls.map((call) => [call.method, call.revertible]);
    expect(await revertible(before)).toEqual([
      ["undoable", true],
      ["final", false],
      ["x", true],
    ]);
    expect(await revertible(testRuntime({ connectors: { ops }, store: client }))).toEqual([
      ["undoable", true],
      ["final", false],
      ["x", false],
    ]);
  });

  it("refuses a paused execution", async () => {
    const ops = createMockConnector("ops", { methods: { gate: { needsApproval: true, revert: true } } });
    const runtime = testRuntime({ connectors: { ops } });
    const paused = await runtime.execute({ code: "async () => ops.gate({})" });
    expect(await runtime.rollback({ executionId: paused.executionId })).toMatchObject({
      status: "error",
      kind: "stale",
    });
    expect(await runtime.rollback({ executionId: "missing" })).toMatchObject({ status: "error", kind: "not-found" });
  });
});

describe("concurrent rollbacks", () => {
  it("never revert a call twice", async () => {
    const ops = createMockConnector("ops", { methods: { a: { revert: true }, b: { revert: true } } });
    const runtime = testRuntime({ connectors: { ops } });
    const done = await runtime.execute({ code: "async () => { await ops.a({}); await ops.b({}); }" });
    const outcomes = await Promise.all([
      runtime.rollback({ executionId: done.executionId }),
      runtime.rollback({ executionId: done.executionId }),
    ]);
    expect(ops.ledger.of("revert")).toHaveLength(2);
    expect(outcomes.flatMap((outcome) => outcome.reverted).sort()).toEqual([1, 2]);
    expect(outcomes.some((outcome) => outcome.status === "error" && outcome.kind === "conflict")).toBe(true);
  });
});
