/**
 * The connector-call policy on a journaled call (`journaled-call.ts`): a recorded call is replayed by its
 * status; a new one is validated, asked for approval (written `pending`, the pass pauses) or written
 * `executing`, run, and recorded; a `readOnly` one runs at once and its row is buffered for the pass's next
 * write. `reexecute` methods run again on every pass and are logged without result.
 * Outbound `fetch` is this policy on the built-in outbound connector.
 */
import type { ConnectorCallContext, ConnectorMethod } from "../../connectors/types.js";
import { messageOf, readableError } from "../../shared/message-of.js";
import type { CallJournalRecord } from "../journal/records.js";
import { decodeJournalValue } from "../journal/journal-values.js";
// The journaled-call unit: every rule a journaled call shares; this file is a policy on it.
import * as journaled from "./journaled-call.js";
import { journalBytesOf } from "./call-budget.js";
import { withRequest } from "./with-request.js";
import { isRejectedRow, reportCall, reportedRun, type ProgressCall } from "./call-progress.js";
import type { PassContext } from "./pass-context.js";
import { pauseMessage } from "./pass-signals.js";

/** Identifies the call being made. */
export interface CallTarget {
  connector: string;
  method: string;
  definition: ConnectorMethod;
}

function callContext(pass: PassContext, target: CallTarget, seq: number): ConnectorCallContext {
  const { executionId } = pass.execution;
  return {
    executionId,
    seq,
    idempotencyKey: `${executionId}:${seq}`,
    toolCallId: `${executionId}:${seq}`,
    connector: target.connector,
    method: target.method,
    abortSignal: pass.abort.signal,
    messages: pass.options.messages ?? [],
    context: pass.options.context,
  };
}

/**
 * Runs connector code: what it throws (a thrown non-Error, a proxy, a `message` getter that throws) becomes a plain
 * Error read once, here, so nothing after the connector can be made to throw by it.
 */
async function connectorCode<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw readableError(error);
  }
}

/** Runs the connector's method (inside its call's span when the pass is traced, so the spans it makes nest there). */
function runConnector(pass: PassContext, target: CallTarget, seq: number, args: unknown): Promise<unknown> {
  const run = () => connectorCode(() => target.definition.execute(args, callContext(pass, target, seq)));
  return pass.trace === undefined ? run() : pass.trace.inCall(seq, run);
}

function progressCall(target: CallTarget, seq: number, args: unknown): ProgressCall {
  return { seq, connector: target.connector, method: target.method, args };
}

/** The validated arguments; invalid ones reject the call (the program sees the message) and are noted as such. */
async function validated(pass: PassContext, target: CallTarget, args: unknown, seq: number): Promise<unknown> {
  if (target.definition.validate === undefined) return args;
  const validate = target.definition.validate;
  const outcome = await connectorCode(() => validate(args));
  if (outcome.success) return outcome.value;
  pass.validationFailures.add(outcome.error);
  reportCall(pass, progressCall(target, seq, args), "error", { error: outcome.error });
  throw new Error(outcome.error);
}

/** Runs the connector (its `executing` row is durable), then records `applied` with the result, or `error`. */
async function runAndRecord(pass: PassContext, target: CallTarget, seq: number, args: unknown): Promise<unknown> {
  return reportedRun(pass, progressCall(target, seq, args), async () => {
    let result: unknown;
    try {
      result = await runConnector(pass, target, seq, args);
    } catch (error) {
      journaled.recordFailure(pass, seq, messageOf(error));
      throw error;
    }
    journaled.recordSuccess(pass, seq, result, `the result of ${target.connector}.${target.method} (call #${seq})`);
    return result;
  });
}

/** Runs a `reexecute` (read-only) call again; on its first pass, logs it without its result. */
async function reexecute(
  pass: PassContext,
  target: CallTarget,
  seq: number,
  call: journaled.CallIdentity,
  log: boolean,
): Promise<unknown> {
  const args = await validated(pass, target, call.args, seq);
  const result = await reportedRun(pass, progressCall(target, seq, args), async () =>
    runConnector(pass, target, seq, args),
  );
  if (log) {
    journaled.admitBytes(pass, journalBytesOf(call.argsText), `the arguments of call #${seq}`);
    pass.journal.logReexecuted({
      seq,
      connector: target.connector,
      method: target.method,
      argsText: call.argsText,
      now: pass.deps.now(),
      ...(call.cost === undefined ? {} : { cost: call.cost }),
    });
  }
  return result;
}

/** Runs a read-only call at once (no row first); its row is buffered for the pass's next write (`recordRead`). */
async function readOnlyRun(
  pass: PassContext,
  target: CallTarget,
  seq: number,
  call: journaled.CallIdentity,
  args: unknown,
): Promise<unknown> {
  const read = { ...call, startedAt: pass.deps.now() };
  let result: unknown;
  try {
    result = await runConnector(pass, target, seq, args);
  } catch (error) {
    journaled.recordRead(pass, seq, read, { error: messageOf(error) });
    throw error;
  }
  journaled.recordRead(pass, seq, read, {
    result,
    what: `the result of ${target.connector}.${target.method} (call #${seq})`,
  });
  return result;
}

