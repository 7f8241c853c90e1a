import { describe, expect, it } from "vitest";
import type { ConnectorLifecycleContext } from "../../src/connectors/types.js";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";
import { CodemodeArgumentError } from "../../src/errors.js";
import { RETRY_HOLD_TOOL_CALL_PREFIX } from "../../src/runtime/journal/records.js";
import { DEFAULT_RETENTION_MIN_AGE_MS } from "../../src/runtime/retention-options.js";

function tracked() {
  const connector = createMockConnector("svc", { methods: { go: {}, gate: { needsApproval: true } } });
  const disposed: ConnectorLifecycleContext[] = [];
  connector.disposeExecution = (context) => void disposed.push(context);
  return { connector, disposed };
}

describe("retention and cleanup", () => {
  it("prunes terminal runs beyond maxExecutions when a run starts, never running or paused ones", async () => {
    const { connector } = tracked();
    const runtime = testRuntime({ connectors: { svc: connector }, maxExecutions: 2, retention: { minAgeMs: 0 } });
    const paused = await runtime.execute({ code: "async () => svc.gate({})" });
    for (let index = 0; index < 4; index += 1) {
      runtime.clock.advance(1000);
      await runtime.execute({ code: `async () => svc.go({ index: ${index} })` });
    }
    const listed = await runtime.executions();
    // The paused run stays; of the completed ones the newest are kept (the one just started counts: 2 + the current).
    expect(listed.map((entry) => entry.status)).toEqual(["completed", "completed", "completed", "paused"]);
    expect(listed.at(-1)?.executionId).toBe(paused.executionId);
    expect(await runtime.pruneExecutions()).toMatchObject({ deleted: [expect.any(String)] });
    expect((await runtime.executions()).map((entry) => entry.status)).toEqual(["completed", "completed", "paused"]);
  });

  it("keeps an ended execution a client may still retry for (retention.minAgeMs, a day) past maxExecutions; clearHistory deletes it", async () => {
    const { connector } = tracked();
    const runtime = testRuntime({ connectors: { svc: connector }, maxExecutions: 2 });
    const held = await runtime.execute(
      { code: "async () => svc.gate({})", scope: "ada" },
      { toolCallId: `${RETRY_HOLD_TOOL_CALL_PREFIX}nonce` },
    );
    runtime.clock.advance(1000);
    await runtime.approve({ executionId: held.executionId, scope: "ada" });
    for (let index = 0; index < 5; index += 1) {
      runtime.clock.advance(1000);
      await runtime.execute({ code: `async () => svc.go({ index: ${index} })`, scope: "ada" });
    }
    // Within the grace nothing ended is pruned, whatever the count: the retry finds its execution.
    expect((await runtime.pruneExecutions(0)).deleted).toEqual([]);
    expect((await runtime.execution(held.executionId, { scope: "ada" }))?.status).toBe("completed");
    // A day after it ended, it is history like any other.
    runtime.clock.advance(DEFAULT_RETENTION_MIN_AGE_MS);
    expect((await runtime.pruneExecutions(0)).deleted).toContain(held.executionId);

    const again = await runtime.execute(
      { code: "async () => svc.go({})", scope: "ada" },
      { toolCallId: `${RETRY_HOLD_TOOL_CALL_PREFIX}other` },
    );
    expect((await runtime.clearHistory()).deleted).toContain(again.executionId);
  });

  it("deleteExecution, clearHistory and deleteAllData", async () => {
    const { connector, disposed } = tracked();
    const runtime = testRuntime({ connectors: { svc: connector } });
    const one = await runtime.execute({ code: "async () => svc.go({})" });
    const paused = await runtime.execute({ code: "async () => svc.gate({})" });
    await runtime.saveSnippet("one", { executionId: one.executionId });
    expect(await runtime.deleteExecution(one.executionId)).toEqual({ deleted: true });
    expect(await runtime.deleteExecution(one.executionId)).toEqual({ deleted: false });
    await runtime.execute({ code: "async () => svc.go({})" });
    expect((await runtime.clearHistory()).deleted).toHaveLength(1);
    expect((await runtime.executions()).map((entry) => entry.executionId)).toEqual([paused.executionId]);
    disposed.length = 0;
    await runtime.deleteAllData();
    expect(await runtime.executions()).toEqual([]);
    expect(await runtime.snippets()).toEqual([]);
    expect(disposed.map((context) => context.executionId)).toEqual([paused.executionId]);
  });

  it("expirePaused rejects stale paused runs and errors dead running runs, disposing each", async () => {
    const { connector, disposed } = tracked();
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { svc: connector }, store: client, _internal: { leaseMs: 1000 } });
    const paused = await runtime.execute({ code: "async () => svc.gate({})" });
    // A run whose process died mid-call: running, with one call executing.
    const dead = await runtime.execute({ code: "async () => svc.go({})" });
    await client.batch([
      {
        sql: "UPDATE codemode_executions SET status = 'running', lease_token = 'gone', lease_until = ? WHERE id = ?",
        args: [runtime.clock.now() + 1000, dead.executionId],
      },
      { sql: "UPDATE codemode_calls SET status = 'executing' WHERE execution_id = ?", args: [dead.executionId] },
    ]);
    expect(await runtime.expirePaused({ maxAgeMs: 60_000 })).toEqual({ expired: [] });
    runtime.clock.advance(2000);
    expect(await runtime.expirePaused({ maxAgeMs: 60_000 })).toEqual({
      expired: [{ executionId: dead.executionId, status: "error" }],
    });
    runtime.clock.advance(60_000);
    expect(await runtime.expirePaused({ maxAgeMs: 60_000 })).toEqual({
      expired: [{ executionId: paused.executionId, status: "rejected" }],
    });
    expect(await runtime.execution(dead.executionId)).toMatchObject({
      status: "error",
      kind: "expired",
      calls: [{ status: "error" }],
    });
    expect(await runtime.execution(paused.executionId)).toMatchObject({ status: "rejected", kind: "expired" });
    expect(disposed.map((context) => [context.executionId, context.status])).toEqual([
      [dead.executionId, "completed"],
      [dead.executionId, "error"],
      [paused.executionId, "rejected"],
    ]);
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({ kind: "stale" });
    await expect(runtime.expirePaused({ maxAgeMs: -1 })).rejects.toThrow(CodemodeArgumentError);
    await expect(runtime.expirePaused({ maxAgeMs: -1 })).rejects.toThrow(
      /^expirePaused\(\{ maxAgeMs \}\): maxAgeMs must be/,
    );
    await expect(runtime.pruneExecutions(-1)).rejects.toThrow(CodemodeArgumentError);
  });

  it("two names keep separate histories and snippets in one database", async () => {
    const { connector } = tracked();
    const client = memoryClient();
    const research = testRuntime({ connectors: { svc: connector }, store: client, name: "research" });
    const operations = testRuntime({ connectors: { svc: connector }, store: client, name: "operations" });
    const done = await research.execute({ code: "async () => svc.go({})" });
    await research.saveSnippet("go", { executionId: done.executionId });
    expect(await operations.executions()).toEqual([]);
    expect(await operations.snippets()).toEqual([]);
    expect(await operations.approve({ executionId: done.executionId })).toMatchObject({ kind: "not-found" });
    expect((await research.executions())[0]).toMatchObject({ runtime: "research" });
    await operations.deleteAllData();
    expect(await research.executions()).toHaveLength(1);
  });
});
