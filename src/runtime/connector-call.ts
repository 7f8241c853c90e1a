/**
 * One connector call made by the program, journaled: replayed from the
 * journal when a row exists at its sequence number (after a divergence check),
 * otherwise validated, asked for approval or written `executing`, run, and
 * written `applied` (or `error`).
 */
import type { ConnectorCallContext, ConnectorMethod } from "../connectors/types.js";
import { canonicalArguments, canonicalJournaledArguments, decodeJournalValue, encodeJournalValue } from "./journal-values.js";
import type { PassContext } from "./pass-context.js";
import { divergenceFailure, pauseMessage } from "./pass-signals.js";
import {
  applyCallStatement, failCallStatement, insertCallStatement, startApprovedCallStatement,
} from "./store/call-statements.js";
import type { CallJournalRecord } from "./store/records.js";
import { messageOf } from "./error-message.js";
import { withRequest } from "./execution-views.js";

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

async function validated(target: CallTarget, args: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  if (target.definition.validate === undefined) return { ok: true, value: args };
  const outcome = await target.definition.validate(args);
  return outcome.success ? { ok: true, value: outcome.value } : { ok: false, error: outcome.error };
}

/** Runs the connector, then queues `applied` with the result (or `error`). The `executing` row is already durable. */
async function runAndRecord(pass: PassContext, target: CallTarget, seq: number, args: unknown): Promise<unknown> {
  let result: unknown;
  try {
    result = await target.definition.execute(args, callContext(pass, target, seq));
  } catch (error) {
    pass.writer.defer(failCallStatement(pass.lease, seq, messageOf(error), pass.deps.now()));
    pass.renewLeaseIfDue();
    throw error;
  }
  const encoded = encodeJournalValue(result, `the result of ${target.connector}.${target.method} (call #${seq})`);
  if (!encoded.ok) {
    pass.writer.defer(failCallStatement(pass.lease, seq, encoded.error, pass.deps.now()));
    throw pass.failWith({ kind: "limit", error: encoded.error });
  }
  pass.writer.defer(applyCallStatement(pass.lease, seq, encoded.text, pass.deps.now()));
  pass.renewLeaseIfDue();
  return result;
}

/** Runs a `reexecute` (read-only) call again and logs it without its result. */
async function reexecute(pass: PassContext, target: CallTarget, seq: number, args: unknown, argsText: string, log: boolean): Promise<unknown> {
  const check = await validated(target, args);
  if (!check.ok) throw new Error(check.error);
  const result = await target.definition.execute(check.value, callContext(pass, target, seq));
  if (log) {
    pass.writer.defer(insertCallStatement(pass.lease, {
      seq, connector: target.connector, method: target.method, argsText, status: "applied", replay: "reexecute",
      requiresApproval: false, now: pass.deps.now(),
    }));
  }
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
  const action = { executionId: pass.execution.executionId, seq, connector: target.connector, method: target.method, args };
  pass.pending.push(withRequest(action, target.definition));
  await new Promise<void>((resolve) => setImmediate(resolve));
  pass.pauseMessage ??= pauseMessage(target.connector, target.method, seq);
  return new Error(pauseMessage(target.connector, target.method, seq));
}

/** Reads a journaled value of call `seq`; a corrupt one ends the pass with kind `store`. */
export function readRecorded<T>(pass: PassContext, seq: number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw pass.failWith({ kind: "store", error: `The journal row of call #${seq} is corrupt (${messageOf(error)}); the run stopped without running anything for it.` });
  }
}

