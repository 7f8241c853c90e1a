/**
 * Runs one pass of an execution this invocation has claimed (started, or approved) and presents its outcome:
 * empty logs dropped, `transformResult` applied to a completed result (the journal keeps the original).
 */
import { messageOf } from "../shared/message-of.js";
import { failure } from "./failure-output.js";
import { PassContext } from "./pass/pass-context.js";
import { runPass } from "./pass/run-pass.js";
import { budgetsOf, passBudget } from "./execution-budgets.js";
import type { RuntimeCore } from "./runtime-core.js";
import type { PassTrace } from "./tracing/pass-trace.js";
import type { CallJournalRecord, ExecutionRecord, SnippetRecord } from "./journal/records.js";
import type { CodemodeOutput, ExecuteOptions } from "./types.js";
import { editedCalls } from "./execution-views.js";

/** What a claimed pass starts from. */
export interface ClaimedExecution {
  execution: ExecutionRecord;
  calls: CallJournalRecord[];
  snippets: SnippetRecord[];
  leaseToken: string;
  options: ExecuteOptions;
  /** The pass's spans (`tracing/runtime-tracing.ts`); undefined when tracing is off. */
  trace: PassTrace | undefined;
}

/** Runs one pass of a claimed execution and presents its outcome (applying `transformResult`). */
export async function runClaimedPass(
  core: RuntimeCore,
  { execution, calls, snippets, leaseToken, options, trace }: ClaimedExecution,
): Promise<CodemodeOutput> {
  const budgets = budgetsOf(execution, () => core.budgets);
  if (!budgets.ok) return failure(execution.executionId, "store", budgets.error);
  const catalog = core.catalog(snippets);
  const pass = new PassContext({
    deps: {
      store: core.store,
      executor: core.executor,
      connectors: core.connectors,
      namespaces: core.options.connectors,
      outbound: core.outbound,
      hooks: core.hooks,
      snippets,
      modules: core.options.modules,
      now: core.options.now,
      leaseMs: core.options.leaseMs,
      inflightGraceMs: core.options.inflightGraceMs,
      search: (query) => core.search(catalog, query),
      describe: (target) => catalog.describe(target),
    },
    execution,
    calls,
    leaseToken,
    options,
    trace,
    budget: passBudget(budgets.value, calls),
  });
  const outcome = await runPass(pass);
  trace?.end(outcome);
  // Every later pass names the calls a person approved with changes, so the model does not "fix" them back.
  const edited = editedCalls(calls);
  if (outcome.status !== "completed") {
    if (outcome.status === "error" && outcome.logs !== undefined && outcome.logs.length === 0) delete outcome.logs;
    return edited.length === 0 ? outcome : { ...outcome, edited };
  }
  const output: CodemodeOutput = { status: "completed", executionId: outcome.executionId, result: outcome.result };
  if (edited.length > 0) output.edited = edited;
  if (outcome.logs.length > 0) output.logs = outcome.logs;
  // The caller (and the model) must not be told the journal has what it could not keep.
  if (!outcome.journaled) output.journaled = false;
  const transform = core.options.transformResult;
  if (transform === undefined) return output;
  try {
    output.result = await transform(outcome.result, { executionId: outcome.executionId, journaled: outcome.journaled });
  } catch (error) {
    const journal = outcome.journaled ? "" : " (its result as a placeholder: it was too large for the journal)";
    const message = `transformResult threw: ${messageOf(error)}. The run itself completed and is journaled${journal}.`;
    return failure(outcome.executionId, "exception", message);
  }
  return output;
}
