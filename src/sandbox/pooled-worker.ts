/**
 * One QuickJS worker thread running one job at a time, for any executor: every budget travels with
 * the job. Stopping is layered: the worker's interrupt handler checks the deadline and a shared
 * abort flag; if it has not answered `HARD_STOP_GRACE_MS` later (a long C builtin), the worker is
 * terminated. Binding calls are started on the main thread in time slices (so a batch of
 * thousands of calls never holds the event loop) and their replies go back in batches.
 */
import { timeoutMessage } from "./timeout-message.js";
import type { Worker } from "node:worker_threads";
import { HARD_STOP_GRACE_MS, monotonicNow, whenPast } from "./deadline.js";
import type { BackendJob, BackendOutcome } from "./executor-backend.js";
import { WORKER_STACK_SIZE_MB, type ResolvedExecutorOptions } from "./executor-options.js";
import { compileQuickJSWasm } from "./quickjs-module-pool.js";
import type { HostReply, SessionResult } from "./session-types.js";
import { startQuickJSWorker } from "./worker-entry.js";
import { messageOf } from "../shared/message-of.js";
import {
  decodeCalls,
  encodeReplies,
  isWorkerToMain,
  type MainToWorker,
  type WorkerCall,
  type WorkerStartData,
} from "./worker-protocol.js";

/** A worker that has not loaded its QuickJS module by then is terminated (the run fails `worker-exit`). */
const WORKER_START_TIMEOUT_MS = 30_000;
/** The main thread starts binding calls of a batch for at most this long before it yields a turn. */
const CALL_SLICE_MS = 4;

interface ActiveJob {
  jobId: number;
  job: BackendJob;
  logs: string[];
  /** Batches not fully started yet, started strictly in order, each in slices; `started` counts into the first. */
  batches: WorkerCall[][];
  started: number;
  /** A later turn is due to go on starting `batches`. */
  resumeScheduled: boolean;
  /** Calls received and not answered yet: with none left, no later reply could join a message. */
  outstanding: number;
  replies: Array<{ callId: number; reply: HostReply }>;
  flushScheduled: boolean;
  finish(result: SessionResult, modules?: string[]): void;
}

let nextJobId = 1;

/** Waits for the worker's `ready` message (its module instantiated). */
function whenReady(worker: Worker, keepAlive: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      settle(new Error(`the sandbox worker did not start within ${WORKER_START_TIMEOUT_MS} ms`));
    }, WORKER_START_TIMEOUT_MS);
    if (!keepAlive) timer.unref();
    const onMessage = (message: unknown): void => {
      if (isWorkerToMain(message) && message.type === "ready") settle();
    };
    const onError = (error: Error): void => settle(error);
    const onExit = (code: number): void =>
      settle(new Error(`the sandbox worker exited with code ${code} while starting`));
    const settle = (error?: Error): void => {
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (error) reject(error);
      else resolve();
    };
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  });
}

