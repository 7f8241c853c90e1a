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
import type { CodemodeOutput } from "./types.js";

/** An approver's arguments for call `seq`, as the claim writes them. */
export interface ApprovalEdit {
  seq: number;
  argsText: string;
  /** What the changed arguments cost (the method has a `cost`): the call's row records it instead of the program's. */
  cost?: number;
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
): Promise<Result<ApprovalEdit | undefined, CodemodeOutput>> {
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
  const priced = editCost(definition.cost, validated, call.cost);
  if (!priced.ok) return refuse(`The changed arguments of ${name} ${priced.error}`);
  const encoded = encodeJournalValue(args, `the changed arguments of ${name}`);
  if (!encoded.ok) return refuse(encoded.error);
  if (canonicalArguments(args) === canonicalJournaledArguments(call.argsText)) return ok(undefined);
  return ok({ seq: call.seq, argsText: encoded.value, ...(priced.value === undefined ? {} : { cost: priced.value }) });
}

/**
 * The cost of the changed arguments (undefined when the call was not priced), or why the edit may not run at it. A
 * call's cost was charged against `limits.maxCost` on the program's arguments when the pass first reached it: an
 * edit may keep or lower that cost (the row then records what actually runs, and later calls are budgeted on it),
 * never raise it, or an approval could overrun the budget.
 */
function editCost(
  cost: ((args: unknown) => number) | undefined,
  args: unknown,
  charged: number | undefined,
): Result<number | undefined, string> {
  if (cost === undefined || charged === undefined) return ok(undefined);
  let value: unknown;
  try {
    value = cost(args);
  } catch (error) {
    return err(`cannot be priced: the method's cost function threw (${messageOf(error)}).`);
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    return err("cannot be priced: the method's cost function did not return a finite number >= 0.");
  if (value <= charged) return ok(value);
  return err(
    `would cost ${value}, more than the ${charged} charged for the program's arguments against the cost budget: ` +
      "an approver may lower a call's cost, not raise it. Approve with arguments that cost no more, or reject the call.",
  );
}

/** A pending call as its claim approved it at `at`, with the approver's arguments (and their cost) when edited. */
export function approvedRecord(call: CallJournalRecord, at: number, edit: ApprovalEdit | undefined): CallJournalRecord {
  if (edit === undefined) return { ...call, approvedAt: at };
  return {
    ...call,
    approvedAt: at,
    approvedArgsText: edit.argsText,
    ...(edit.cost === undefined ? {} : { cost: edit.cost }),
  };
}
