/**
 * One pass: run the program with journaled bindings, wait for every call it
 * started, then end the pass in one write (`paused`, `completed` or `error`)
 * and call the lifecycle hooks. Never throws: every outcome is a `CodemodeOutput`.
 */
import { encodeJournalValue } from "../journal/journal-values.js";
import { afterPass } from "./lifecycle-hooks.js";
import type { FailureKind } from "../types.js";
import { passRequest } from "./pass-bindings.js";
import type { PassContext } from "./pass-context.js";
import type { PassOutcome } from "./pass-outcome.js";
import type { CodeRunResult } from "../../sandbox/types.js";
import { settleUnfinishedWork } from "./unfinished-work.js";
import { nextModuleRecord, pinnedModules, type NextModuleRecord } from "../journal/module-record.js";
import type { PassEnd } from "../journal/journal-store.js";
import { boundedText, MAX_STORED_MESSAGE_CHARS } from "../../shared/bounded-text.js";
import { messageOf } from "../../shared/message-of.js";

/** Journal text kept for a final result too large (or unserializable) for the journal. */
function omittedResultText(reason: string): string {
  const text = encodeJournalValue(`[result not journaled: ${reason}]`, "the not-journaled marker");
  return text.ok ? text.value : '"[result not journaled]"';
}

/** An uncaught exception that is an argument validation failure the program was given is kind `validation`. */
function errorKind(pass: PassContext, error: { kind: FailureKind; message: string }): FailureKind {
  if (error.kind !== "exception") return error.kind;
  for (const message of pass.validationFailures) if (error.message.includes(message)) return "validation";
  return error.kind;
}

function decide(
  pass: PassContext,
  run: { value?: unknown; logs: string[]; error?: { kind: FailureKind; message: string } },
): PassOutcome {
  const { executionId } = pass.execution;
  if (pass.fatal !== undefined)
    return { status: "error", executionId, error: pass.fatal.error, kind: pass.fatal.kind, logs: run.logs };
  if (pass.pending.length > 0)
    return { status: "paused", executionId, pending: [...pass.pending].sort((a, b) => a.seq - b.seq) };
  if (run.error !== undefined) {
    // The program's own message (a thrown value): bounded, as every stored message.
    const error = boundedText(run.error.message, MAX_STORED_MESSAGE_CHARS);
    return { status: "error", executionId, error, kind: errorKind(pass, run.error), logs: run.logs };
  }
  return { status: "completed", executionId, result: run.value, logs: run.logs, journaled: true };
}

/** Runs the pass to its end and records the outcome. */
export async function runPass(pass: PassContext): Promise<PassOutcome> {
  const { executionId } = pass.execution;
  const pinned = await pinnedModules(pass.execution.modulesText, pass.deps.modules, (digests) =>
    pass.deps.store.moduleSources(digests),
  );
  if (!pinned.ok) pass.failWith(pinned.failure);
  const modules = pinned.ok ? pinned.modules : pass.deps.modules;
  const run: CodeRunResult = pinned.ok
    ? await pass.deps.executor.run(passRequest(pass, pass.execution.code, modules))
    : { logs: [] };
  if (run.error !== undefined || pass.fatal !== undefined) {
    // The program is gone: tell connectors still running to stop, and do not wait forever.
    if (!pass.abort.signal.aborted) pass.abort.abort(new Error(run.error?.message ?? pass.fatal?.error));
    await Promise.race([
      pass.settle(),
      new Promise((resolve) => setTimeout(resolve, pass.deps.inflightGraceMs).unref()),
    ]);
  } else {
    await pass.settle();
  }
  let outcome = decide(pass, run);
  if (pass.journal.failure === undefined && pass.journal.lostRows > 0) {
    outcome = {
      status: "error",
      executionId,
      kind: "conflict",
      error:
        "This execution was taken over by another invocation while the pass ran (its lease expired); the pass's outcome was not recorded.",
    };
  }
  outcome = settleUnfinishedWork(pass, outcome);
  if (pass.replayed.length > 0) pass.journal.countReplays({ seqs: pass.replayed });
  let resultText: string | undefined;
  if (outcome.status === "completed") {
    const encoded = encodeJournalValue(outcome.result, "the final result");
    resultText = encoded.ok ? encoded.value : omittedResultText(encoded.error);
    outcome.journaled = encoded.ok;
  }
  const record = nextModuleRecord(pass.execution.modulesText, run.modules, modules);
  const stored = await finish(pass, outcome, resultText, run.logs, record);
  await afterPass(pass.deps.hooks, executionId, stored.status);
  return stored;
}

/**
 * The module part of the pass's end: the new record; the sources it adds when the execution pauses (only a
 * resumed pass reads them); and, when an execution with a record ends, the release of what nothing else uses.
 */
function moduleEnd(
  pass: PassContext,
  outcome: PassOutcome,
  record: NextModuleRecord | undefined,
): Pick<PassEnd, "modulesText" | "moduleSources" | "releaseModules"> {
  const end: Pick<PassEnd, "modulesText" | "moduleSources" | "releaseModules"> = {};
  if (record !== undefined) end.modulesText = record.text;
  if (outcome.status === "paused") {
    if (record !== undefined) end.moduleSources = record.sources;
  } else if (pass.execution.modulesText !== undefined) {
    end.releaseModules = true;
  }
  return end;
}

/**
 * Records the pass's end. A paused pass keeps the lines it printed (the model's `paused` output has no logs, but
 * `execution(id)` shows them until a later pass, which replays the program from the start, replaces them).
 */
async function finish(
  pass: PassContext,
  outcome: PassOutcome,
  resultText: string | undefined,
  printed: string[],
  record: NextModuleRecord | undefined,
): Promise<PassOutcome> {
  const { executionId } = pass.execution;
  const now = pass.deps.now();
  const modules = moduleEnd(pass, outcome, record);
  const end =
    outcome.status === "completed"
      ? {
          status: "completed" as const,
          logs: outcome.logs,
          now,
          ...modules,
          ...(resultText === undefined ? {} : { resultText }),
        }
      : outcome.status === "paused"
        ? { status: "paused" as const, logs: printed, now, ...modules }
        : {
            status: "error" as const,
            logs: outcome.logs ?? [],
            error: outcome.error,
            kind: outcome.kind,
            now,
            ...modules,
          };
  try {
    if (pass.journal.failure !== undefined) throw pass.journal.failure;
    if (!(await pass.journal.finish(end))) {
      return {
        status: "error",
        executionId,
        kind: "conflict",
        error:
          "This execution was taken over by another invocation while the pass ran (its lease expired); the pass's outcome was not recorded.",
      };
    }
    return outcome;
  } catch (error) {
    const failure: PassOutcome = {
      status: "error",
      executionId,
      kind: "store",
      error: `The journal could not be written (${messageOf(error)}). The run stopped; it stays "running" until its lease expires and expirePaused() ends it.`,
    };
    try {
      await pass.journal.finishAfterFailure({
        status: "error",
        logs: [],
        error: failure.error,
        kind: "store",
        now,
      });
    } catch {
      // The store is down: the lease expires and expirePaused() ends the run.
    }
    return failure;
  }
}
