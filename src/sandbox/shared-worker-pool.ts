/**
 * The process-wide pools of QuickJS worker threads. Every `QuickJSExecutor` with worker isolation
 * runs on the pool of its `poolSize`, so an executor made per request costs no thread of its own:
 * budgets (time, memory, stack, logs, value size) travel with each run, and a worker keeps a
 * module per memory budget. Workers are `unref`'d while idle (an idle process can exit) and
 * terminated after `WORKER_IDLE_MS` without a run, or at once when no executor is left.
 */
import { PooledWorker } from "./pooled-worker.js";

/** An idle worker is terminated after this long without a run. */
export const WORKER_IDLE_MS = 5_000;

type Waiter = { memoryLimitBytes: number; resolve: (worker: PooledWorker | Error) => void };

/** Workers shared by every executor of one pool size. */
export class SharedWorkerPool {
  /** Executors using this pool and not disposed. */
  handles = 0;
  private readonly workers = new Set<PooledWorker>();
  private starting = 0;
  private readonly waiting: Waiter[] = [];
  private idle: PooledWorker[] = [];
  private reaper: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(readonly size: number) {}

  /** Threads alive or starting (for tests and diagnostics). */
  get threadCount(): number {
    return this.workers.size + this.starting;
  }

  /** Starts one worker ahead of need when the pool has none. */
  warm(memoryLimitBytes: number): void {
    if (this.workers.size + this.starting > 0) return;
    this.spawn(memoryLimitBytes, false).then(
      (worker) => this.release(worker),
      () => undefined,
    );
  }

  /** A worker for one run; waits when all are busy. Aborting `signal` gives up the place in the queue. */
  async acquire(memoryLimitBytes: number, signal: AbortSignal): Promise<PooledWorker> {
    for (let worker = this.idle.pop(); worker !== undefined; worker = this.idle.pop()) {
      if (!worker.dead) {
        worker.busy = true;
        return worker;
      }
    }
    if (this.workers.size + this.starting < this.size) return this.spawn(memoryLimitBytes);
    // A queued run keeps the process alive (the workers it waits for may be starting unref'd).
    this.keepAlive ??= setInterval(() => undefined, 2 ** 30);
    const next = await new Promise<PooledWorker | Error>((resolve) => {
      const waiter: Waiter = { memoryLimitBytes, resolve };
      this.waiting.push(waiter);
      signal.addEventListener("abort", () => {
        const index = this.waiting.indexOf(waiter);
        if (index === -1) return;
        this.waiting.splice(index, 1);
        resolve(new Error("the run was aborted while waiting for a sandbox worker"));
      }, { once: true });
    });
    if (this.waiting.length === 0 && this.keepAlive !== undefined) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
    if (next instanceof Error) throw next;
    return next;
  }

  /** Returns a worker after a run. */
  release(worker: PooledWorker): void {
    worker.busy = false;
    if (worker.dead) {
      this.replaceForWaiters();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) {
      worker.busy = true;
      waiter.resolve(worker);
      return;
    }
    worker.idleSince = Date.now();
    this.idle.push(worker);
    if (this.handles === 0) this.reapIdle(0);
    else this.scheduleReap();
  }

  /** Terminates workers idle for at least `idleMs`. */
  reapIdle(idleMs: number): void {
    const now = Date.now();
    const keep: PooledWorker[] = [];
    for (const worker of this.idle) {
      if (!worker.dead && now - worker.idleSince < idleMs) keep.push(worker);
      else {
        this.workers.delete(worker);
        void worker.terminate();
      }
    }
    this.idle = keep;
    if (keep.length > 0) this.scheduleReap();
  }

  private scheduleReap(): void {
    if (this.reaper !== undefined) return;
    this.reaper = setTimeout(() => {
      this.reaper = undefined;
      this.reapIdle(WORKER_IDLE_MS);
    }, WORKER_IDLE_MS + 50);
    this.reaper.unref();
  }

  private spawn(memoryLimitBytes: number, keepAlive = true): Promise<PooledWorker> {
    this.starting++;
    return PooledWorker.start(memoryLimitBytes, (worker) => this.forget(worker), keepAlive).then(
      (worker) => {
        this.starting--;
        this.workers.add(worker);
        worker.busy = true;
        return worker;
      },
      (error: unknown) => {
        this.starting--;
        throw error;
      },
    );
  }

  private forget(worker: PooledWorker): void {
    this.workers.delete(worker);
    this.idle = this.idle.filter((candidate) => candidate !== worker);
    if (!worker.busy) this.replaceForWaiters();
  }

  /** Serves queued runs after a worker died. */
  private replaceForWaiters(): void {
    const waiter = this.waiting[0];
    if (waiter === undefined || this.workers.size + this.starting >= this.size) return;
    this.spawn(waiter.memoryLimitBytes).then(
      (worker) => this.release(worker),
      (error: unknown) => this.waiting.shift()?.resolve(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

const pools = new Map<number, SharedWorkerPool>();

/** The process-wide pool of `size` workers. */
export function sharedWorkerPool(size: number): SharedWorkerPool {
  let pool = pools.get(size);
  if (pool === undefined) {
    pool = new SharedWorkerPool(size);
    pools.set(size, pool);
  }
  return pool;
}

/** Worker threads alive or starting in every shared pool. */
export function sharedWorkerThreads(): number {
  let count = 0;
  for (const pool of pools.values()) count += pool.threadCount;
  return count;
}
