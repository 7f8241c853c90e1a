/**
 * Runs sessions on the calling thread: lowest latency, but a spinning program holds the host's
 * event loop until the interrupt handler stops it, and the QuickJS stack must stay small. The warm
 * modules are shared by every in-process executor of the process with the same memory budget, so
 * an executor made per request costs no module of its own.
 */
import type { BackendJob, BackendOutcome, ExecutorBackend } from "./executor-backend.js";
import type { ResolvedExecutorOptions } from "./executor-options.js";
import { SandboxModulePool } from "./quickjs-module-pool.js";
import { runSession } from "./quickjs-session.js";

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
  constructor(private readonly options: ResolvedExecutorOptions) {
    const { pool, created } = sharedModulePool(options.memoryLimitBytes);
    if (created) pool.warm(1, { warmUp: false }).catch(() => undefined);
  }

  private get pool(): SandboxModulePool {
    return sharedModulePool(this.options.memoryLimitBytes).pool;
  }

  async run(job: BackendJob): Promise<BackendOutcome> {
    const { pool } = this;
    let sandbox: Awaited<ReturnType<SandboxModulePool["acquire"]>>;
    try {
      sandbox = await pool.acquire();
    } catch (error) {
      return {
        logs: [],
        result: { type: "error", kind: "worker-exit", message: `The sandbox could not start: ${String(error)}` },
      };
    }
    const { signal } = job;
    const deadline = Date.now() + this.options.timeoutMs;
    const outcome = await runSession(
      sandbox,
      {
        script: job.script,
        bindings: job.bindings,
        environment: job.environment,
        timeoutMs: this.options.timeoutMs,
        memoryLimitBytes: this.options.memoryLimitBytes,
        maxStackBytes: this.options.maxStackBytes,
        maxLogChars: this.options.maxLogChars,
        maxValueChars: this.options.maxValueChars,
      },
      {
        deadline,
        ...(job.onLog === undefined ? {} : { onLog: job.onLog }),
        isAborted: () => signal?.aborted === true,
        onAbort: (wake) => {
          if (!signal) return () => undefined;
          signal.addEventListener("abort", wake, { once: true });
          return () => signal.removeEventListener("abort", wake);
        },
      },
      job.callHost,
    );
    pool.release(sandbox, { discard: outcome.discardModule });
    return { result: outcome.result, logs: outcome.logs };
  }

  /** Nothing to release: the warm modules are shared (and bounded) per process. */
  async dispose(): Promise<void> {}
}
