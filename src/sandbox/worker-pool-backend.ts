/**
 * Runs sessions in a pool of worker threads (default isolation). Host functions stay on the main
 * thread; the worker sends each binding call as a message. A spinning program never stalls the
 * host's event loop. Stopping is layered: the worker's interrupt handler checks the deadline and a
 * shared abort flag; if it has not answered `HARD_STOP_GRACE_MS` later (a long C builtin), the
 * worker is terminated. A dead worker is `worker-exit` and is replaced.
 */
import { timeoutMessage } from "./timeout-message.js";
import type { Worker } from "node:worker_threads";
import type { BackendJob, BackendOutcome, ExecutorBackend } from "./executor-backend.js";
import { WORKER_STACK_SIZE_MB, type ResolvedExecutorOptions } from "./executor-options.js";
import { compileQuickJSWasm } from "./quickjs-module-pool.js";
import type { SessionResult } from "./session-types.js";
import { startQuickJSWorker } from "./worker-entry.js";
import { isWorkerToMain, type MainToWorker, type WorkerStartData } from "./worker-protocol.js";

/** How long past the deadline (or an abort) a worker may take to stop itself before it is terminated. */
export const HARD_STOP_GRACE_MS = 250;
/** A worker that has not loaded its QuickJS module by then is terminated (the run fails `worker-exit`). */
export const WORKER_START_TIMEOUT_MS = 30_000;

interface ActiveJob {
  jobId: number;
  job: BackendJob;
  logs: string[];
  finish(result: SessionResult): void;
}

let nextJobId = 1;

/** One worker thread running one job at a time. */
class PooledWorker {
  busy = false;
  dead = false;
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

