import type { Client } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { StoreError } from "../../src/errors.js";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, memoryStoreRuntime, testRuntime } from "./runtime-fixture.js";

/** A client that fails every write batch whose SQL matches `failOn` while `armed`. */
function flakyClient(inner: Client) {
  const state = { armed: false, failOn: /./ };
  const matches = (statements: unknown[]): boolean =>
    statements.some((statement) =>
      state.failOn.test(typeof statement === "string" ? statement : (statement as { sql: string }).sql),
    );
  const client = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "batch") {
        return (statements: unknown[], mode?: string) =>
          state.armed && matches(statements)
            ? Promise.reject(new Error("disk I/O error (injected)"))
            : target.batch(statements as never, mode as never);
      }
      if (property === "execute") {
        return (statement: unknown) =>
          state.armed && matches([statement])
            ? Promise.reject(new Error("disk I/O error (injected)"))
            : target.execute(statement as never);
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { client, state };
}

/**
 * A runtime on a flaky in-memory store with one connector method `svc.go`, its tables made; then
 * every write whose SQL matches `failOn` fails.
 */
async function runtimeFailingOn(failOn: RegExp) {
  const { client, state } = flakyClient(memoryClient());
  const svc = createMockConnector("svc", { methods: { go: {} } });
  const runtime = testRuntime({ connectors: { svc }, store: client });
  await runtime.executions();
  state.armed = true;
  state.failOn = failOn;
  return { runtime, svc, state };
}

/**
 * Runs `code` while writes matching `failOn` fail and expects kind store with `svc.go` never run;
 * then lets writes through again and returns the runtime, to look at what was written.
 */
async function runFailingOn(failOn: RegExp, code: string) {
  const { runtime, svc, state } = await runtimeFailingOn(failOn);
  const out = await runtime.execute({ code });
  expect(out).toMatchObject({ status: "error", kind: "store" });
  expect(svc.ledger.count("svc.go")).toBe(0);
  state.armed = false;
  return runtime;
}

describe("store failures", () => {
  it("a failing start returns kind store and writes nothing", async () => {
    const runtime = await runFailingOn(/INSERT INTO codemode_executions/, "async () => svc.go({})");
    expect(await runtime.executions()).toEqual([]);
  });

  it("a failing journal write stops the run before the connector runs; no call row is half-written", async () => {
    const code = "async () => { try { await svc.go({}); } catch {} return 'swallowed'; }";
    const runtime = await runFailingOn(/INSERT INTO codemode_calls/, code);
    const [summary] = await runtime.executions();
    expect(summary).toMatchObject({ status: "error", kind: "store" });
    expect((await runtime.execution(summary!.executionId))?.calls).toEqual([]);
  });

  it("a journal that fails once the run started ends it kind store, the connector never run (by verb: in-memory store)", async () => {
    // The read (which writes nothing of its own) breaks the store: the next write, `svc.go`'s intent, fails.
    const svc = createMockConnector("svc", {
      methods: {
        go: {},
        read: { readOnly: true, result: () => runtime.store.failWrites(new Error("disk full")) },
      },
    });
    const runtime = memoryStoreRuntime({ connectors: { svc } });
    const code =
      "async () => { const seen = await svc.read({}); try { await svc.go({ seen }); } catch {} return 'swallowed'; }";
    const started = runtime.execute({ code });
    const out = await started;
    expect(out).toMatchObject({ status: "error", kind: "store" });
    expect((out as { error: string }).error).toContain("disk full");
    expect(svc.ledger.count("svc.read")).toBe(1);
    expect(svc.ledger.count("svc.go")).toBe(0);
    runtime.store.failWrites(undefined);
    const [summary] = await runtime.executions();
    // The end could not be written either: the run stays `running` until its lease expires.
    expect(summary).toMatchObject({ status: "running" });
    expect((await runtime.execution(summary!.executionId))?.calls).toEqual([]);
  });

  it("listing methods throw StoreError when the database fails", async () => {
    const { runtime } = await runtimeFailingOn(/./);
    await expect(runtime.executions()).rejects.toSatisfy((error: unknown) => StoreError.isInstance(error));
  });
});

describe("corrupt records", () => {
  it("a row from an unknown record version is refused: approve reports kind store, execution() throws StoreError", async () => {
    const client = memoryClient();
    const gate = createMockConnector("gate", { methods: { open: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { gate }, store: client });
    const paused = await runtime.execute({ code: "async () => gate.open({})" });
    await client.execute({
      sql: "UPDATE codemode_calls SET record_version = 99 WHERE execution_id = ?",
      args: [paused.executionId],
    });
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "error",
      kind: "store",
    });
    await expect(runtime.execution(paused.executionId)).rejects.toSatisfy(
      (error: unknown) => StoreError.isInstance(error) && /record version 99/.test((error as Error).message),
    );
    expect(gate.ledger.count("gate.open")).toBe(0);
  });

  it("a corrupt journaled value is refused when read", async () => {
    const client = memoryClient();
    const svc = createMockConnector("svc", { methods: { go: {} } });
    const runtime = testRuntime({ connectors: { svc }, store: client });
    const done = await runtime.execute({ code: "async () => svc.go({ a: 1 })" });
    await client.execute({
      sql: "UPDATE codemode_calls SET result = ? WHERE execution_id = ?",
      args: ['{"$":"nonsense"}', done.executionId],
    });
    await expect(runtime.execution(done.executionId)).rejects.toSatisfy((error: unknown) =>
      StoreError.isInstance(error),
    );
  });
});

describe("corrupt journal values during replay", () => {
  it("end the pass with kind store and run nothing", async () => {
    const client = memoryClient();
    const svc = createMockConnector("svc", { methods: { read: {}, gate: { needsApproval: true } } });
    const runtime = testRuntime({ connectors: { svc }, store: client });
    const paused = await runtime.execute({ code: "async () => { await svc.read({}); return svc.gate({}); }" });
    await client.execute({
      sql: "UPDATE codemode_calls SET result = 'not json' WHERE execution_id = ? AND seq = 1",
      args: [paused.executionId],
    });
    const out = await runtime.approve({ executionId: paused.executionId });
    expect(out).toMatchObject({ status: "error", kind: "store" });
    expect((out as { error: string }).error).toContain("call #1 is corrupt");
    expect(svc.ledger.count("svc.gate")).toBe(0);
  });
});
