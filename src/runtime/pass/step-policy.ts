/**
 * The `codemode.step(name, fn)` policy on a journaled call (`journaled-call.ts`): `fn` runs inside the sandbox
 * once; its result is journaled under connector `codemode` and returned as recorded on later passes. The host
 * half has three functions the sandbox half (`src/sandbox/guest/codemode-global.js`) calls: `stepBegin` (replay,
 * or queue an `executing` row for the pass's next write), `stepEnd` (record the value) and `stepFail` (record the
 * failure).
 *
 * A step that a pause interrupted is never recorded as finished: when a call pauses while the step is open
 * (its own call, or one issued alongside it), the step's value may stand for work that did not happen (a
 * `try/catch` around the paused call returning "later"). Its row is removed instead, and the resumed pass runs
 * the step again — its journaled calls replay from the journal and the approved call runs.
 */
import { MAX_STEP_NAME_CHARS, quoted } from "../../shared/bounded-text.js";
// The journaled-call unit: every rule a journaled call shares; this file is a policy on it.
import * as journaled from "./journaled-call.js";
import type { PassContext } from "./pass-context.js";

/** Connector name under which steps are journaled. */
export const STEP_CONNECTOR = "codemode";

/** What `stepBegin` tells the sandbox. */
type StepBegin =
  | { replayed: true; failed: false; value: unknown }
  | { replayed: true; failed: true; error: string }
  | { replayed: false; seq: number };

async function begin(pass: PassContext, seq: number, name: string): Promise<StepBegin> {
  const call: journaled.CallIdentity = { connector: STEP_CONNECTOR, method: name, args: undefined, argsText: "" };
  call.argsText = journaled.journalArguments(pass, undefined, "step arguments");
  const row = journaled.recordedCall(pass, seq, call);
  if (row === undefined) {
    const admitted = pass.budget.admitStep(name, seq);
    if (!admitted.ok) throw pass.failWith({ kind: "limit", error: admitted.error });
    // No write of its own: the step's row rides with the pass's next write, which any effect inside it makes first.
    journaled.queueStep(pass, seq, call);
    return { replayed: false, seq };
  }
  if (row.status === "applied") return { replayed: true, failed: false, value: journaled.replayedResult(pass, row) };
  if (row.status === "error")
    return { replayed: true, failed: true, error: journaled.replayedFailure(pass, row, `step "${name}" failed`) };
  throw pass.failWith({
    kind: "interrupted",
    error:
      `Step "${name}" (call #${seq}) was interrupted in an earlier pass before its result was recorded; ` +
      "it is not run again. Start a new execution.",
  });
}

/** Host functions behind the prelude's `codemode.step`. */
export function stepHostFunctions(pass: PassContext): Record<string, (args: unknown) => Promise<unknown>> {
  // Steps begun (not replayed) in this pass and not yet ended: stepEnd/stepFail accept only these,
  // so a program calling the host namespace directly cannot write another call's journal row.
  const running = new Set<number>();
  // Steps whose failure is already recorded (a result too large for the journal).
  const failed = new Set<number>();
  // Pauses already delivered when each running step began: more at its end means a pause interrupted it.
  const pausesAtBegin = new Map<number, number>();
  const interrupted = (seq: number): boolean => pass.pending.length > (pausesAtBegin.get(seq) ?? 0);
  const close = (seq: number): void => {
    running.delete(seq);
    pass.openSteps.delete(seq);
    pass.executing.delete(seq);
    pausesAtBegin.delete(seq);
  };
  const notRunning = (seq: unknown): Promise<never> =>
    Promise.reject(
      new Error(`codemode.step: no step #${quoted(seq)} is running in this pass; use codemode.step(name, fn)`),
    );
  return {
    stepBegin: (name) => {
      if (typeof name !== "string" || name === "" || name.length > MAX_STEP_NAME_CHARS) {
        pass.takeSeq();
        const got =
          typeof name === "string" && name !== "" ? ` (got ${name.length.toLocaleString("en-US")} characters)` : "";
        return Promise.reject(
          new TypeError(
            `codemode.step(name, fn): name must be a non-empty string of at most ${MAX_STEP_NAME_CHARS} characters${got}`,
          ),
        );
      }
      return journaled.journaledCall(
        pass,
        { connector: STEP_CONNECTOR, method: name, step: true },
        undefined,
        async (seq) => {
          const pausesBefore = pass.pending.length;
          const begun = await begin(pass, seq, name);
          if (!begun.replayed) {
            running.add(seq);
            pass.openSteps.add(seq);
            pausesAtBegin.set(seq, pausesBefore);
          }
          return begun;
        },
      );
    },
    stepEnd: (args) => {
      const { seq, value } = args as { seq: number; value: unknown };
      if (!running.has(seq) || failed.has(seq)) return notRunning(seq);
      if (interrupted(seq)) {
        close(seq);
        pass.trace?.stepEnded(seq, { interrupted: true });
        pass.journal.dropStep({ seq });
        return Promise.resolve(undefined);
      }
      try {
        journaled.recordSuccess(pass, seq, value, `the result of step #${seq}`);
      } catch (error) {
        failed.add(seq);
        pass.trace?.stepEnded(seq, { error });
        return Promise.reject(error);
      }
      close(seq);
      pass.trace?.stepEnded(seq, { value });
      return Promise.resolve(undefined);
    },
    stepFail: (args) => {
      const { seq, error, unserializable } = args as { seq: number; error: string; unserializable?: boolean };
      if (!running.has(seq)) return notRunning(seq);
      const paused = interrupted(seq);
      close(seq);
      pass.trace?.stepEnded(seq, paused ? { interrupted: true } : { error: String(error) });
      if (paused && !failed.has(seq)) {
        pass.journal.dropStep({ seq });
        return Promise.resolve(undefined);
      }
      if (!failed.has(seq)) journaled.recordFailure(pass, seq, String(error));
      failed.add(seq);
      if (unserializable !== true) return Promise.resolve(undefined);
      return Promise.reject(
        pass.failWith({
          kind: "limit",
          error:
            `The result of step #${seq} cannot be journaled: ${String(error)}. Return only JSON values, undefined, Date, ` +
            "Uint8Array, ArrayBuffer, Map, Set or BigInt from a step; store anything else outside the run and pass a reference.",
        }),
      );
    },
  };
}
