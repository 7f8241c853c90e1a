import { describe, expect, it } from "vitest";
import { executionSummaryText } from "../../src/inspector/execution-summary.js";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "../runtime/runtime-fixture.js";

function ops() {
  return createMockConnector("ops", {
    methods: { a: {}, b: {}, c: {}, d: { result: "x".repeat(500) }, gate: { needsApproval: true } },
  });
}

async function summaryOf(runtime: ReturnType<typeof testRuntime>, code: string): Promise<string> {
  const out = await runtime.execute({ code });
  const detail = await runtime.execution(out.executionId);
  if (detail === undefined) throw new Error("no execution");
  return executionSummaryText(detail);
}

describe("the one-line summary of an execution", () => {
  it("names the first methods with their counts, then the rest as a number, then the result's first words", async () => {
    const runtime = testRuntime({ connectors: { ops: ops() } });
    expect(
      await summaryOf(
        runtime,
        "async () => { await ops.a({}); await ops.a({}); await ops.b({}); await ops.c({}); return ops.d({}); }",
      ),
    ).toBe(`ops.a ×2, ops.b, ops.c (+1 more) → "${"x".repeat(58)}…`);
  });

  it("says what a paused run waits for, and the first sentence of an error", async () => {
    const runtime = testRuntime({ connectors: { ops: ops() } });
    expect(await summaryOf(runtime, "async () => { await ops.a({}); await ops.gate({ n: 1 }); }")).toBe(
      "ops.a, ops.gate — waiting: ops.gate",
    );
    expect(await summaryOf(runtime, "async () => { throw new Error('Out of stock. Try later.'); }")).toBe(
      "no calls — ✗ Error: Out of stock.",
    );
  });

  it("says a program waiting for its approval ran nothing yet, and after a rejection that it did not run", async () => {
    const runtime = testRuntime({ connectors: { ops: ops() }, approveProgram: true });
    const out = await runtime.execute({ code: "async () => ops.a({})" });
    const waiting = await runtime.execution(out.executionId);
    expect(waiting && executionSummaryText(waiting)).toBe("the program waits for approval (nothing ran yet)");
    await runtime.reject({ executionId: out.executionId });
    const rejected = await runtime.execution(out.executionId);
    expect(rejected && executionSummaryText(rejected)).toBe("the program did not run — ✗ Rejected by a human.");
  });
});
