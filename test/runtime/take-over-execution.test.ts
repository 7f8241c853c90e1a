import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

const CODE = `async () => {
  const first = await svc.read({ id: 1 });
  const done = await svc.effect({ id: first.id });
  const second = await svc.read({ id: 2 });
  return { done, second };
}`;

function setup() {
  const connector = createMockConnector("svc", {
    methods: { read: { readOnly: true }, effect: { result: { ok: true } } },
  });
  const client = memoryClient();
  const runtime = testRuntime({ connectors: { svc: connector }, store: client, _internal: { leaseMs: 1000 } });
  const count = (method: string) => connector.ledger.count(`svc.${method}`);
  return { client, runtime, count };
}

/** Makes a completed execution look like a run whose process died: running, a live lease, the given call rows. */
async function kill(
  client: ReturnType<typeof memoryClient>,
  executionId: string,
  leaseUntil: number,
  calls: { executing?: number[]; removed?: number[] },
) {
  await client.batch([
    {
      sql: "UPDATE codemode_executions SET status = 'running', lease_token = 'gone', lease_until = ?, result = NULL WHERE id = ?",
      args: [leaseUntil, executionId],
    },
    ...(calls.executing ?? []).map((seq) => ({
      sql: "UPDATE codemode_calls SET status = 'executing', result = NULL WHERE execution_id = ? AND seq = ?",
      args: [executionId, seq],
    })),
    ...(calls.removed ?? []).map((seq) => ({
      sql: "DELETE FROM codemode_calls WHERE execution_id = ? AND seq = ?",
      args: [executionId, seq],
    })),
  ]);
}

describe("execute({ executionId }) finds the same execution", () => {
  it("a chosen id names the execution; the same id again starts nothing while it is not abandoned", async () => {
    const { runtime, count } = setup();
    const first = await runtime.execute({ code: CODE }, { executionId: "wf_one" });
    expect(first).toMatchObject({ status: "completed", executionId: "wf_one" });
    const again = await runtime.execute({ code: CODE }, { executionId: "wf_one" });
    expect(again).toMatchObject({ status: "error", kind: "conflict", executionId: "wf_one" });
    expect(count("effect")).toBe(1);
    expect(await runtime.execute({ code: CODE }, { executionId: "" })).toMatchObject({ kind: "validation" });
  });

  it("takes over a run whose process died before the effect: the effect runs once, the recorded read is replayed", async () => {
    const { client, runtime, count } = setup();
    await runtime.execute({ code: CODE }, { executionId: "wf_two" });
    // The process died after the first read was recorded, before the effect started.
    await kill(client, "wf_two", runtime.clock.now() + 1000, { removed: [2, 3] });
    const effectsBefore = count("effect");
    // The lease is live: another process may still be running it.
    expect(await runtime.execute({ code: CODE }, { executionId: "wf_two" })).toMatchObject({ kind: "conflict" });
    runtime.clock.advance(2000);
    expect(await runtime.execute({ code: "async () => 1" }, { executionId: "wf_two" })).toMatchObject({
      kind: "conflict",
    });
    const readsBefore = count("read");
    const taken = await runtime.execute({ code: CODE }, { executionId: "wf_two" });
    expect(taken).toMatchObject({ status: "completed", result: { done: { ok: true }, second: { id: 2 } } });
    expect(count("effect")).toBe(effectsBefore + 1);
    // The first read came from the journal; only the second read ran.
    expect(count("read")).toBe(readsBefore + 1);
    expect(await runtime.execute({ code: CODE }, { executionId: "wf_two" })).toMatchObject({ kind: "conflict" });
  });

  it("a call that was executing when the process died is interrupted, never run again", async () => {
    const { client, runtime, count } = setup();
    await runtime.execute({ code: CODE }, { executionId: "wf_three" });
    await kill(client, "wf_three", runtime.clock.now() - 1, { executing: [2], removed: [3] });
    const taken = await runtime.execute({ code: CODE }, { executionId: "wf_three" });
    expect(taken).toMatchObject({ status: "error", kind: "interrupted" });
    expect(count("effect")).toBe(1);
    expect(await runtime.execution("wf_three")).toMatchObject({ status: "error" });
  });
});
