/**
 * Defect 8 (issue 14), runtime side: an execution started with a scope is `not-found` to every other scope, on
 * every method that names or lists executions; a request without a scope (the server's own view) sees all.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Connector } from "../../src/connectors/types.js";
import { CodemodeArgumentError } from "../../src/errors.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "./runtime-fixture.js";

describe("execution scope", () => {
  it("another scope sees not-found on approve, reject, rollback, execution, pending and executions", async () => {
    const bank = createMockConnector("bank", { methods: { transfer: { needsApproval: true, revert: true } } });
    const runtime = testRuntime({ connectors: { bank } });
    const paused = await runtime.execute({ code: "async () => bank.transfer({ cents: 5 })", scope: "alice" });
    expect(paused.status).toBe("paused");
    const { executionId } = paused;

    expect(await runtime.approve({ executionId, scope: "bob" })).toMatchObject({ status: "error", kind: "not-found" });
    expect(await runtime.reject({ executionId, scope: "bob" })).toMatchObject({ status: "error", kind: "not-found" });
    expect(await runtime.rollback({ executionId, scope: "bob" })).toMatchObject({ status: "error", kind: "not-found" });
    expect(await runtime.execution(executionId, { scope: "bob" })).toBeUndefined();
    expect(await runtime.pending(executionId, { scope: "bob" })).toEqual([]);
    expect(await runtime.pending(undefined, { scope: "bob" })).toEqual([]);
    expect(await runtime.executions(10, { scope: "bob" })).toEqual([]);
    expect(bank.ledger.count("bank.transfer")).toBe(0);

    // The owner and the server's own (unscoped) view see it.
    expect(await runtime.execution(executionId, { scope: "alice" })).toMatchObject({
      scope: "alice",
      status: "paused",
    });
    expect(await runtime.pending(undefined, { scope: "alice" })).toHaveLength(1);
    expect((await runtime.executions(10)).map((summary) => summary.scope)).toEqual(["alice"]);
    expect(await runtime.approve({ executionId, scope: "alice" })).toMatchObject({ status: "completed" });
    expect(bank.ledger.count("bank.transfer")).toBe(1);
    expect(await runtime.rollback({ executionId, scope: "alice" })).toMatchObject({ status: "rolled_back" });
  });

  it("a scoped request does not see unscoped executions; a bad scope is refused clearly", async () => {
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { gate } });
    const unscoped = await runtime.execute({ code: "async () => gate.open({})" });
    expect(await runtime.approve({ executionId: unscoped.executionId, scope: "alice" })).toMatchObject({
      kind: "not-found",
    });
    expect(await runtime.execute({ code: "1", scope: "" })).toMatchObject({ status: "error", kind: "validation" });
    expect(await runtime.execute({ code: "1", scope: "s".repeat(201) })).toMatchObject({
      status: "error",
      kind: "validation",
    });
    await expect(runtime.executions(5, { scope: 7 as unknown as string })).rejects.toThrow(CodemodeArgumentError);
  });

  it("the tool's scope is the tool's own: the model's input cannot set it", async () => {
    const { createCodemodeRuntime } = await import("../../src/ai/create-codemode-runtime.js");
    const { memoryClient, sharedExecutor } = await import("./runtime-fixture.js");
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const runtime = createCodemodeRuntime({ connectors: { gate }, store: memoryClient(), executor: sharedExecutor() });
    const tool = runtime.tool({ scope: "alice", progress: false });
    const input = { code: "async () => gate.open({})", scope: "mallory" } as { code: string };
    const callOptions = { toolCallId: "call-1", messages: [], context: undefined } as unknown as Parameters<
      NonNullable<typeof tool.execute>
    >[1];
    const output = await tool.execute!(input, callOptions);
    const detail = await runtime.execution((output as { executionId: string }).executionId);
    expect(detail).toMatchObject({ scope: "alice", toolCallId: "call-1" });
    expect(() => runtime.tool({ scope: "" })).toThrow(/tool\.scope/);
  });
});

describe("execution scope and the sandbox workers", () => {
  const executor = new QuickJSExecutor({ poolSize: 2 });
  afterAll(() => executor.dispose());

  it("one owner's runs waiting on a connector leave a worker for another owner's program", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let started = 0;
    const slow: Connector = {
      methods: {
        wait: {
          execute: async () => {
            started++;
            await gate;
            return "done";
          },
        },
      },
    };
    const runtime = testRuntime({ executor, connectors: { slow } });
    const alice = [1, 2, 3].map(() => runtime.execute({ code: "async () => slow.wait({})", scope: "alice" }));
    for (let turn = 0; turn < 6_000 && started === 0; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toBe(1);
    const bob = await runtime.execute({ code: "1 + 1", scope: "bob" });
    expect(bob).toMatchObject({ status: "completed", result: 2 });
    // Alice's runs were blocked all along: she holds her share of the pool (all but one worker).
    expect(started).toBe(1);
    open();
    expect((await Promise.all(alice)).map((out) => out.status)).toEqual(["completed", "completed", "completed"]);
  });
});
