/**
 * Runs sessions on the calling thread: lowest latency, but a spinning program holds the host's
 * event loop until the interrupt handler stops it, and the QuickJS stack must stay small.
 */
import type { BackendJob, BackendOutcome, ExecutorBackend } from "./executor-backend.js";
import type { ResolvedExecutorOptions } from "./executor-options.js";
import { SandboxModulePool } from "./quickjs-module-pool.js";
import { runSession } from "./quickjs-session.js";

/** Idle modules kept warm on the calling thread. */
const MAX_IDLE_MODULES = 2;

/** Sessions on the calling thread, with a small pool of warm modules. */
export class InProcessBackend implements ExecutorBackend {
  private readonly pool: SandboxModulePool;

  constructor(private readonly options: ResolvedExecutorOptions) {
    this.pool = new SandboxModulePool(options.memoryLimitBytes, MAX_IDLE_MODULES);
    this.pool.warm(1, { warmUp: false }).catch(() => undefined);
  }

  async run(job: BackendJob): Promise<BackendOutcome> {
    let sandbox;
    try {
      sandbox = await this.pool.acquire();
    } catch (error) {
      return { logs: [], result: { type: "error", kind: "worker-exit", message: `The sandbox could not start: ${String(error)}` } };
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
    this.pool.release(sandbox, { discard: outcome.discardModule });
    return { result: outcome.result, logs: outcome.logs };
  }

  async dispose(): Promise<void> {
    this.pool.clear();
  }
}
