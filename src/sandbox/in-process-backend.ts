/**
 * Runs sessions on the calling thread: lowest latency, but a spinning program holds the host's
 * event loop until the interrupt handler stops it, and the QuickJS stack must stay small. The warm
 * modules are shared by every in-process executor of the process with the same memory budget, so
 * an executor made per request costs no module of its own.
 *
 * A run ends at its budget whatever happens inside: besides the session's own deadline, a watchdog
 * (`HARD_STOP_GRACE_MS` past it) ends the run with `timeout` if the session has not, asks it to stop,
 * and discards its module when it finally returns. The worker's equivalent terminates the thread.
 */
import { HARD_STOP_GRACE_MS, monotonicNow, whenPast, type MonotonicClock } from "./deadline.js";
import type { BackendJob, BackendOutcome, ExecutorBackend } from "./executor-backend.js";
import type { ResolvedExecutorOptions } from "./executor-options.js";
import { SandboxModulePool, type SandboxModule } from "./quickjs-module-pool.js";
import { runSession } from "./quickjs-session.js";
import type { SessionRequest } from "./session-types.js";
import { timeoutMessage } from "./timeout-message.js";

/** Test seams of {@link InProcessBackend}: the clock deadlines are measured on, and the session runner. */
export interface InProcessBackendSeams {
  clock?: MonotonicClock;
  runSession?: typeof runSession;
}

/** The budgets and inputs of one job's session. */
function sessionRequest(job: BackendJob, options: ResolvedExecutorOptions): SessionRequest {
  return {
    script: job.script,
    bindings: job.bindings,
    environment: job.environment,
    lazyGlobals: job.lazyGlobals,
    modules: job.modules,
    withheldModules: job.withheldModules,
    timeoutMs: options.timeoutMs,
    memoryLimitBytes: options.memoryLimitBytes,
    maxStackBytes: options.maxStackBytes,
    maxLogChars: options.maxLogChars,
    maxValueChars: options.maxValueChars,
    maxCallsInFlight: options.maxCallsInFlight,
  };
}

/** Idle modules kept warm on the calling thread. */
const MAX_IDLE_MODULES = 2;

/** Budgets whose warm modules are kept on the calling thread; older ones are dropped. */
const MAX_KEPT_BUDGETS = 2;
const pools = new Map<number, SandboxModulePool>();

/** The calling thread's module pool for one memory budget (most recently used budgets kept). */
function sharedModulePool(memoryLimitBytes: number): { pool: SandboxModulePool; created: boolean } {
  const existing = pools.get(memoryLimitBytes);
  pools.delete(memoryLimitBytes);
  const pool = existing ?? new SandboxModulePool(memoryLimitBytes, MAX_IDLE_MODULES);
  pools.set(memoryLimitBytes, pool);
  for (const [budget, old] of pools) {
    if (pools.size <= MAX_KEPT_BUDGETS) break;
    old.clear();
    pools.delete(budget);
  }
  return { pool, created: existing === undefined };
}

/** Sessions on the calling thread, with the shared pool of warm modules. */
export class InProcessBackend implements ExecutorBackend {
  private readonly clock: MonotonicClock;
  private readonly runSession: typeof runSession;

  constructor(
    private readonly options: ResolvedExecutorOptions,
    seams: InProcessBackendSeams = {},
  ) {
    this.clock = seams.clock ?? monotonicNow;
    this.runSession = seams.runSession ?? runSession;
    const { pool, created } = sharedModulePool(options.memoryLimitBytes);
    if (created) pool.warm(1, { warmUp: false }).catch(() => undefined);
  }

  private get pool(): SandboxModulePool {
    return sharedModulePool(this.options.memoryLimitBytes).pool;
  }

  async run(job: BackendJob): Promise<BackendOutcome> {
    const { pool } = this;
    let sandbox: SandboxModule;
    try {
      sandbox = await pool.acquire();
    } catch (error) {
      return {
        logs: [],
        modules: [],
        result: { type: "error", kind: "worker-exit", message: `The sandbox could not start: ${String(error)}` },
      };
    }
    return this.runWithWatchdog(pool, sandbox, job);
  }

  /** Runs the session; past its deadline by `HARD_STOP_GRACE_MS`, ends the run without it. */
  private async runWithWatchdog(
    pool: SandboxModulePool,
    sandbox: SandboxModule,
    job: BackendJob,
  ): Promise<BackendOutcome> {
    const { signal } = job;
    const deadline = this.clock() + this.options.timeoutMs;
    let overdue = false;
    const wakes = new Set<() => void>();
    const lines: string[] = [];
    const session = this.runSession(
      sandbox,
      sessionRequest(job, this.options),
      {
        deadline,
        clock: this.clock,
        onLog: (line) => {
          lines.push(line);
          job.onLog?.(line);
        },
        isAborted: () => overdue || signal?.aborted === true,
        onAbort: (wake) => {
          wakes.add(wake);
          signal?.addEventListener("abort", wake, { once: true });
          return () => {
            wakes.delete(wake);
            signal?.removeEventListener("abort", wake);
          };
        },
      },
      job.callHost,
    );
    let cancelWatchdog: () => void = () => undefined;
    const watchdog = new Promise<"overdue">((resolve) => {
      cancelWatchdog = whenPast(deadline + HARD_STOP_GRACE_MS, () => resolve("overdue"), this.clock);
    });
    const first = await Promise.race([session, watchdog]);
    cancelWatchdog();
    if (first !== "overdue") {
      pool.release(sandbox, { discard: first.discardModule });
      return { result: first.result, logs: first.logs, modules: first.modules };
    }
    // The session missed its own deadline: the run ends now, the session is told to stop, and its
    // module (in an unknown state) is discarded whenever it returns.
    overdue = true;
    for (const wake of wakes) wake();
    const discard = (): void => pool.release(sandbox, { discard: true });
    session.then(discard, discard);
    return {
      result: { type: "error", kind: "timeout", message: timeoutMessage(this.options.timeoutMs) },
      logs: lines,
      modules: [],
    };
  }

  /** Nothing to release: the warm modules are shared (and bounded) per process. */
  async dispose(): Promise<void> {}
}