  static async start(options: ResolvedExecutorOptions, onDeath: (worker: PooledWorker) => void): Promise<PooledWorker> {
    const abortFlag = new Int32Array(new SharedArrayBuffer(4));
    const workerData: WorkerStartData = { abortFlag, wasmModule: await compileQuickJSWasm(), memoryLimitBytes: options.memoryLimitBytes };
    const worker = startQuickJSWorker({ workerData, resourceLimits: { stackSizeMb: WORKER_STACK_SIZE_MB } });
    // Wait for "ready" (module instantiated) so start-up never counts against a run's budget.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        settle(new Error(`the sandbox worker did not start within ${WORKER_START_TIMEOUT_MS} ms`));
      }, WORKER_START_TIMEOUT_MS);
      const onMessage = (message: unknown): void => {
        if (isWorkerToMain(message) && message.type === "ready") settle();
      };
      const onError = (error: Error): void => settle(error);
      const onExit = (code: number): void => settle(new Error(`the sandbox worker exited with code ${code} while starting`));
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        if (error) reject(error);
        else resolve();
      };
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    });
    return new PooledWorker(worker, abortFlag, onDeath);
  }

  run(job: BackendJob, options: ResolvedExecutorOptions, deadline: number): Promise<BackendOutcome> {
    if (this.dead) {
      const message = "The sandbox worker stopped before the run started; the next run uses a fresh one.";
      return Promise.resolve({ logs: [], result: { type: "error", kind: "worker-exit", message } });
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
      const deadlineTimer = setTimeout(
        () => hardStop({ type: "error", kind: "timeout", message: timeoutMessage(options.timeoutMs) }),
        Math.max(0, deadline - Date.now()) + HARD_STOP_GRACE_MS,
      );
      const onAbort = (): void => {
        Atomics.store(this.abortFlag, 0, 1);
        this.post({ type: "abort", jobId });
        graceTimer ??= setTimeout(() => hardStop({ type: "error", kind: "abort", message: "The run was aborted." }), HARD_STOP_GRACE_MS);
      };
      const active: ActiveJob = {
        jobId,
        job,
        logs,
        finish: (result) => {
          if (this.active !== active) return;
          this.active = undefined;
          clearTimeout(deadlineTimer);
          clearTimeout(graceTimer);
          signal?.removeEventListener("abort", onAbort);
          if (!this.dead) this.worker.unref();
          resolve({ result, logs });
        },
      };
      this.active = active;
      signal?.addEventListener("abort", onAbort, { once: true });
      const { script, bindings, environment } = job;
      this.post({
        type: "run",
        jobId,
        script,
        bindings,
        environment,
        deadline,
        timeoutMs: options.timeoutMs,
        memoryLimitBytes: options.memoryLimitBytes,
        maxStackBytes: options.maxStackBytes,
        maxLogChars: options.maxLogChars,
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
    if (!isWorkerToMain(message)) {
      this.active?.finish({ type: "error", kind: "worker-exit", message: "The sandbox worker sent a malformed message and was replaced." });
      void this.terminate();
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
        active.finish(message.result);
        break;
      case "calls":
        // Started in one turn and in order, like in-process calls (see worker-protocol.ts).
        for (const { callId, ns, fn, json } of message.calls) {
          active.job.callHost(ns, fn, json).then((reply) => {
            if (this.active === active) this.post({ type: "reply", callId, reply });
          }, () => undefined);
        }
        break;
    }
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

/** A pool of `poolSize` QuickJS worker threads; jobs queue when all are busy. */
export class WorkerPoolBackend implements ExecutorBackend {
  private readonly workers = new Set<PooledWorker>();
  private readonly starting = new Set<Promise<PooledWorker>>();
  private readonly waiting: Array<(worker: PooledWorker | Error) => void> = [];
  private idle: PooledWorker[] = [];
  private disposed = false;

  constructor(private readonly options: ResolvedExecutorOptions) {
    this.spawn().then(
      (worker) => this.release(worker),
      () => undefined,
    );
  }

  async run(job: BackendJob): Promise<BackendOutcome> {
    let worker: PooledWorker;
    try {
      worker = await this.acquire();
    } catch (error) {
      return { logs: [], result: { type: "error", kind: "worker-exit", message: `The sandbox worker could not start: ${String(error)}` } };
    }
    try {
      // The time budget is the program's: it starts once a worker is available.
      return await worker.run(job, this.options, Date.now() + this.options.timeoutMs);
    } finally {
      this.release(worker);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.allSettled([...this.starting]);
    for (const waiter of this.waiting.splice(0)) waiter(new Error("the executor was disposed"));
    await Promise.allSettled([...this.workers].map((worker) => worker.terminate()));
    this.workers.clear();
    this.idle = [];
  }

  private spawn(): Promise<PooledWorker> {
    const starting = PooledWorker.start(this.options, (worker) => this.forget(worker));
    this.starting.add(starting);
    void starting.finally(() => this.starting.delete(starting)).catch(() => undefined);
    return starting.then((worker) => {
      this.workers.add(worker);
      worker.busy = true;
      return worker;
    });
  }

  private async acquire(): Promise<PooledWorker> {
    if (this.disposed) throw new Error("the executor was disposed");
    for (let worker = this.idle.pop(); worker !== undefined; worker = this.idle.pop()) {
      if (!worker.dead) {
        worker.busy = true;
        return worker;
      }
    }
    if (this.workers.size + this.starting.size < this.options.poolSize) return this.spawn();
    const next = await new Promise<PooledWorker | Error>((resolve) => this.waiting.push(resolve));
    if (next instanceof Error) throw next;
    return next;
  }

  private release(worker: PooledWorker): void {
    worker.busy = false;
    if (worker.dead || this.disposed) {
      if (this.disposed) void worker.terminate();
      this.replaceForWaiters();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) {
      worker.busy = true;
      waiter(worker);
    } else {
      this.idle.push(worker);
    }
  }

  private forget(worker: PooledWorker): void {
    this.workers.delete(worker);
    this.idle = this.idle.filter((candidate) => candidate !== worker);
    if (!worker.busy) this.replaceForWaiters();
  }

  /** Keeps one warm worker after a death, and serves queued jobs. */
  private replaceForWaiters(): void {
    if (this.disposed) return;
    const missing = this.options.poolSize - this.workers.size - this.starting.size;
    if (missing <= 0) return;
    if (this.waiting.length === 0 && this.idle.length > 0) return;
    this.spawn().then(
      (worker) => this.release(worker),
      (error: unknown) => this.waiting.shift()?.(error instanceof Error ? error : new Error(String(error))),
    );
  }
}