async function replayRecorded(pass: PassContext, target: CallTarget, seq: number, args: unknown, argsText: string, row: CallJournalRecord): Promise<unknown> {
  const recordedArgs = readRecorded(pass, seq, () => canonicalJournaledArguments(row.argsText));
  if (row.connector !== target.connector || row.method !== target.method || recordedArgs !== canonicalArguments(args)) {
    throw pass.failWith(divergenceFailure(seq, row, { connector: target.connector, method: target.method, argsText }));
  }
  switch (row.status) {
    case "applied":
      if (row.replay === "reexecute") return reexecute(pass, target, seq, args, argsText, false);
      pass.replayed.push(seq);
      return row.resultText === undefined ? undefined : readRecorded(pass, seq, () => decodeJournalValue(row.resultText as string));
    case "error":
      pass.replayed.push(seq);
      throw new Error(row.error ?? `${target.connector}.${target.method} failed`);
    case "pending": {
      if (row.approvedAt === undefined) throw await pause(pass, target, seq, args);
      const check = await validated(target, args);
      if (!check.ok) throw new Error(check.error);
      const started = await pass.writer.commit(startApprovedCallStatement(pass.lease, seq, pass.deps.now()));
      if (started.rowsAffected !== 1) {
        throw pass.failWith({ kind: "conflict", error: `Call #${seq} was taken over by another invocation; this pass stopped without running it.` });
      }
      return runAndRecord(pass, target, seq, check.value);
    }
    case "executing":
      throw pass.failWith({
        kind: "interrupted",
        error: `Call #${seq} (${target.connector}.${target.method}) was interrupted in an earlier pass before its outcome was recorded. Its effect is unknown, so it is not run again; check the target system and start a new execution.`,
      });
    case "reverted":
      throw pass.failWith({ kind: "stale", error: `Call #${seq} was rolled back; a rolled-back execution cannot continue.` });
  }
}

async function firstRun(pass: PassContext, target: CallTarget, seq: number, args: unknown, argsText: string): Promise<unknown> {
  const check = await validated(target, args);
  if (!check.ok) throw new Error(check.error);
  const approval = target.definition.requiresApproval;
  const { executionId } = pass.execution;
  const needsApproval = typeof approval === "function"
    ? await approval(check.value, { executionId, seq, toolCallId: `${executionId}:${seq}`, messages: pass.options.messages ?? [], context: pass.options.context })
    : approval === true;
  if (!needsApproval && target.definition.replay === "reexecute") return reexecute(pass, target, seq, args, argsText, true);
  if (pass.fatal !== undefined) throw new Error(pass.fatal.error);
  const inserted = await pass.writer.commit(insertCallStatement(pass.lease, {
    seq, connector: target.connector, method: target.method, argsText, status: needsApproval ? "pending" : "executing",
    replay: "record", requiresApproval: needsApproval, now: pass.deps.now(),
  }));
  if (inserted.rowsAffected !== 1) {
    throw pass.failWith({ kind: "conflict", error: "This execution was taken over by another invocation (its lease expired); the pass stopped." });
  }
  if (needsApproval) throw await pause(pass, target, seq, args);
  return runAndRecord(pass, target, seq, check.value);
}

/** A store failure inside a binding ends the pass with kind `store`; other errors pass through. */
export function storeFailureOr(pass: PassContext, error: unknown): unknown {
  if (pass.writer.failure === undefined || error !== pass.writer.failure) return error;
  return pass.failWith({ kind: "store", error: `The journal could not be written (${messageOf(error)}); the run stopped.` });
}

/**
 * Handles one call from the program. Must be invoked synchronously by the
 * binding so the sequence number follows call order.
 */
export function journaledCall(pass: PassContext, target: CallTarget, args: unknown): Promise<unknown> {
  const seq = pass.takeSeq();
  if (pass.fatal !== undefined) return Promise.reject(new Error(pass.fatal.error));
  if (pass.pauseMessage !== undefined) return Promise.reject(new Error(pass.pauseMessage));
  return pass.track((async () => {
    const encoded = encodeJournalValue(args, `the arguments of ${target.connector}.${target.method} (call #${seq})`);
    if (!encoded.ok) throw pass.failWith({ kind: "limit", error: encoded.error });
    const row = pass.recorded.get(seq);
    try {
      return row === undefined
        ? await firstRun(pass, target, seq, args, encoded.text)
        : await replayRecorded(pass, target, seq, args, encoded.text, row);
    } catch (error) {
      throw storeFailureOr(pass, error);
    }
  })());
}
