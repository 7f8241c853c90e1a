/**
 * Approve and reject. Approval claims the paused execution with a
 * compare-and-set (`paused → running`) and runs the next pass; of two
 * approvals at once exactly one wins, the other gets `conflict` having run
 * nothing. Rejection ends the run (`rejected`) without undoing earlier calls.
 * A stale request changes nothing and says why.
 */
import { boundedText, MAX_STORED_MESSAGE_CHARS } from "../shared/bounded-text.js";
import { err, ok, type Result } from "../shared/result.js";
import { optionsProblem, outputId, readExecutionRequest, type ExecutionRequest } from "./execution-request.js";
import { APPROVE_REQUEST_KEYS, DECIDE_REQUEST_KEYS, EXECUTE_OPTION_KEYS, REJECT_REQUEST_KEYS } from "./request-keys.js";
import { loadForRequest } from "./load-execution.js";
import { appliedCalls } from "./execution-views.js";
import { disposeExecution } from "./pass/lifecycle-hooks.js";
import { failure, storeFailure } from "./failure-output.js";
import { claimPaused } from "./claim-paused.js";
import { runClaimedPass } from "./run-claimed-pass.js";
import type { RuntimeCore } from "./runtime-core.js";
import { traceOutsidePass, traceResumedPass } from "./tracing/runtime-tracing.js";
import { approvedRecord, checkedEdit, type ApprovalEdit } from "./approval-edits.js";
import type { LoadedExecution } from "./journal/journal-store.js";
import { WHOLE_PROGRAM_SEQ, type CallJournalRecord } from "./journal/records.js";
import type { AppliedCall, CodemodeOutput, ExecuteOptions, ExecutionStatus, RejectOutput } from "./types.js";

const WHY_NOT_PAUSED: Record<ExecutionStatus, string> = {
  running: "is running (another invocation is resuming it, or its process died; expirePaused() ends a dead one)",
  paused: "is paused",
  completed: "already completed",
  error: "already ended with an error",
  rejected: "was rejected",
  rolled_back: "was rolled back",
};

/** Why a request for `seq` cannot act on this execution, or undefined when it can. */
export function refusal(
  loaded: LoadedExecution,
  action: "approve" | "reject",
  seq: number | undefined,
): CodemodeOutput | undefined {
  const { execution, calls } = loaded;
  const { executionId } = execution;
  const call = seq === undefined ? undefined : calls.find((candidate) => candidate.seq === seq);
  if (seq !== undefined && call === undefined)
    return failure(executionId, "not-found", `Execution ${executionId} has no call #${seq}.`);
  if (call?.approvedAt !== undefined && call.status !== "pending") {
    return failure(
      executionId,
      "conflict",
      `Call #${seq} was already approved by another invocation; the execution ${WHY_NOT_PAUSED[execution.status]}. Nothing was changed.`,
    );
  }
  if (execution.status !== "paused") {
    const kind = execution.status === "running" ? "conflict" : "stale";
    return failure(
      executionId,
      kind,
      `Cannot ${action} execution ${executionId}: it ${WHY_NOT_PAUSED[execution.status]}. Nothing was changed.`,
    );
  }
  if (call !== undefined && (call.status !== "pending" || call.approvedAt !== undefined)) {
    return failure(
      executionId,
      "stale",
      `Call #${seq} is not waiting for approval (it is ${call.status}). Nothing was changed.`,
    );
  }
  return undefined;
}

const REQUEST_KEYS = { approve: APPROVE_REQUEST_KEYS, reject: REJECT_REQUEST_KEYS, decide: DECIDE_REQUEST_KEYS };

/**
 * The request (and the per-call `options`, when the action takes them) read and its execution loaded, or the
 * output that refuses it. `check` refuses more of the request before anything is read from the store.
 */
export async function loadRequested(
  core: RuntimeCore,
  action: "approve" | "reject" | "decide",
  request: unknown,
  {
    options,
    check,
  }: { options?: unknown; check?: (request: Record<string, unknown>) => CodemodeOutput | undefined } = {},
): Promise<Result<{ request: ExecutionRequest; loaded: LoadedExecution }, CodemodeOutput>> {
  const id = outputId((request as { executionId?: unknown } | undefined)?.executionId);
  const read = readExecutionRequest(action, request, { keys: REQUEST_KEYS[action] });
  if (!read.ok) return err(failure(id, "validation", read.error));
  const badOptions = optionsProblem(`${action}(request, options)`, options, EXECUTE_OPTION_KEYS);
  if (badOptions !== undefined) return err(failure(id, "validation", `${badOptions} Nothing was changed.`));
  const refused = check?.(request as Record<string, unknown>);
  if (refused !== undefined) return err(refused);
  const loaded = await loadForRequest(core, read.value);
  if (!loaded.ok) {
    const { executionId } = read.value;
    return err(
      loaded.error.kind === "store"
        ? storeFailure(executionId, loaded.error.cause)
        : failure(outputId(executionId), "not-found", loaded.error.error),
    );
  }
  return ok({ request: read.value, loaded: loaded.value });
}

