/**
 * The rules every journaled call of a pass follows (connector calls, `codemode.step`, outbound `fetch`):
 * 1. The sequence number is taken synchronously when the program makes the call, so calls issued together get
 *    the same numbers on every pass.
 * 2. After a fatal failure or a delivered pause, a call is refused without effect.
 * 3. A journal row at that number must be the same call (connector, method, canonical arguments), or the pass
 *    ends `divergence` without running anything.
 * 4. A new row is inserted guarded by the pass's lease; zero rows written means the lease was lost (`conflict`).
 *    A step's row is queued instead and rides with the pass's next write (its effects are its own calls, which write
 *    first); a lost lease then shows when that write lands.
 * 5. A success is recorded with its journaled result (too large: `limit`), a failure with its bounded message;
 *    either renews the lease when half of it has passed.
 * 6. A store failure inside a call ends the pass with kind `store`.
 * The policies (`connector-policy.ts`, `step-policy.ts`) decide what happens between these steps.
 */
import { boundedText, MAX_STORED_MESSAGE_CHARS, quoted } from "../../shared/bounded-text.js";
import { messageOf } from "../../shared/message-of.js";
import type { CallJournalRecord } from "../journal/records.js";
import {
  canonicalArguments,
  canonicalJournaledArguments,
  decodeJournalValue,
  encodeJournalValue,
} from "../journal/journal-values.js";
import type { TracedCall } from "../tracing/call-attributes.js";
import { journalBytesOf } from "./call-budget.js";
import type { PassContext } from "./pass-context.js";
import { divergenceFailure } from "./pass-signals.js";

/** What a call is, as the journal records it. */
export interface CallIdentity {
  connector: string;
  method: string;
  /** Codec string of the arguments. */
  argsText: string;
  /** The arguments themselves (compared canonically with the recorded ones). */
  args: unknown;
  /** What the call counts against the execution's `maxCost` (its method's `cost`), journaled with its row. */
  cost?: number;
}

/**
 * Rules 1, 2 and 6: numbers the call, refuses it after a fatal failure or a pause, tracks it until it settles.
 * When the pass is traced, the call gets a span (`call` and `args` name it).
 */
export function journaledCall<T>(
  pass: PassContext,
  call: TracedCall,
  args: unknown,
  body: (seq: number) => Promise<T>,
): Promise<T> {
  const seq = pass.takeSeq();
  pass.reached.add(seq);
  if (pass.fatal !== undefined) return Promise.reject(new Error(pass.fatal.error));
  if (pass.pauseMessage !== undefined) return Promise.reject(new Error(pass.pauseMessage));
  const run = (): Promise<T> =>
    body(seq).catch((error: unknown) => {
      throw storeFailureOr(pass, error);
    });
  return pass.track(pass.trace === undefined ? run() : pass.trace.call(pass, seq, call, args, run));
}

/** Serializes a call's arguments for the journal; too large ends the pass with kind `limit`. */
export function journalArguments(pass: PassContext, args: unknown, what: string): string {
  const encoded = encodeJournalValue(args, what);
  if (!encoded.ok) throw pass.failWith({ kind: "limit", error: encoded.error });
  return encoded.value;
}

/** Rule 3: the row recorded at `seq`, after checking it is the same call; undefined for a new call. */
export function recordedCall(pass: PassContext, seq: number, call: CallIdentity): CallJournalRecord | undefined {
  const row = pass.recorded.get(seq);
  if (row === undefined) return undefined;
  const recordedArgs = readRecorded(pass, seq, () => canonicalJournaledArguments(row.argsText));
  if (
    row.connector !== call.connector ||
    row.method !== call.method ||
    recordedArgs !== canonicalArguments(call.args)
  ) {
    throw pass.failWith(divergenceFailure(seq, row, call));
  }
  return row;
}

/** A recorded outcome returned instead of running the call: the decoded result, counted as a replay. */
export function replayedResult(pass: PassContext, row: CallJournalRecord): unknown {
  pass.replayed.push(row.seq);
  const text = row.resultText;
  const value = text === undefined ? undefined : readRecorded(pass, row.seq, () => decodeJournalValue(text));
  pass.trace?.replayed(row.seq, { value });
  return value;
}

/** A recorded failure returned instead of running the call: its message, counted as a replay. */
export function replayedFailure(pass: PassContext, row: CallJournalRecord, fallback: string): string {
  pass.replayed.push(row.seq);
  const message = row.error ?? fallback;
  pass.trace?.replayed(row.seq, { error: new Error(message) });
  return message;
}

