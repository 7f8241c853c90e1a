/**
 * Approve with changes: the arguments an approver gives a pending call instead of the program's,
 * checked before anything is claimed or run. Allowed only for a method whose policy is `editable: true`;
 * validated against the method's input schema; journaled as codec text beside the program's arguments (replay
 * still matches the program's), so the edit is bound to that one call of that one execution.
 */
import { messageOf } from "../shared/message-of.js";
import { err, ok, type Result } from "../shared/result.js";
import { failure } from "./failure-output.js";
import { WHOLE_PROGRAM_SEQ, type CallJournalRecord } from "./journal/records.js";
import { canonicalArguments, canonicalJournaledArguments, encodeJournalValue } from "./journal/journal-values.js";
import type { RuntimeCore } from "./runtime-core.js";
import type { CodeModeOutput } from "./types.js";

/** An approver's arguments for call `seq`, as the claim writes them. */
export interface ApprovalEdit {
  seq: number;
  argsText: string;
}

/**
 * The edit of `call` with `args`, or the `validation` failure that refuses the whole request (nothing is claimed
 * or run). Arguments equal to the program's (canonically) are no edit: `undefined`.
 */
export async function checkedEdit(
  core: RuntimeCore,
  executionId: string,
  call: CallJournalRecord,
  args: unknown,
): Promise<Result<ApprovalEdit | undefined, CodeModeOutput>> {
  const name = `${call.connector}.${call.method} (call #${call.seq})`;
  const refuse = (why: string) => err(failure(executionId, "validation", `${why} Nothing was changed or run.`));
  if (call.seq === WHOLE_PROGRAM_SEQ)
    return refuse("The whole-program approval (call #0) has no arguments to change: approve or reject it as it is.");
  const definition = core.connectors[call.connector]?.methods[call.method];
  if (definition?.editable !== true) {
    return refuse(
      `${name} is not editable: its method policy does not set editable: true, so an approver cannot change its ` +
        "arguments. Approve it as it is, or reject it with a reason.",
    );
  }
  let validated = args;
  if (definition.validate !== undefined) {
    const outcome = await definition.validate(args);
    if (!outcome.success) return refuse(`The changed arguments of ${name} are invalid: ${outcome.error}`);
    validated = outcome.value;
  }
  // Priced like the program's call: on the arguments that will run (the schema's defaults applied).
  const costProblem = raisedCost(definition.cost, validated, call.cost);
  if (costProblem !== undefined) return refuse(`The changed arguments of ${name} ${costProblem}`);
  const encoded = encodeJournalValue(args, `the changed arguments of ${name}`);
  if (!encoded.ok) return refuse(encoded.error);
  if (canonicalArguments(args) === canonicalJournaledArguments(call.argsText)) return ok(undefined);
  return ok({ seq: call.seq, argsText: encoded.value });
}

/**
 * Why an edit may not run at its cost, or `undefined`. A call's cost was charged against `limits.maxCost` on the
 * program's arguments when the pass first reached it, and the pass never charges it again: an edit may keep or
 * lower that cost (the charge stays as it was), never raise it, or an approval could overrun the budget.
 */
function raisedCost(
  cost: ((args: unknown) => number) | undefined,
  args: unknown,
  charged: number | undefined,
): string | undefined {
  if (cost === undefined || charged === undefined) return undefined;
  let value: unknown;
  try {
    value = cost(args);
  } catch (error) {
    return `cannot be priced: the method's cost function threw (${messageOf(error)}).`;
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    return "cannot be priced: the method's cost function did not return a finite number >= 0.";
  if (value <= charged) return undefined;
  return (
    `would cost ${value}, more than the ${charged} charged for the program's arguments against the cost budget: ` +
    "an approver may lower a call's cost, not raise it. Approve with arguments that cost no more, or reject the call."
  );
}

/** A pending call as its claim approved it at `at`, with the approver's arguments when it was edited. */
export function approvedRecord(call: CallJournalRecord, at: number, argsText: string | undefined): CallJournalRecord {
  return argsText === undefined ? { ...call, approvedAt: at } : { ...call, approvedAt: at, approvedArgsText: argsText };
}
