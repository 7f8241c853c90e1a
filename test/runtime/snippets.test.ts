import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

describe("snippets", () => {
  it("saves an execution's code and connectors; codemode.run runs it inside the current execution", async () => {
    const crm = createMockConnector("crm", {
      methods: {
        find: { result: (args: unknown) => ({ found: (args as { name?: string }).name ?? "nobody" }) },
        tag: { needsApproval: true },
      },
    });
    const runtime = testRuntime({ connectors: { crm } });
    const source = await runtime.execute({ code: `async () => crm.find({ name: input?.name ?? "ada" })` });
    expect(source).toMatchObject({ status: "completed", result: { found: "ada" } });
    const saved = await runtime.saveSnippet("find_person", {
      executionId: source.executionId,
      description: "Find a person",
      inputSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    expect(saved).toMatchObject({
      status: "saved",
      snippet: { name: "find_person", connectors: ["crm"], description: "Find a person" },
    });
    expect(await runtime.snippets()).toHaveLength(1);

    const out = await runtime.execute({
      code: `async () => { const a = await codemode.run("find_person", { name: "grace" }); await crm.tag({ a }); return a; }`,
    });
    expect(out.status).toBe("paused");
    const resumed = await runtime.approve({ executionId: out.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: { found: "grace" } });
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls.map((call) => [call.seq, call.method, call.status])).toEqual([
      [1, "find", "applied"],
      [2, "tag", "applied"],
    ]);
    expect(crm.ledger.count("crm.find")).toBe(2);
    const found = await runtime.execute({
      code: `async () => (await codemode.search("find person")).results.map((r) => r.path)`,
    });
    expect(found).toMatchObject({ status: "completed", result: expect.arrayContaining(["snippets.find_person"]) });
    expect(await runtime.deleteSnippet("find_person")).toEqual({ deleted: true });
    expect(await runtime.snippets()).toEqual([]);
  });

  it("codemode.run resolves to { error } when a recorded connector is missing or the snippet is unknown", async () => {
    const client = memoryClient();
    const mail = createMockConnector("mail", { methods: { send: {} } });
    const full = testRuntime({ connectors: { mail }, store: client });
    const source = await full.execute({ code: "async () => mail.send({ to: 'x' })" });
    await full.saveSnippet("notify", { executionId: source.executionId });
    const partial = testRuntime({ store: client });
    const out = await partial.execute({
      code: `async () => [await codemode.run("notify"), await codemode.run("nope")]`,
    });
    expect(out, JSON.stringify(out)).toMatchObject({ status: "completed" });
    const [missing, unknown] = (out as { result: Array<{ error: string }> }).result;
    expect(missing?.error).toContain("mail");
    expect(unknown?.error).toContain("No snippet named");
    expect(mail.ledger.count("mail.send")).toBe(1);
  });

  it("passes any journal-safe input and does not need a second executor run (worker pool of one)", async () => {
    const executor = new QuickJSExecutor({ isolation: "worker-thread", poolSize: 1, timeoutMs: 10_000 });
    try {
      const clock = { now: () => 1_000, advance: () => undefined };
      const runtime = testRuntime({ executor, clock });
      const source = await runtime.execute({
        code: "async () => input === undefined ? null : ({ year: input.when.getUTCFullYear(), size: input.tags.size })",
      });
      await runtime.saveSnippet("describe_input", { executionId: source.executionId });
      const out = await runtime.execute({
        code: `async () => codemode.run("describe_input", { when: new Date(Date.UTC(2030, 1, 1)), tags: new Set(["a", "b"]) })`,
      });
      expect(out).toMatchObject({ status: "completed", result: { year: 2030, size: 2 } });
    } finally {
      await executor.dispose();
    }
  });

  it("refuses bad names and unknown executions", async () => {
    const runtime = testRuntime();
    expect(await runtime.saveSnippet("has space", { executionId: "x" })).toMatchObject({
      status: "error",
      kind: "validation",
    });
    expect(await runtime.saveSnippet("ok_name", { executionId: "missing" })).toMatchObject({
      status: "error",
      kind: "not-found",
    });
  });
});
