/**
 * The process-wide pools of QuickJS worker threads. Every `QuickJSExecutor` with worker isolation
 * runs on the pool of its `poolSize`, so an executor made per request costs no thread of its own:
 * budgets (time, memory, stack, logs, value size) travel with each run, and a worker keeps a
 * module per memory budget. Workers are `unref`'d while idle (an idle process can exit) and
 * terminated after `WORKER_IDLE_MS` without a run, or at once when no executor is left.
 *
 * Cold start: the first executor starts one worker ahead of need, and the first run waits for that
 * worker instead of starting another (two threads booting at once on a cold process each take about
 * as long as both would in turn, so the first result would come later).
 */
import { PooledWorker } from "./pooled-worker.js";

/**
 * An idle worker is terminated after this long without a run. Exported for a test's child-process script.
 * @public
 */
export const WORKER_IDLE_MS = 5_000;

type Waiter = { memoryLimitBytes: number; resolve: (worker: PooledWorker | Error) => void };
/** The worker started ahead of need; `claimed` while a run waits for it, `settled` once it started (or failed). */
type WarmStart = { worker: Promise<PooledWorker>; claimed: boolean; settled: boolean };

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
  /** Runs waiting for a worker (queued, or for the warm start): they keep the process alive. */
  private holds = 0;
  private warmStart: WarmStart | undefined;

  constructor(readonly size: number) {}

  /** Threads alive or starting (for tests and diagnostics). */
  get threadCount(): number {
    return this.workers.size + this.starting;
  }

  /** Starts one worker ahead of need when the pool has none; the next run takes it. */
  warm(memoryLimitBytes: number): void {
    if (this.workers.size + this.starting > 0) return;
    const start: WarmStart = { worker: this.spawn(memoryLimitBytes, false), claimed: false, settled: false };
    this.warmStart = start;
    const settle = (): void => {
      start.settled = true;
      if (this.warmStart === start) this.warmStart = undefined;
    };
    start.worker.then((worker) => {
      settle();
      if (!start.claimed) this.release(worker);
    }, settle);
  }

  /** A worker for one run; waits when all are busy. Aborting `signal` gives up the place in the queue. */
  async acquire(memoryLimitBytes: number, signal: AbortSignal): Promise<PooledWorker> {
    for (let worker = this.idle.pop(); worker !== undefined; worker = this.idle.pop()) {
      if (!worker.dead) {
        worker.busy = true;
        return worker;
      }
    }
    const warm = this.warmStart;
    if (warm !== undefined) {
      // The worker started ahead of need is nearer ready than a new one; if it fails, start another.
      this.warmStart = undefined;
      warm.claimed = true;
      const worker = await this.waitFor(warm, signal);
      if (worker !== undefined) return worker;
    }
    if (this.workers.size + this.starting < this.size) return this.spawn(memoryLimitBytes);
    const unhold = this.hold();
    const next = await new Promise<PooledWorker | Error>((resolve) => {
      const waiter: Waiter = { memoryLimitBytes, resolve };
      this.waiting.push(waiter);
      signal.addEventListener(
        "abort",
        () => {
          const index = this.waiting.indexOf(waiter);
          if (index === -1) return;
          this.waiting.splice(index, 1);
          resolve(new Error("the run was aborted while waiting for a sandbox worker"));
        },
        { once: true },
      );
    });
    unhold();
    if (next instanceof Error) throw next;
    return next;
  }

  /** The warm start's worker, or undefined when it failed. After an abort the worker is the next run's (or idle). */
  private async waitFor(warm: WarmStart, signal: AbortSignal): Promise<PooledWorker | undefined> {
    const unhold = this.hold();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
    try {
      const outcome = await Promise.race([warm.worker.catch(() => undefined), aborted]);
      if (outcome !== "aborted") return outcome;
      warm.claimed = false;
      if (warm.settled)
        warm.worker.then(
          (worker) => this.release(worker),
          () => undefined,
        );
      else this.warmStart ??= warm;
      throw new Error("the run was aborted while waiting for a sandbox worker");
    } finally {
      if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
      unhold();
    }
  }

  /** Keeps the process alive while a run waits (the worker it waits for may be starting unref'd). */
  private hold(): () => void {
    this.holds++;
    this.keepAlive ??= setInterval(() => undefined, 2 ** 30);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.holds--;
      if (this.holds === 0 && this.keepAlive !== undefined) {
        clearInterval(this.keepAlive);
        this.keepAlive = undefined;
      }
    };
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