/** The request's `args` (approve with changes), when it has them; `undefined` given explicitly is none. */
function givenArgs(request: unknown): { args: unknown } | undefined {
  const args = (request as { args?: unknown }).args;
  return args === undefined ? undefined : { args };
}

/** Approves the pending call `seq` (or every pending call), with the approver's `args` when given, and runs the next pass. */
export async function approveExecution(
  core: RuntimeCore,
  approval: unknown,
  options: ExecuteOptions = {},
): Promise<CodemodeOutput> {
  const read = await loadRequested(core, "approve", approval, { options });
  if (!read.ok) return read.error;
  const {
    request: { executionId, seq, decidedBy },
    loaded,
  } = read.value;
  const refused = refusal(loaded, "approve", seq);
  if (refused !== undefined) return refused;
  const given = givenArgs(approval);
  let edit: ApprovalEdit | undefined;
  if (given !== undefined) {
    const call = loaded.calls.find((candidate) => candidate.seq === seq);
    if (call === undefined) {
      const why = "approve({ executionId, seq, args }): args changes one call, so it needs that call's seq.";
      return failure(executionId, "validation", `${why} Nothing was changed or run.`);
    }
    const checked = await checkedEdit(core, executionId, call, given.args);
    if (!checked.ok) return checked.error;
    edit = checked.value;
  }
  const by = decidedBy === undefined ? {} : { decidedBy };
  const change = seq === undefined ? {} : { seq, ...(edit === undefined ? {} : { edits: [edit] }) };
  const claimed = await claimPaused(core, loaded, { ...change, ...by });
  if (!claimed.ok) return claimed.error;
  const { leaseToken, at, snippets } = claimed.value;
  const approved: number[] = [];
  const calls = loaded.calls.map((call): CallJournalRecord => {
    if (call.status !== "pending" || call.approvedAt !== undefined || (seq !== undefined && call.seq !== seq))
      return call;
    approved.push(call.seq);
    // The claim applied an approved whole-program row (nothing runs for it); the others run when the pass reaches them.
    if (call.seq === WHOLE_PROGRAM_SEQ) return { ...call, status: "applied", approvedAt: at, ...by };
    return { ...approvedRecord(call, at, edit), ...by };
  });
  const execution = { ...loaded.execution, status: "running" as const, passes: loaded.execution.passes + 1 };
  const trace = await traceResumedPass(core.tracing, execution, { approved, rejected: [] });
  return runClaimedPass(core, { execution, calls, snippets, leaseToken, options, trace });
}

/** Rejects a paused execution: it ends `rejected`; earlier calls stay applied (see rollback). */
export async function rejectExecution(core: RuntimeCore, rejection: unknown): Promise<RejectOutput> {
  const read = await loadRequested(core, "reject", rejection);
  if (!read.ok) return read.error as RejectOutput;
  const {
    request: { executionId, seq, decidedBy },
    loaded,
  } = read.value;
  const given = (rejection as { reason?: unknown }).reason;
  const reason = typeof given === "string" ? boundedText(given, MAX_STORED_MESSAGE_CHARS) : undefined;
  const refused = refusal(loaded, "reject", seq);
  if (refused !== undefined) return refused as RejectOutput;
  // Read before anything changes: what stays applied is what had run when the person said no.
  const applied = appliedCalls(loaded.calls);
  const target = seq === undefined ? "" : ` at call #${seq}`;
  const message = `Rejected by a human${target}${reason === undefined || reason === "" ? "" : `: ${reason}`}.`;
  return traceOutsidePass(
    core.tracing,
    loaded.execution,
    "reject",
    () => rejectPaused(core, { executionId, message, applied, decidedBy }),
    (output) => ({
      attributes: { "codemode.call.seqs": loaded.calls.filter(isWaiting).map((call) => call.seq) },
      ...(output.status === "error" ? { error: output.error, kind: output.kind } : {}),
    }),
  );
}

function isWaiting(call: CallJournalRecord): boolean {
  return call.status === "pending" && call.approvedAt === undefined;
}

/** The rejection's compare-and-set (`paused → rejected`) and the `disposeExecution` hook; `applied` is reported. */
async function rejectPaused(
  core: RuntimeCore,
  {
    executionId,
    message,
    applied,
    decidedBy,
  }: { executionId: string; message: string; applied: AppliedCall[]; decidedBy: string | undefined },
): Promise<RejectOutput> {
  try {
    const won = await core.store.rejectPaused({
      executionId,
      token: core.options.generateId(),
      now: core.options.now(),
      reason: message,
      ...(decidedBy === undefined ? {} : { decidedBy }),
    });
    if (!won)
      return failure(
        executionId,
        "conflict",
        `Execution ${executionId} was changed by another invocation first (a concurrent approval or rejection). Nothing was changed.`,
      ) as RejectOutput;
  } catch (error) {
    return storeFailure(executionId, error) as RejectOutput;
  }
  await disposeExecution(core.hooks, executionId, "rejected");
  return { status: "rejected", executionId, applied };
}
