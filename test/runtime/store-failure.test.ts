import type { Client } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { StoreError } from "../../src/runtime/store-error.js";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

/** A client that fails every write batch whose SQL matches `failOn` while `armed`. */
function flakyClient(inner: Client) {
  const state = { armed: false, failOn: /./ };
  const matches = (statements: unknown[]): boolean =>
    statements.some((statement) => state.failOn.test(typeof statement === "string" ? statement : (statement as { sql: string }).sql));
  const client = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === "batch") {
        return (statements: unknown[], mode?: string) =>
          state.armed && matches(statements) ? Promise.reject(new Error("disk I/O error (injected)")) : target.batch(statements as never, mode as never);
      }
      if (property === "execute") {
        return (statement: unknown) =>
          state.armed && matches([statement]) ? Promise.reject(new Error("disk I/O error (injected)")) : target.execute(statement as never);
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { client, state };
}

describe("store failures", () => {
  it("a failing start returns kind store and writes nothing", async () => {
    const inner = memoryClient();
    const { client, state } = flakyClient(inner);
    const svc = createMockConnector("svc", { methods: { go: {} } });
    const runtime = testRuntime({ connectors: { svc }, store: client });
    await runtime.executions();
    state.armed = true;
    state.failOn = /INSERT INTO codemode_executions/;
    const out = await runtime.execute({ code: "async () => svc.go({})" });
    expect(out).toMatchObject({ status: "error", kind: "store" });
    expect(svc.ledger.count("svc.go")).toBe(0);
    state.armed = false;
    expect(await runtime.executions()).toEqual([]);
  });

  it("a failing journal write stops the run before the connector runs; no call row is half-written", async () => {
    const inner = memoryClient();
    const { client, state } = flakyClient(inner);
    const svc = createMockConnector("svc", { methods: { go: {} } });
    const runtime = testRuntime({ connectors: { svc }, store: client });
    await runtime.executions();
    state.armed = true;
    state.failOn = /INSERT INTO codemode_calls/;
    const out = await runtime.execute({ code: "async () => { try { await svc.go({}); } catch {} return 'swallowed'; }" });
    expect(out).toMatchObject({ status: "error", kind: "store" });
    expect(svc.ledger.count("svc.go")).toBe(0);
    state.armed = false;
    const [summary] = await runtime.executions();
    expect(summary).toMatchObject({ status: "error", kind: "store" });
    expect((await runtime.execution(summary!.executionId))?.calls).toEqual([]);
  });

  it("listing methods throw StoreError when the database fails", async () => {
    const inner = memoryClient();
    const { client, state } = flakyClient(inner);
    const runtime = testRuntime({ store: client });
    await runtime.executions();
    state.armed = true;
    await expect(runtime.executions()).rejects.toSatisfy((error: unknown) => StoreError.isInstance(error));
  });
});