/**
 * Records call `seq` as waiting for approval and returns the rejection the program gets. The
 * pause-swallow guard (`pass.pauseMessage`) is raised one macrotask later, just before the
 * rejection is delivered: calls the program issued together with this one (`Promise.all`) must be
 * journaled too, so that every approval of the batch is pending at once. `QuickJSExecutor`
 * starts such calls in one turn (the worker sends them as one batch); the extra macrotask covers
 * executors that deliver them later. The program cannot have seen the pause before the guard is up.
 */
async function pause(pass: PassContext, target: CallTarget, seq: number, args: unknown): Promise<Error> {
  const action = {
    executionId: pass.execution.executionId,
    seq,
    connector: target.connector,
    method: target.method,
    args,
  };
  pass.pending.push(withRequest(action, target.definition));
  reportCall(pass, progressCall(target, seq, args), "pending");
  await new Promise<void>((resolve) => setImmediate(resolve));
  pass.pauseMessage ??= pauseMessage(target.connector, target.method, seq);
  return new Error(pauseMessage(target.connector, target.method, seq));
}

async function replay(
  pass: PassContext,
  target: CallTarget,
  seq: number,
  call: journaled.CallIdentity,
  row: CallJournalRecord,
): Promise<unknown> {
  switch (row.status) {
    case "applied":
      if (row.replay === "reexecute") return reexecute(pass, target, seq, call, false);
      reportCall(pass, progressCall(target, seq, call.args), "replayed");
      return journaled.replayedResult(pass, row);
    case "error": {
      const message = journaled.replayedFailure(pass, row, `${target.connector}.${target.method} failed`);
      reportCall(pass, progressCall(target, seq, call.args), isRejectedRow(row) ? "rejected" : "error", {
        error: message,
      });
      throw new Error(message);
    }
    case "pending": {
      if (row.approvedAt === undefined) throw await pause(pass, target, seq, call.args);
      // Approved with changes: the connector runs with the approver's arguments (the row keeps the program's).
      const edited = row.approvedArgsText;
      const given =
        edited === undefined ? call.args : journaled.readRecorded(pass, seq, () => decodeJournalValue(edited));
      const args = await validated(pass, target, given, seq);
      if (!(await pass.journal.startApprovedCall({ seq, now: pass.deps.now() }))) {
        const error = `Call #${seq} was taken over by another invocation; this pass stopped without running it.`;
        throw pass.failWith({ kind: "conflict", error });
      }
      pass.startedApprovals.add(seq);
      pass.executing.set(seq, `${target.connector}.${target.method}`);
      return runAndRecord(pass, target, seq, args);
    }
    case "executing":
      throw pass.failWith({
        kind: "interrupted",
        error:
          `Call #${seq} (${target.connector}.${target.method}) was interrupted in an earlier pass before its outcome ` +
          "was recorded. Its effect is unknown, so it is not run again; check the target system and start a new execution.",
      });
    case "reverted":
      throw pass.failWith({
        kind: "stale",
        error: `Call #${seq} was rolled back; a rolled-back execution cannot continue.`,
      });
  }
}

async function firstRun(
  pass: PassContext,
  target: CallTarget,
  seq: number,
  made: journaled.CallIdentity,
): Promise<unknown> {
  const args = await validated(pass, target, made.args, seq);
  // Billed on the arguments that will run (after the schema's defaults), not the program's own.
  const charged = pass.budget.charge(target, seq, args);
  if (!charged.ok) {
    if (charged.kind === "limit") throw pass.failWith({ kind: "limit", error: charged.error });
    reportCall(pass, progressCall(target, seq, made.args), "error", { error: charged.error });
    throw new Error(charged.error);
  }
  const call = charged.cost === undefined ? made : { ...made, cost: charged.cost };
  const approval = target.definition.needsApproval;
  const { executionId } = pass.execution;
  const needsApproval =
    typeof approval === "function"
      ? await connectorCode(() =>
          approval(args, {
            executionId,
            seq,
            toolCallId: `${executionId}:${seq}`,
            messages: pass.options.messages ?? [],
            context: pass.options.context,
          }),
        )
      : approval === true;
  if (!needsApproval && target.definition.replay === "reexecute") return reexecute(pass, target, seq, call, true);
  if (!needsApproval && target.definition.readOnly === true) return readOnlyRun(pass, target, seq, call, args);
  await journaled.insertCall(pass, seq, call, {
    status: needsApproval ? "pending" : "executing",
    needsApproval: needsApproval,
  });
  if (needsApproval) throw await pause(pass, target, seq, call.args);
  return runAndRecord(pass, target, seq, args);
}

/** One call from the program. Must be invoked synchronously by the binding so the sequence number follows call order. */
export function connectorCall(pass: PassContext, target: CallTarget, args: unknown): Promise<unknown> {
  return journaled.journaledCall(pass, target, args, async (seq) => {
    const what = `the arguments of ${target.connector}.${target.method} (call #${seq})`;
    const call: journaled.CallIdentity = {
      connector: target.connector,
      method: target.method,
      args,
      argsText: journaled.journalArguments(pass, args, what),
    };
    const row = journaled.recordedCall(pass, seq, call);
    if (row !== undefined) return replay(pass, target, seq, call, row);
    // Admitted synchronously, before the first await: calls issued together are counted in call order.
    const admitted = pass.budget.admit(target, seq);
    if (!admitted.ok) throw pass.failWith({ kind: "limit", error: admitted.error });
    return firstRun(pass, target, seq, call);
  });
}
