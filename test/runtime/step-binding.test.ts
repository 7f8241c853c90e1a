import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

describe("codemode.step", () => {
  it("runs the callback once and returns the recorded value (types intact) on later passes", async () => {
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { gate } });
    const code = `async () => {
      const made = await codemode.step("make", () => { globalThis.runs = (globalThis.runs ?? 0) + 1; return { when: new Date(7), n: 5n, runs: globalThis.runs }; });
      await gate.open({ n: String(made.n) });
      return { isDate: made.when instanceof Date, big: typeof made.n, runs: made.runs };
    }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: { isDate: true, big: "bigint", runs: 1 } });
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls[0]).toMatchObject({
      seq: 1,
      connector: "codemode",
      method: "make",
      status: "applied",
      replayedCount: 1,
    });
    expect(detail?.calls[0]?.result).toEqual({ when: new Date(7), n: 5n, runs: 1 });
  });

  it("records a failing step and replays the same rejection", async () => {
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { gate } });
    const code = `async () => {
      let message;
      try { await codemode.step("flaky", () => { throw new Error("no luck"); }); } catch (e) { message = e.message; }
      await gate.open({});
      return message;
    }`;
    const first = await runtime.execute({ code });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: "no luck" });
    expect((await runtime.execution(first.executionId))?.calls[0]).toMatchObject({ status: "error", error: "no luck" });
  });

  it("a step whose result cannot be journaled fails the run with kind limit", async () => {
    const runtime = testRuntime();
    const out = await runtime.execute({ code: `async () => codemode.step("big", () => "x".repeat(1000001))` });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
  });

  it("a step renamed between passes diverges", async () => {
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { gate }, store: client });
    const first = await runtime.execute({
      code: `async () => { await codemode.step("a", () => 1); return gate.open({}); }`,
    });
    await client.execute({
      sql: "UPDATE codemode_executions SET code = ?",
      args: [`async () => { await codemode.step("b", () => 1); return gate.open({}); }`],
    });
    expect(await runtime.approve({ executionId: first.executionId })).toMatchObject({
      status: "error",
      kind: "divergence",
    });
    expect(gate.ledger.count("gate.open")).toBe(0);
  });
});

describe("codemode.search and codemode.describe inside the sandbox", () => {
  it("find connector methods and their declarations", async () => {
    const github = createMockConnector("github", {
      methods: {
        list_pull_requests: {
          description: "List open pull requests of a repository",
          inputSchema: { type: "object", properties: { repo: { type: "string" } } },
        },
      },
    });
    const runtime = testRuntime({ connectors: { github } });
    const out = await runtime.execute({
      code: `async () => { const found = await codemode.search("pull requests"); const doc = await codemode.describe(found.results[0].path); return { path: found.results[0].path, kind: doc.kind, hasRepo: doc.types.includes("repo") }; }`,
    });
    expect(out).toMatchObject({
      status: "completed",
      result: { path: "github.list_pull_requests", kind: "method", hasRepo: true },
    });
    expect((await runtime.search("pull")).results[0]?.path).toBe("github.list_pull_requests");
    expect(await runtime.describe("github")).toMatchObject({ kind: "connector" });
  });

  it("a program with a syntax error fails with kind exception and a line number", async () => {
    const runtime = testRuntime();
    const out = await runtime.execute({ code: "async () => {\n  const x = ;\n}" });
    expect(out).toMatchObject({ status: "error", kind: "exception" });
    expect((out as { error: string }).error).toMatch(/SyntaxError.*line 2/);
  });
});
