/**
 * The call bridge between the main thread and a QuickJS worker: what crosses per call (flat
 * envelopes, one message each way, calls in flight together in one message), when a reply leaves
 * (at once for the call the worker waits on), and what the main thread does with a malformed batch
 * or a host caller that throws instead of answering.
 */
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { monotonicNow } from "../../../src/sandbox/quickjs/deadline.js";
import type { BackendJob } from "../../../src/sandbox/executor-backend.js";
import { resolveExecutorOptions } from "../../../src/sandbox/executor-options.js";
import { PooledWorker } from "../../../src/sandbox/worker/pooled-worker.js";
import type { HostCaller, HostReply } from "../../../src/sandbox/quickjs/session-types.js";
import {
  decodeCalls,
  encodeCalls,
  encodeReplies,
  forEachReply,
  type WorkerCall,
} from "../../../src/sandbox/worker/worker-protocol.js";

const MIB = 1024 * 1024;
const options = resolveExecutorOptions({ isolation: "worker-thread" });
/** Long enough for a loaded machine, short enough that a hung run fails the test quickly. */
const BUDGET_MS = 5_000;
const workers: PooledWorker[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

async function startWorker(): Promise<PooledWorker> {
  const worker = await PooledWorker.start(64 * MIB, () => undefined);
  workers.push(worker);
  return worker;
}

function job(script: string, callHost: HostCaller): BackendJob {
  return { script, bindings: [{ global: "host", functions: ["a"] }], callHost };
}

const answer =
  (json: string): HostCaller =>
  async () => ({ ok: true, json, tagged: false });

/** Messages the main thread posts to workers that are reply batches (arrays), with their slot counts. */
function spyOnReplies(): number[] {
  const posted: number[] = [];
  const original = Worker.prototype.postMessage;
  vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (this: Worker, message, transfer) {
    if (Array.isArray(message)) posted.push(message.length);
    return original.call(this, message, transfer);
  });
  return posted;
}

describe("the worker bridge", () => {
  it("sends the reply to the call the worker waits on at once, one message per sequential call", async () => {
    const worker = await startWorker();
    const posted = spyOnReplies();
    const immediate = vi.spyOn(globalThis, "setImmediate");
    const calls = 20;
    const script = `(async () => { let sum = 0; for (let i = 0; i < ${calls}; i++) sum += await host.a(); return sum })()`;
    const outcome = await worker.run(job(script, answer("1")), options, monotonicNow() + BUDGET_MS);
    expect(outcome.result).toEqual({ type: "value", json: String(calls), tagged: false });
    // One reply (three slots) per call, none of them held for a later turn of the event loop.
    expect(posted).toEqual(Array.from({ length: calls }, () => 3));
    expect(immediate).not.toHaveBeenCalled();
  });

  it("calls issued together cross in one message, and their replies in one message back", async () => {
    const worker = await startWorker();
    const posted = spyOnReplies();
    const batches: number[] = [];
    const receive = (PooledWorker.prototype as unknown as { receive(message: unknown): void }).receive;
    vi.spyOn(PooledWorker.prototype as unknown as { receive(message: unknown): void }, "receive").mockImplementation(
      function (this: PooledWorker, message: unknown) {
        if (Array.isArray(message)) batches.push(decodeCalls(message)?.calls.length ?? -1);
        receive.call(this, message);
      },
    );
    let next = 0;
    const script = "(async () => (await Promise.all([host.a(), host.a(), host.a(), host.a()])).join())()";
    const outcome = await worker.run(
      job(script, async () => ({ ok: true, json: String(++next), tagged: false })),
      options,
      monotonicNow() + BUDGET_MS,
    );
    expect(outcome.result).toEqual({ type: "value", json: '"1,2,3,4"', tagged: false });
    expect(batches).toEqual([4]);
    expect(posted).toEqual([12]);
  });

  it("a host caller that throws instead of answering fails that call, and the program goes on", async () => {
    const worker = await startWorker();
    const callHost: HostCaller = () => {
      throw new Error("the caller broke");
    };
    const script =
      "(async () => { try { await host.a(); return 'answered' } catch (error) { return error.message } })()";
    const outcome = await worker.run(job(script, callHost), options, monotonicNow() + BUDGET_MS);
    expect(outcome.result).toEqual({ type: "value", json: '"the caller broke"', tagged: false });
  });

  it("a malformed calls batch from the worker ends the run and replaces the worker", async () => {
    const worker = await startWorker();
    const script = "(async () => { await host.a(); return 1 })()";
    // The call never settles: the batch below arrives while the run waits on it.
    const running = worker.run(
      job(script, () => new Promise<HostReply>(() => undefined)),
      options,
      monotonicNow() + BUDGET_MS,
    );
    const thread = (worker as unknown as { worker: Worker }).worker;
    thread.emit("message", [1, 1, 0, 0, "[]"]);
    const outcome = await running;
    expect(outcome.result).toMatchObject({ type: "error", kind: "worker-exit" });
    expect(outcome.result.type === "error" && outcome.result.message).toMatch(/malformed/);
    expect(worker.dead).toBe(true);
  });
});

describe("the bridge's envelopes", () => {
  const calls: WorkerCall[] = [
    { callId: 1, ns: 0, fn: 2, json: "[1]", tagged: false },
    { callId: 2, ns: 1, fn: 0, json: '[{"$t":"date"}]', tagged: true },
    { callId: 3, ns: 0, fn: 0, json: "", tagged: false, oversize: 70_000 },
  ];

  it("a calls batch reads back as it was written", () => {
    expect(decodeCalls([...encodeCalls(7, calls)])).toEqual({ jobId: 7, calls });
  });

  it.each([
    ["no calls", [7]],
    ["a slot missing", [7, 1, 0, 0, "[]"]],
    ["a fractional id", [7, 1.5, 0, 0, "[]", -1]],
    ["a negative namespace", [7, 1, -1, 0, "[]", -1]],
    ["arguments that are not text", [7, 1, 0, 0, 5, -1]],
    ["an unknown form", [7, 1, 0, 0, "[]", -3]],
    ["oversize with arguments attached", [7, 1, 0, 0, "[1]", 9]],
    ["a job id that is not a count", ["7", 1, 0, 0, "[]", -1]],
  ])("a batch with %s is refused", (_, batch) => {
    expect(decodeCalls(batch)).toBeUndefined();
  });

  it("replies read back as they were written", () => {
    const replies: Array<{ callId: number; reply: HostReply }> = [
      { callId: 4, reply: { ok: true, json: "1", tagged: false } },
      { callId: 5, reply: { ok: true, json: '{"$t":"undefined"}', tagged: true } },
      { callId: 6, reply: { ok: false, message: "no such order" } },
    ];
    const read: Array<{ callId: number; reply: HostReply }> = [];
    forEachReply(encodeReplies(replies), (callId, reply) => read.push({ callId, reply }));
    expect(read).toEqual(replies);
  });
});
