/**
 * Runs sessions in worker threads (default isolation): one executor's handle on the process-wide
 * pool of its `poolSize` (`shared-worker-pool.ts`). Host functions stay on the main thread; a
 * spinning program never stalls the host's event loop. Disposing the handle stops its own runs
 * only; the workers stay for other executors until they are idle.
 */
import type { BackendJob, BackendOutcome, ExecutorBackend } from "./executor-backend.js";
import type { ResolvedExecutorOptions } from "./executor-options.js";
import { monotonicNow } from "./deadline.js";
import { sharedWorkerPool, type SharedWorkerPool } from "./shared-worker-pool.js";

/** One executor's runs on the shared pool. */
export class WorkerPoolBackend implements ExecutorBackend {
  private readonly pool: SharedWorkerPool;
  private disposed = false;

  constructor(private readonly options: ResolvedExecutorOptions) {
    this.pool = sharedWorkerPool(options.poolSize);
    this.pool.handles++;
    this.pool.warm(options.memoryLimitBytes);
  }

  async run(job: BackendJob): Promise<BackendOutcome> {
    const waiting = new AbortController();
    const giveUp = (): void => waiting.abort();
    job.signal?.addEventListener("abort", giveUp, { once: true });
    let worker: Awaited<ReturnType<typeof this.pool.acquire>>;
    try {
      if (job.signal?.aborted) throw new Error("aborted");
      worker = await this.pool.acquire(this.options.memoryLimitBytes, waiting.signal, job.fairnessKey);
    } catch (error) {
      if (job.signal?.aborted)
        return { logs: [], modules: [], result: { type: "error", kind: "abort", message: "The run was aborted." } };
      return {
        logs: [],
        modules: [],
        result: { type: "error", kind: "worker-exit", message: `The sandbox worker could not start: ${String(error)}` },
      };
    } finally {
      job.signal?.removeEventListener("abort", giveUp);
    }
    try {
      // The time budget is the program's: it starts once a worker is available.
      return await worker.run(job, this.options, monotonicNow() + this.options.timeoutMs);
    } finally {
      this.pool.release(worker);
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.pool.handles--;
    if (this.pool.handles === 0) this.pool.reapIdle(0);
  }
}