/** Rule 4: inserts the call's row (`executing` or `pending`) under the lease. */
export async function insertCall(
  pass: PassContext,
  seq: number,
  call: CallIdentity,
  row: { status: "executing" | "pending"; needsApproval: boolean },
): Promise<void> {
  if (pass.fatal !== undefined) throw new Error(pass.fatal.error);
  admitBytes(pass, journalBytesOf(call.argsText), `the arguments of call #${seq}`);
  const inserted = await pass.journal.insertCall(
    {
      seq,
      connector: call.connector,
      method: call.method,
      argsText: call.argsText,
      status: row.status,
      needsApproval: row.needsApproval,
      now: pass.deps.now(),
      ...(call.cost === undefined ? {} : { cost: call.cost }),
    },
    // Other calls in flight may be about to write too (`Promise.all`): gather them into this write.
    { gather: pass.inflight.size > 1 },
  );
  if (!inserted) {
    throw pass.failWith({
      kind: "conflict",
      error: "This execution was taken over by another invocation (its lease expired); the pass stopped.",
    });
  }
  if (row.status === "executing") pass.executing.set(seq, `${call.connector}.${call.method}`);
}

/** Rule 4 for a step: queues its `executing` row (counted against the journal budget) for the pass's next write. */
export function queueStep(pass: PassContext, seq: number, call: CallIdentity): void {
  if (pass.fatal !== undefined) throw new Error(pass.fatal.error);
  admitBytes(pass, journalBytesOf(call.argsText), `the arguments of call #${seq}`);
  pass.journal.beginStep({
    seq,
    connector: call.connector,
    method: call.method,
    argsText: call.argsText,
    now: pass.deps.now(),
  });
  pass.executing.set(seq, `step ${quoted(call.method)}`);
}

/** Rule 5: records a success with its result; a result too large for the journal fails the call and the pass. */
export function recordSuccess(pass: PassContext, seq: number, result: unknown, what: string): void {
  pass.executing.delete(seq);
  const encoded = encodeJournalValue(result, what);
  const refusal = encoded.ok ? bytesRefusal(pass, encoded.value, what) : encoded.error;
  if (!encoded.ok || refusal !== undefined) {
    const error = refusal ?? "";
    pass.journal.failCall({ seq, error, now: pass.deps.now() });
    throw pass.failWith({ kind: "limit", error });
  }
  pass.journal.applyCall({ seq, resultText: encoded.value, now: pass.deps.now() });
  pass.renewLeaseIfDue();
}

/** Rule 5: records a failure; its message, replayed as the rejection on later passes, is bounded. */
export function recordFailure(pass: PassContext, seq: number, message: string): void {
  pass.executing.delete(seq);
  pass.journal.failCall({ seq, error: boundedText(message, MAX_STORED_MESSAGE_CHARS), now: pass.deps.now() });
  pass.renewLeaseIfDue();
}

/**
 * Rule 5 for a read-only call: no row was written before it ran; its row, with the result or the failure, is
 * buffered and travels with the pass's next write (a call with effects, a pause, the end). A result too large
 * for the journal fails the call and the pass, as for any call.
 */
export function recordRead(
  pass: PassContext,
  seq: number,
  call: CallIdentity & { startedAt: number },
  outcome: { result: unknown; what: string } | { error: string },
): void {
  const row = {
    seq,
    connector: call.connector,
    method: call.method,
    argsText: call.argsText,
    startedAt: call.startedAt,
    ...(call.cost === undefined ? {} : { cost: call.cost }),
  };
  const failed = (error: string) =>
    pass.journal.recordRead({ ...row, now: pass.deps.now(), error: boundedText(error, MAX_STORED_MESSAGE_CHARS) });
  if ("error" in outcome) {
    failed(outcome.error);
  } else {
    const encoded = encodeJournalValue(outcome.result, outcome.what);
    const refusal = encoded.ok
      ? bytesRefusal(pass, `${call.argsText}${encoded.value}`, `${outcome.what} and its arguments`)
      : encoded.error;
    if (!encoded.ok || refusal !== undefined) {
      failed(refusal ?? "");
      throw pass.failWith({ kind: "limit", error: refusal ?? "" });
    }
    pass.journal.recordRead({ ...row, now: pass.deps.now(), resultText: encoded.value });
  }
  pass.renewLeaseIfDue();
}

/** Counts `bytes` against the execution's journal budget; past it, the pass ends with kind `limit`. */
export function admitBytes(pass: PassContext, bytes: number, what: string): void {
  const admitted = pass.budget.admitJournalBytes(bytes, what);
  if (!admitted.ok) throw pass.failWith({ kind: "limit", error: admitted.error });
}

/** The journal budget's refusal of writing `text`, or `undefined` (then counted). */
function bytesRefusal(pass: PassContext, text: string, what: string): string | undefined {
  const admitted = pass.budget.admitJournalBytes(journalBytesOf(text), what);
  return admitted.ok ? undefined : admitted.error;
}

/** Reads a journaled value of call `seq`; a corrupt one ends the pass with kind `store`. */
export function readRecorded<T>(pass: PassContext, seq: number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const error_ = `The journal row of call #${seq} is corrupt (${messageOf(error)}); the run stopped without running anything for it.`;
    throw pass.failWith({ kind: "store", error: error_ });
  }
}

/** Rule 6: a store failure inside a call ends the pass with kind `store`; other errors pass through. */
function storeFailureOr(pass: PassContext, error: unknown): unknown {
  if (pass.journal.failure === undefined || error !== pass.journal.failure) return error;
  return pass.failWith({
    kind: "store",
    error: `The journal could not be written (${messageOf(error)}); the run stopped.`,
  });
}
