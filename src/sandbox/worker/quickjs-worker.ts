/**
 * Worker-thread entry: runs one session at a time on its own thread (with a large native stack)
 * and forwards binding calls and console lines to the main thread. Built as its own file
 * (`dist/quickjs-worker.cjs`, QuickJS's glue bundled in); see `worker-entry.ts`.
 */
import { parentPort, workerData } from "node:worker_threads";
import { monotonicNow } from "../quickjs/deadline.js";
import { SandboxModulePool } from "../quickjs/quickjs-module-pool.js";
import { runSession } from "../quickjs/quickjs-session.js";
import type { HostReply } from "../quickjs/session-types.js";
import {
  encodeCalls,
  forEachReply,
  isReplyBatch,
  type MainToWorker,
  type WorkerCall,
  type WorkerStartData,
  type WorkerToMain,
} from "./worker-protocol.js";

const port = parentPort;
if (port === null) throw new Error("quickjs-worker must run in a worker thread");
const { abortFlag, memoryLimitBytes } = workerData as WorkerStartData;
/** The compiled QuickJS wasm, from the main thread's first message. */
let wasmModule: WebAssembly.Module | undefined;
/** Module pools by memory budget (runs of executors with different budgets share this worker). */
const pools = new Map<number, SandboxModulePool>();
/** Budgets whose idle module is kept; older ones are dropped. */
const MAX_KEPT_BUDGETS = 2;

function poolFor(limit: number): SandboxModulePool {
  let pool = pools.get(limit);
  if (pool !== undefined) {
    pools.delete(limit);
    pools.set(limit, pool);
    return pool;
  }
  pool = new SandboxModulePool(limit, 1, wasmModule);
  pools.set(limit, pool);
  for (const [budget, old] of pools) {
    if (pools.size <= MAX_KEPT_BUDGETS) break;
    old.clear();
    pools.delete(budget);
  }
  return pool;
}
const replies = new Map<number, (reply: HostReply) => void>();
let wakeOnAbort: (() => void) | undefined;
let nextCallId = 1;

function send(message: WorkerToMain): void {
  port?.postMessage(message);
}

/** Calls made since the last flush; sent as one `calls` message once the sandbox yields. */
let batch: { jobId: number; calls: WorkerCall[] } | undefined;
/**
 * Calls the main thread holds at once. Past it, calls wait here (in order) until replies come back:
 * thousands of calls in flight on the main thread cost it garbage-collection pauses.
 */
const MAX_CALLS_AT_HOST = 1_000;
let callsAtHost = 0;
const backlog: Array<{ jobId: number; call: WorkerCall }> = [];

function flush(): void {
  const flushed = batch;
  batch = undefined;
  if (flushed !== undefined && flushed.calls.length > 0) send(encodeCalls(flushed.jobId, flushed.calls));
}

function sendCall(jobId: number, call: WorkerCall): void {
  callsAtHost++;
  if (batch === undefined || batch.jobId !== jobId) {
    flush();
    batch = { jobId, calls: [] };
    queueMicrotask(flush);
  }
  batch.calls.push(call);
}

function queueCall(jobId: number, call: WorkerCall): void {
  if (callsAtHost >= MAX_CALLS_AT_HOST || backlog.length > 0) backlog.push({ jobId, call });
  else sendCall(jobId, call);
}

/** A reply came back: send waiting calls in its place. */
function replied(): void {
  callsAtHost--;
  while (callsAtHost < MAX_CALLS_AT_HOST && backlog.length > 0) {
    const next = backlog.shift() as { jobId: number; call: WorkerCall };
    sendCall(next.jobId, next.call);
  }
}

async function runJob(job: Extract<MainToWorker, { type: "run" }>): Promise<void> {
  // The budget counts from the message's arrival on this thread's own monotonic clock.
  const deadline = monotonicNow() + job.budgetMs;
  const pool = poolFor(job.memoryLimitBytes);
  const sandbox = await pool.acquire();
  const outcome = await runSession(
    sandbox,
    job,
    {
      deadline,
      isAborted: () => Atomics.load(abortFlag, 0) !== 0,
      onAbort: (wake) => {
        wakeOnAbort = wake;
        return () => {
          wakeOnAbort = undefined;
        };
      },
      onLog: (line) => send({ type: "log", jobId: job.jobId, line }),
    },
    (ns, fn, json, tagged, oversize) =>
      new Promise<HostReply>((resolve) => {
        const callId = nextCallId++;
        replies.set(callId, resolve);
        queueCall(job.jobId, { callId, ns, fn, json, tagged, oversize });
      }),
  );
  // Calls of this job the host never answered no longer count; its waiting calls are dropped.
  callsAtHost -= replies.size - backlog.length;
  replies.clear();
  backlog.length = 0;
  pool.release(sandbox, { discard: outcome.discardModule });
  send({ type: "done", jobId: job.jobId, result: outcome.result, modules: outcome.modules });
}

function deliver(callId: number, reply: HostReply): void {
  const resolve = replies.get(callId);
  if (resolve === undefined) return;
  replies.delete(callId);
  replied();
  resolve(reply);
}

port.on("message", (message: MainToWorker) => {
  if (isReplyBatch(message)) {
    forEachReply(message, deliver);
    return;
  }
  switch (message.type) {
    case "run":
      runJob(message).catch((error: unknown) => {
        send({
          type: "done",
          jobId: message.jobId,
          result: { type: "error", kind: "worker-exit", message: `The sandbox worker failed: ${String(error)}` },
          modules: [],
        });
      });
      break;
    case "abort":
      wakeOnAbort?.();
      break;
    case "module":
      if (wasmModule !== undefined) break;
      wasmModule = message.wasmModule;
      poolFor(memoryLimitBytes)
        .warm(1, { warmUp: false })
        .then(
          () => send({ type: "ready" }),
          () => send({ type: "ready" }),
        );
      break;
  }
});
