import { describe, expect, it } from "vitest";
import { MAX_JOURNAL_VALUE_CHARS } from "../../src/runtime/journal/journal-values.js";
import { createMockConnector } from "../../src/test/index.js";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

describe("the 1,000,000-character journal limit", () => {
  it("fails the run with advice when arguments are too large, and never calls the connector", async () => {
    const store = createMockConnector("store", { methods: { put: {} } });
    const runtime = testRuntime({ connectors: { store } });
    const out = await runtime.execute({
      code: `async () => store.put({ blob: "x".repeat(${MAX_JOURNAL_VALUE_CHARS}) })`,
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect((out as { error: string }).error).toMatch(/over the journal's limit of 1,000,000.*reference/s);
    expect(store.ledger.count("store.put")).toBe(0);
    expect(await runtime.execution(out.executionId)).toMatchObject({ status: "error", kind: "limit", calls: [] });
  });

  it("fails the run when a recorded result is too large; the value is never truncated", async () => {
    const store = createMockConnector("store", {
      methods: { get: { result: "y".repeat(MAX_JOURNAL_VALUE_CHARS + 10) } },
    });
    const runtime = testRuntime({ connectors: { store } });
    const out = await runtime.execute({ code: "async () => (await store.get({})).length" });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls[0]).toMatchObject({ status: "error" });
    expect(detail?.calls[0]).not.toHaveProperty("result");
  });

  it("returns a final result too large for the journal and journals a placeholder; transformResult sees it", async () => {
    const seen: unknown[] = [];
    const runtime = testRuntime({
      transformResult: (result, info) => {
        seen.push(info);
        return (result as string).length;
      },
    });
    const out = await runtime.execute({ code: `async () => "z".repeat(${MAX_JOURNAL_VALUE_CHARS + 1})` });
    expect(out).toMatchObject({ status: "completed", result: MAX_JOURNAL_VALUE_CHARS + 1 });
    expect(seen).toEqual([{ executionId: out.executionId, journaled: false }]);
    const detail = await runtime.execution(out.executionId);
    expect(detail?.result).toMatch(/^\[result not journaled: .*1,000,000/);
  });

  it("journals the original result when it fits while the model gets the transformed one", async () => {
    const runtime = testRuntime({ transformResult: () => "short" });
    const out = await runtime.execute({ code: "async () => ({ long: [1, 2, 3] })" });
    expect(out).toMatchObject({ status: "completed", result: "short" });
    expect((await runtime.execution(out.executionId))?.result).toEqual({ long: [1, 2, 3] });
  });

  it("refuses a program larger than the limit without writing anything", async () => {
    const runtime = testRuntime();
    const out = await runtime.execute({ code: `//${"c".repeat(MAX_JOURNAL_VALUE_CHARS)}\n1` });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(await runtime.executions()).toEqual([]);
  });

  it("an unserializable argument fails the run with kind limit", async () => {
    const echo = createMockConnector("echo", { methods: { say: { result: () => ({ fn: () => 1 }) } } });
    const runtime = testRuntime({ connectors: { echo } });
    const out = await runtime.execute({ code: "async () => echo.say({})" });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect((out as { error: string }).error).toContain("cannot be journaled");
  });
});

describe("limits.maxCallsInFlight (issue 23 item 2)", () => {
  it("ends a run that starts more calls than the limit without awaiting them, naming the limit", async () => {
    const echo = createMockConnector("echo", { methods: { say: { result: (args: unknown) => args } } });
    // No executor given: the runtime builds its own from `limits` (the SPEC §3.5 budget names).
    const runtime = createDurableRuntime({
      store: memoryClient(),
      connectors: { echo },
      limits: { maxCallsInFlight: 20 },
    });
    try {
      const out = await runtime.execute({
        code: "async () => { for (let i = 0; i < 1000; i++) echo.say({ i }); return 'done'; }",
      });
      expect(out).toMatchObject({ status: "error", kind: "exception" });
      expect((out as { error: string }).error).toMatch(
        /more than 20 connector calls without waiting .*maxCallsInFlight/,
      );
      expect(echo.ledger.count("echo.say")).toBeLessThanOrEqual(20);
      const batched = await runtime.execute({
        code: "async () => { let n = 0; for (let b = 0; b < 5; b++) n += (await Promise.all([1, 2, 3, 4].map((i) => echo.say({ i })))).length; return n; }",
      });
      expect(batched).toMatchObject({ status: "completed", result: 20 });
    } finally {
      await runtime.close();
    }
  });
});