/** One worker thread. `busy` and `idleSince` are kept by the pool. */
export class PooledWorker {
  busy = false;
  dead = false;
  idleSince = 0;
  private forgotten = false;
  private active: ActiveJob | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly abortFlag: Int32Array,
    private readonly onDeath: (worker: PooledWorker) => void,
  ) {
    worker.on("message", (message: unknown) => this.receive(message));
    worker.on("error", (error) => this.die(`the sandbox worker failed: ${error.message}`));
    worker.on("exit", (code) => this.die(`the sandbox worker exited with code ${code}`));
    worker.unref();
  }

  /**
   * Starts a worker; `memoryLimitBytes` is the budget of the module it prepares first. A worker
   * started ahead of need (`keepAlive` false) does not keep the process alive while it starts.
   * The thread starts at once; the wasm, compiled once per process (`compileQuickJSWasm`), follows as its first message.
   */
  static async start(
    memoryLimitBytes: number,
    onDeath: (worker: PooledWorker) => void,
    keepAlive = true,
  ): Promise<PooledWorker> {
    const abortFlag = new Int32Array(new SharedArrayBuffer(4));
    const workerData: WorkerStartData = { abortFlag, memoryLimitBytes };
    const worker = startQuickJSWorker({ workerData, resourceLimits: { stackSizeMb: WORKER_STACK_SIZE_MB } });
    // Compiled while the thread boots (a thread takes ~70 ms to run its first line; the compile ~6 ms).
    let wasmModule: WebAssembly.Module;
    try {
      wasmModule = compileQuickJSWasm();
    } catch (error) {
      void worker.terminate();
      throw error;
    }
    const first: MainToWorker = { type: "module", wasmModule };
    worker.postMessage(first);
    if (!keepAlive) worker.unref();
    // Wait for "ready" so start-up never counts against a run's budget.
    await whenReady(worker, keepAlive);
    return new PooledWorker(worker, abortFlag, onDeath);
  }

  /** Runs one job; `deadline` is on this thread's monotonic clock (`monotonicNow`). */
  run(job: BackendJob, options: ResolvedExecutorOptions, deadline: number): Promise<BackendOutcome> {
    if (this.dead) {
      const message = "The sandbox worker stopped before the run started; the next run uses a fresh one.";
      return Promise.resolve({ logs: [], modules: [], result: { type: "error", kind: "worker-exit", message } });
    }
    const jobId = nextJobId++;
    Atomics.store(this.abortFlag, 0, 0);
    this.worker.ref();
    return new Promise<BackendOutcome>((resolve) => {
      const { signal } = job;
      const logs: string[] = [];
      let graceTimer: NodeJS.Timeout | undefined;
      const hardStop = (result: SessionResult): void => {
        active.finish(result);
        void this.terminate();
      };
      const budget = timeoutMessage(options.timeoutMs);
      const cancelHardStop = whenPast(deadline + HARD_STOP_GRACE_MS, () =>
        hardStop({ type: "error", kind: "timeout", message: budget }),
      );
      const onAbort = (): void => {
        Atomics.store(this.abortFlag, 0, 1);
        this.post({ type: "abort", jobId });
        graceTimer ??= setTimeout(
          () => hardStop({ type: "error", kind: "abort", message: "The run was aborted." }),
          HARD_STOP_GRACE_MS,
        );
      };
      const active: ActiveJob = {
        jobId,
        job,
        logs,
        batches: [],
        started: 0,
        resumeScheduled: false,
        outstanding: 0,
        replies: [],
        flushScheduled: false,
        finish: (result, modules = []) => {
          if (this.active !== active) return;
          this.active = undefined;
          cancelHardStop();
          clearTimeout(graceTimer);
          signal?.removeEventListener("abort", onAbort);
          if (!this.dead) this.worker.unref();
          resolve({ result, logs, modules });
        },
      };
      this.active = active;
      signal?.addEventListener("abort", onAbort, { once: true });
      const { script, bindings, environment, lazyGlobals, modules, withheldModules } = job;
      const { timeoutMs, memoryLimitBytes, maxStackBytes, maxLogChars, maxValueChars, maxCallsInFlight } = options;
      this.post({
        type: "run",
        jobId,
        script,
        bindings,
        environment,
        lazyGlobals,
        modules,
        withheldModules,
        // Clocks are per thread: the worker measures the time left on its own.
        budgetMs: Math.max(0, deadline - monotonicNow()),
        timeoutMs,
        memoryLimitBytes,
        maxStackBytes,
        maxLogChars,
        maxValueChars,
        maxCallsInFlight,
      });
      if (signal?.aborted) onAbort();
    });
  }

  terminate(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }

  private post(message: MainToWorker): void {
    if (!this.dead) this.worker.postMessage(message);
  }

  private receive(message: unknown): void {
    if (Array.isArray(message)) {
      const batch = decodeCalls(message);
      if (batch === undefined) {
        this.malformed();
        return;
      }
      const active = this.active;
      if (active === undefined || batch.jobId !== active.jobId) return;
      active.outstanding += batch.calls.length;
      active.batches.push(batch.calls);
      // Started in this turn unless earlier batches are still being started (they go first).
      if (!active.resumeScheduled) this.startCalls(active);
      return;
    }
    if (!isWorkerToMain(message)) {
      this.malformed();
      return;
    }
    const active = this.active;
    if (message.type === "ready" || active === undefined || message.jobId !== active.jobId) return;
    switch (message.type) {
      case "log":
        active.logs.push(message.line);
        active.job.onLog?.(message.line);
        break;
      case "done":
        active.finish(message.result, message.modules);
        break;
    }
  }

  private malformed(): void {
    this.active?.finish({
      type: "error",
      kind: "worker-exit",
      message: "The sandbox worker sent a malformed message and was replaced.",
    });
    void this.terminate();
  }

  /**
   * Starts the calls of the pending batches in order. Calls issued together (`Promise.all`) start in
   * one turn unless starting them takes longer than `CALL_SLICE_MS`; then the rest start in later
   * turns, so decoding thousands of arguments never holds the host's event loop.
   */
  private startCalls(active: ActiveJob): void {
    const sliceStart = performance.now();
    for (let calls = active.batches[0]; calls !== undefined; calls = active.batches[0]) {
      while (active.started < calls.length) {
        if (this.active !== active) return;
        if (performance.now() - sliceStart > CALL_SLICE_MS) {
          active.resumeScheduled = true;
          setImmediate(() => {
            active.resumeScheduled = false;
            this.startCalls(active);
          });
          return;
        }
        const { callId, ns, fn, json, tagged, oversize } = calls[active.started++] as WorkerCall;
        const answer = (reply: HostReply): void => this.queueReply(active, callId, reply);
        try {
          // A caller that rejects gets its reply all the same: the program must not wait for one that never comes.
          active.job
            .callHost(ns, fn, json, tagged, oversize)
            .then(answer, (error: unknown) => answer({ ok: false, message: messageOf(error) }));
        } catch (error) {
          // A caller that throws instead of answering must not take the message handler (and the process) with it.
          answer({ ok: false, message: messageOf(error) });
        }
      }
      active.batches.shift();
      active.started = 0;
    }
  }

  /**
   * Replies settled in the same turn travel as one message. The reply to the last call the worker
   * waits for goes at once: nothing could join it, and the common sequential call saves a turn.
   */
  private queueReply(active: ActiveJob, callId: number, reply: HostReply): void {
    if (this.active !== active) return;
    active.replies.push({ callId, reply });
    active.outstanding--;
    if (active.outstanding === 0) {
      this.flushReplies(active);
      return;
    }
    if (active.flushScheduled) return;
    active.flushScheduled = true;
    setImmediate(() => {
      active.flushScheduled = false;
      this.flushReplies(active);
    });
  }

  private flushReplies(active: ActiveJob): void {
    const replies = active.replies.splice(0);
    if (this.active === active && replies.length > 0) this.post(encodeReplies(replies));
  }

  private die(reason: string): void {
    this.dead = true;
    this.active?.finish({
      type: "error",
      kind: "worker-exit",
      message: `The sandbox stopped unexpectedly (${reason}); the run was lost and the next run uses a fresh sandbox.`,
    });
    if (!this.forgotten) {
      this.forgotten = true;
      this.onDeath(this);
    }
  }
}
