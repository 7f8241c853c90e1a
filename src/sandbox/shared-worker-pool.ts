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
 *
 * Fairness: a run holds its worker while it awaits the host, so one owner's runs waiting on a slow connector could
 * hold every worker. Runs with a fairness key (`CodeRunRequest.fairnessKey`) hold at most `size - 1` workers per
 * key, which leaves one for everyone else, and waiting runs are served in turn across keys (`fair-turns.ts`).
 */
import { FairTurns, UNKEYED, type Key } from "./fair-turns.js";
import { PooledWorker } from "./pooled-worker.js";

/**
 * An idle worker is terminated after this long without a run. Exported for a test's child-process script.
 * @public
 */
export const WORKER_IDLE_MS = 5_000;

type Waiter = { memoryLimitBytes: number; key: Key; resolve: (worker: PooledWorker | Error) => void };
/** The worker started ahead of need; `claimed` while a run waits for it, `settled` once it started (or failed). */
type WarmStart = { worker: Promise<PooledWorker>; claimed: boolean; settled: boolean };

/** Workers shared by every executor of one pool size. */
export class SharedWorkerPool {
  /** Executors using this pool and not disposed. */
  handles = 0;
  private readonly workers = new Set<PooledWorker>();
  private starting = 0;
  /** Runs waiting for a worker, and the workers each key holds: at most all but one. */
  private readonly turns = new FairTurns<Waiter>(() => Math.max(1, this.size - 1));
  /** The key of each busy worker's run. */
  private readonly holders = new Map<PooledWorker, Key>();
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

  /** Runs waiting for a worker (for tests and diagnostics). */
  get queued(): number {
    return this.turns.size;
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

  /**
   * A worker for one run; waits when all are busy, or when runs of `fairnessKey` hold their share. Aborting
   * `signal` gives up the place in the queue.
   */
  async acquire(memoryLimitBytes: number, signal: AbortSignal, fairnessKey?: string): Promise<PooledWorker> {
    const key: Key = fairnessKey ?? UNKEYED;
    if (this.turns.mayHoldMore(key) && !this.turns.isWaiting(key)) {
      const idle = this.takeIdle();
      if (idle !== undefined) return this.assign(idle, key);
      const warm = this.warmStart;
      if (warm !== undefined) {
        // The worker started ahead of need is nearer ready than a new one; if it fails, start another.
        this.warmStart = undefined;
        warm.claimed = true;
        this.turns.count(key, 1);
        let worker: PooledWorker | undefined;
        try {
          worker = await this.waitFor(warm, signal);
        } finally {
          if (worker === undefined) this.turns.count(key, -1);
        }
        if (worker !== undefined) return this.assign(worker, key, true);
      }
      if (this.workers.size + this.starting < this.size) return this.spawnFor(memoryLimitBytes, key);
    }
    const unhold = this.hold();
    const next = await new Promise<PooledWorker | Error>((resolve) => {
      const waiter: Waiter = { memoryLimitBytes, key, resolve };
      this.turns.push(waiter);
      signal.addEventListener(
        "abort",
        () => {
          if (this.turns.remove(waiter)) resolve(new Error("the run was aborted while waiting for a sandbox worker"));
        },
        { once: true },
      );
    });
    unhold();
    if (next instanceof Error) throw next;
    return next;
  }

  /** Gives `worker` to a run of `key` (`counted`: the key's share was taken when the worker was claimed). */
  private assign(worker: PooledWorker, key: Key, counted = false): PooledWorker {
    worker.busy = true;
    this.holders.set(worker, key);
    if (!counted) this.turns.count(key, 1);
    return worker;
  }

  private takeIdle(): PooledWorker | undefined {
    for (let worker = this.idle.pop(); worker !== undefined; worker = this.idle.pop()) {
      if (!worker.dead) return worker;
    }
    return undefined;
  }

  /** Starts a worker for a run of `key`, its share taken at once (runs that start together count each other). */
  private async spawnFor(memoryLimitBytes: number, key: Key): Promise<PooledWorker> {
    this.turns.count(key, 1);
    let worker: PooledWorker;
    try {
      worker = await this.spawn(memoryLimitBytes);
    } catch (error) {
      this.turns.count(key, -1);
      throw error;
    }
    return this.assign(worker, key, true);
  }

  /** Serves the waiters in turn that may run now: with idle workers, then with workers started for them. */
  private dispatch(): void {
    for (let waiter = this.turns.next(false); waiter !== undefined; waiter = this.turns.next(false)) {
      const idle = this.takeIdle();
      if (idle !== undefined) {
        this.turns.next(true);
        waiter.resolve(this.assign(idle, waiter.key));
        continue;
      }
      if (this.workers.size + this.starting >= this.size) return;
      const served = this.turns.next(true) as Waiter;
      this.spawnFor(served.memoryLimitBytes, served.key).then(served.resolve, (error: unknown) =>
        served.resolve(error instanceof Error ? error : new Error(String(error))),
      );
    }
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
    const key = this.holders.get(worker);
    if (key !== undefined) {
      this.holders.delete(worker);
      this.turns.count(key, -1);
    }
    if (worker.dead) {
      this.dispatch();
      return;
    }
    const waiter = this.turns.next(true);
    if (waiter) {
      waiter.resolve(this.assign(worker, waiter.key));
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
    // Queued runs are served by a worker started in its place.
    if (!worker.busy) this.dispatch();
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
