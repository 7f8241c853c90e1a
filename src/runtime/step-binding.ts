/**
 * `codemode.step(name, fn)`: `fn` runs inside the sandbox once; its result is
 * journaled and returned as recorded on later passes. The sandbox half is a
 * prelude placed before the program (host functions cannot receive sandbox
 * functions); the host half below journals the step like a connector call
 * under connector `codemode`.
 */
import { readRecorded, storeFailureOr } from "./connector-call.js";
import { canonicalArguments, canonicalJournaledArguments, decodeJournalValue, encodeJournalValue } from "./journal-values.js";
import type { PassContext } from "./pass-context.js";
import { divergenceFailure } from "./pass-signals.js";
import { applyCallStatement, failCallStatement, insertCallStatement } from "./store/call-statements.js";

/** Connector name under which steps are journaled. */
export const STEP_CONNECTOR = "codemode";

/** What `stepBegin` tells the sandbox. */
export type StepBegin =
  | { replayed: true; failed: false; value: unknown }
  | { replayed: true; failed: true; error: string }
  | { replayed: false; seq: number };

async function begin(pass: PassContext, seq: number, name: string): Promise<StepBegin> {
  const argsText = encodeJournalValue(undefined, "step arguments");
  if (!argsText.ok) throw new Error(argsText.error);
  const row = pass.recorded.get(seq);
  if (row !== undefined) {
    const recordedArgs = readRecorded(pass, seq, () => canonicalJournaledArguments(row.argsText));
    if (row.connector !== STEP_CONNECTOR || row.method !== name || recordedArgs !== canonicalArguments(undefined)) {
      throw pass.failWith(divergenceFailure(seq, row, { connector: STEP_CONNECTOR, method: name, argsText: argsText.text }));
    }
    if (row.status === "applied") {
      pass.replayed.push(seq);
      const text = row.resultText;
      return { replayed: true, failed: false, value: text === undefined ? undefined : readRecorded(pass, seq, () => decodeJournalValue(text)) };
    }
    if (row.status === "error") {
      pass.replayed.push(seq);
      return { replayed: true, failed: true, error: row.error ?? `step "${name}" failed` };
    }
    throw pass.failWith({
      kind: "interrupted",
      error: `Step "${name}" (call #${seq}) was interrupted in an earlier pass before its result was recorded; it is not run again. Start a new execution.`,
    });
  }
  const inserted = await pass.writer.commit(insertCallStatement(pass.lease, {
    seq, connector: STEP_CONNECTOR, method: name, argsText: argsText.text, status: "executing", replay: "record",
    requiresApproval: false, now: pass.deps.now(),
  }));
  if (inserted.rowsAffected !== 1) {
    throw pass.failWith({ kind: "conflict", error: "This execution was taken over by another invocation (its lease expired); the pass stopped." });
  }
  return { replayed: false, seq };
}

function guard(pass: PassContext): Promise<never> | undefined {
  if (pass.fatal !== undefined) return Promise.reject(new Error(pass.fatal.error));
  if (pass.pauseMessage !== undefined) return Promise.reject(new Error(pass.pauseMessage));
  return undefined;
}

/** Host functions behind the prelude's `codemode.step`. */
export function stepHostFunctions(pass: PassContext): Record<string, (args: unknown) => Promise<unknown>> {
  const failed = new Set<number>();
  // Steps begun (not replayed) in this pass and not yet ended: stepEnd/stepFail accept only these,
  // so a program calling the host namespace directly cannot write another call's journal row.
  const running = new Set<number>();
  const notRunning = (seq: unknown): Promise<never> =>
    Promise.reject(new Error(`codemode.step: no step #${String(seq)} is running in this pass; use codemode.step(name, fn)`));
  return {
    stepBegin: (name) => {
      const seq = pass.takeSeq();
      const blocked = guard(pass);
      if (blocked !== undefined) return blocked;
      if (typeof name !== "string" || name === "") return Promise.reject(new TypeError("codemode.step(name, fn): name must be a non-empty string"));
      return pass.track(begin(pass, seq, name).then((begun) => {
        if (!begun.replayed) running.add(seq);
        return begun;
      }, (error: unknown) => {
        throw storeFailureOr(pass, error);
      }));
    },
    stepEnd: (args) => {
      const { seq, value } = args as { seq: number; value: unknown };
      if (!running.has(seq) || failed.has(seq)) return notRunning(seq);
      const encoded = encodeJournalValue(value, `the result of step #${seq}`);
      if (!encoded.ok) {
        failed.add(seq);
        pass.writer.defer(failCallStatement(pass.lease, seq, encoded.error, pass.deps.now()));
        return Promise.reject(pass.failWith({ kind: "limit", error: encoded.error }));
      }
      running.delete(seq);
      pass.writer.defer(applyCallStatement(pass.lease, seq, encoded.text, pass.deps.now()));
      pass.renewLeaseIfDue();
      return Promise.resolve(undefined);
    },
    stepFail: (args) => {
      const { seq, error, unserializable } = args as { seq: number; error: string; unserializable?: boolean };
      if (!running.has(seq)) return notRunning(seq);
      running.delete(seq);
      if (!failed.has(seq)) pass.writer.defer(failCallStatement(pass.lease, seq, String(error), pass.deps.now()));
      failed.add(seq);
      if (unserializable === true) {
        return Promise.reject(pass.failWith({
          kind: "limit",
          error: `The result of step #${seq} cannot be journaled: ${String(error)}. Return only JSON values, undefined, Date, Uint8Array, ArrayBuffer, Map, Set or BigInt from a step; store anything else outside the run and pass a reference.`,
        }));
      }
      return Promise.resolve(undefined);
    },
  };
}

/** Global name of the host namespace the prelude wraps. */
export const HOST_NAMESPACE = "__codemode_host";

/**
 * The sandbox half, as one line of statements placed before the program (so
 * the program's own line numbers are unchanged): defines the frozen `codemode`
 * global (`search`, `describe`, `run`, `step`) over the host namespace.
 * `run` evaluates a snippet's source (from the host) as an async function of
 * `input` in this same run.
 */
export function codemodePrelude(): string {
  const lines = [
    "(function () {",
    `var host = globalThis.${HOST_NAMESPACE};`,
    "var api = Object.create(null);",
    "api.search = function (query) { return host.search(query); };",
    "api.describe = function (target) { return host.describe(target); };",
    "api.run = async function (name, input) { var got = await host.snippet(name); if (got.error !== undefined) return { error: got.error }; return await (0, eval)(got.source)(input); };",
    "var messageOf = function (error) { return String(error && error.message !== undefined ? error.message : error); };",
    "api.step = async function (name, fn) {",
    "if (typeof fn !== 'function') throw new TypeError('codemode.step(name, fn): fn must be a function');",
    "var begun = await host.stepBegin(name);",
    "if (begun.replayed) { if (begun.failed) throw new Error(begun.error); return begun.value; }",
    "var value;",
    "try { value = await fn(); } catch (error) { await host.stepFail({ seq: begun.seq, error: messageOf(error) }); throw error; }",
    "try { await host.stepEnd({ seq: begun.seq, value: value }); }",
    "catch (error) { await host.stepFail({ seq: begun.seq, error: messageOf(error), unserializable: true }); throw error; }",
    "return value;",
    "};",
    "Object.defineProperty(globalThis, 'codemode', { value: Object.freeze(api), enumerable: false, writable: false, configurable: false });",
    "})();",
  ];
  return lines.join(" ");
}
