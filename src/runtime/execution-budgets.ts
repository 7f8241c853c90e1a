/**
 * The budgets an execution runs under. A new execution takes this runtime's (`limits.maxCalls`, `limits.maxCost`,
 * each method's `maxCalls`) and journals them; every later pass reads them back from the journal, so an approval
 * in another process, under a runtime built with other limits, enforces the numbers the execution started with.
 * An execution journaled before budgets existed (no record) runs under this runtime's.
 */
import type { Connector } from "../connectors/types.js";
import { messageOf } from "../shared/message-of.js";
import { err, ok, type Result } from "../shared/result.js";
import { parseBudgets, type ExecutionBudgets } from "./journal/budget-record.js";
import { WHOLE_PROGRAM_SEQ, type CallJournalRecord, type ExecutionRecord } from "./journal/records.js";
import { CallBudget, journalBytesOf } from "./pass/call-budget.js";
import { isRejectedRow } from "./pass/call-progress.js";
import { STEP_CONNECTOR } from "./pass/step-policy.js";
import type { ResolvedBudgetLimits } from "./limits-option.js";

/** This runtime's budgets for a new execution over `connectors`. */
export function runtimeBudgets(limits: ResolvedBudgetLimits, connectors: Record<string, Connector>): ExecutionBudgets {
  const methodCalls = Object.create(null) as Record<string, number>;
  for (const [name, connector] of Object.entries(connectors)) {
    for (const [method, definition] of Object.entries(connector.methods)) {
      if (definition.maxCalls !== undefined) methodCalls[`${name}.${method}`] = definition.maxCalls;
    }
  }
  const budgets: ExecutionBudgets = {
    maxCalls: limits.maxCalls,
    methodCalls,
    maxSteps: limits.maxSteps,
    maxDiscoveryCalls: limits.maxDiscoveryCalls,
    maxJournalBytes: limits.maxJournalBytes,
  };
  if (limits.maxCost !== undefined) budgets.maxCost = limits.maxCost;
  return budgets;
}

/**
 * The journaled calls that count against the budgets: every connector call row once (a replayed call where it first
 * ran), not steps nor the whole-program approval (connector `codemode`), not a call a human rejected (it never ran).
 */
function countedCalls(calls: readonly CallJournalRecord[]): CallJournalRecord[] {
  return calls.filter((row) => row.connector !== STEP_CONNECTOR && !isRejectedRow(row));
}

/** The budget of a pass over `calls`, the execution's journal. */
export function passBudget(budgets: ExecutionBudgets, calls: readonly CallJournalRecord[]): CallBudget {
  let steps = 0;
  let journalBytes = 0;
  for (const row of calls) {
    if (row.connector === STEP_CONNECTOR && row.seq !== WHOLE_PROGRAM_SEQ) steps += 1;
    journalBytes += journalBytesOf(row.argsText, row.resultText, row.error, row.approvedArgsText);
  }
  return new CallBudget(budgets, countedCalls(calls), { steps, journalBytes });
}

/** The budgets `execution` runs under: its journaled ones, else `fallback`; a corrupt record is an error message. */
export function budgetsOf(execution: ExecutionRecord, fallback: () => ExecutionBudgets): Result<ExecutionBudgets> {
  if (execution.budgetsText === undefined) return ok(fallback());
  try {
    return ok(parseBudgets(execution.budgetsText));
  } catch (error) {
    return err(
      `The journal row of execution ${execution.executionId} is corrupt (${messageOf(error)}); nothing was run.`,
    );
  }
}
