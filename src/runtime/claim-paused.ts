/**
 * What every resume of a paused execution shares (approve, decide): the connectors it was started with must be
 * configured here, then one compare-and-set claims it for a new pass under a fresh lease; of two invocations at
 * once exactly one wins, the other gets `conflict` having changed nothing.
 */
import { err, ok, type Result } from "../shared/result.js";
import { failure, storeFailure } from "./failure-output.js";
import type { RuntimeCore } from "./runtime-core.js";
import type { ExecutionStore, LoadedExecution } from "./journal/journal-store.js";
import type { SnippetRecord } from "./journal/records.js";
import type { CodemodeOutput } from "./types.js";

/** What a claim changes besides the status: the approved call(s), or several calls decided at once. */
export type ClaimChange = Omit<
  Parameters<ExecutionStore["claimPaused"]>[0],
  "executionId" | "passes" | "leaseToken" | "leaseUntil" | "now"
>;

/** A won claim: the new pass's lease, the claim's clock reading and the saved snippets the pass needs. */
export interface ClaimedPass {
  leaseToken: string;
  at: number;
  snippets: SnippetRecord[];
}

/** Claims `loaded` (paused) for a new pass; a failure value when a connector is missing, another won, or the store failed. */
export async function claimPaused(
  core: RuntimeCore,
  loaded: LoadedExecution,
  change: ClaimChange,
): Promise<Result<ClaimedPass, CodemodeOutput>> {
  const { executionId } = loaded.execution;
  const missing = loaded.execution.connectors.filter((name) => !Object.hasOwn(core.connectors, name));
  if (missing.length > 0) {
    return err(
      failure(
        executionId,
        "connector-missing",
        `Cannot resume execution ${executionId}: it was started with connector(s) ${missing.join(", ")}, which this runtime does not have. Configure them and try again; nothing was changed and the execution stays paused.`,
      ),
    );
  }
  const { now, generateId, leaseMs } = core.options;
  const leaseToken = generateId();
  const at = now();
  try {
    const snippets = await core.store.claimPaused({
      executionId,
      passes: loaded.execution.passes,
      leaseToken,
      leaseUntil: at + leaseMs,
      now: at,
      ...change,
    });
    if (snippets === undefined) {
      return err(
        failure(
          executionId,
          "conflict",
          `Execution ${executionId} was changed by another invocation first (a concurrent approval or rejection). Nothing was run.`,
        ),
      );
    }
    return ok({ leaseToken, at, snippets });
  } catch (error) {
    return err(storeFailure(executionId, error));
  }
}
