/**
 * `execute(input, { executionId })` for an id already in the journal: the caller runs the same request again (a
 * retried durable step, a restarted process). A run whose process died (`running`, its lease expired) with the same
 * program is taken over: one compare-and-set gives it a new pass under a new lease, and the pass replays the
 * journal (recorded calls return their results, a call left `executing` is interrupted and never run again). Any
 * other state starts nothing and says so (`conflict`): read it with `execution(id)`.
 */
import { failure, storeFailure } from "./failure-output.js";
import { runClaimedPass } from "./run-claimed-pass.js";
import { traceResumedPass } from "./tracing/start-spans.js";
import type { RuntimeCore } from "./shared-parts.js";
import type { LoadedExecution } from "./journal/journal-store.js";
import type { CodemodeOutput, ExecuteOptions } from "./types.js";

/** Takes over `loaded` when its process died, or answers why nothing was run. */
export async function takeOverExecution(
  core: RuntimeCore,
  loaded: LoadedExecution,
  code: string,
  options: ExecuteOptions,
): Promise<CodemodeOutput> {
  const { execution } = loaded;
  const { executionId } = execution;
  const at = core.options.now();
  const abandoned = execution.status === "running" && execution.leaseUntil !== undefined && execution.leaseUntil < at;
  if (!abandoned || execution.code !== code) {
    const why = abandoned ? "with another program" : `and is ${execution.status}`;
    return failure(
      executionId,
      "conflict",
      `Execution ${executionId} already exists ${why}${execution.status === "running" && !abandoned ? " (its pass holds a live lease)" : ""}. Nothing was run; read it with execution(id).`,
    );
  }
  const leaseToken = core.options.generateId();
  let snippets: Awaited<ReturnType<RuntimeCore["store"]["claimAbandoned"]>>;
  try {
    snippets = await core.store.claimAbandoned({
      executionId,
      passes: execution.passes,
      leaseToken,
      leaseUntil: at + core.options.leaseMs,
      now: at,
    });
  } catch (error) {
    return storeFailure(executionId, error);
  }
  if (snippets === undefined) {
    return failure(executionId, "conflict", `Execution ${executionId} was taken over by another invocation first.`);
  }
  const next = { ...execution, passes: execution.passes + 1 };
  const trace = await traceResumedPass(core.tracing, next, { approved: [], rejected: [] });
  return runClaimedPass(core, { execution: next, calls: loaded.calls, snippets, leaseToken, options, trace });
}
