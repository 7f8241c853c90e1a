/**
 * Messages between the main thread and a QuickJS worker, with a validator for what the main
 * thread receives (a worker runs untrusted programs; its messages are checked, not trusted).
 *
 * main → worker: `run` (one job), `replies` (host calls' answers settled in one turn), `abort` (wake a
 * waiting job; a spinning one is stopped by the shared abort flag).
 * worker → main: `ready`, `calls` (the binding calls the program made in one synchronous stretch,
 * in call order), `log` (one captured console line), `done` (the session's outcome).
 *
 * Calls travel in batches so the main thread starts all calls issued together (`Promise.all`) in
 * one turn, as it does in-process: a call that pauses the run cannot be answered before its
 * siblings were seen, which keeps every approval of a batch pending at once.
 */
import type { CodeRunEnvironment, ExecutorFailureKind } from "./types.js";
import type { HostReply, SessionBinding, SessionResult } from "./session-types.js";

/** Data every worker gets at start. */
export interface WorkerStartData {
  /** Int32Array view over a SharedArrayBuffer: index 0 is the abort flag of the current job. */
  abortFlag: Int32Array;
  wasmModule: WebAssembly.Module;
  /** The memory budget of the module prepared at start (each run brings its own). */
  memoryLimitBytes: number;
}

/** main → worker. */
export type MainToWorker =
  | {
      type: "run";
      jobId: number;
      script: string;
      bindings: SessionBinding[];
      environment?: CodeRunEnvironment | undefined;
      lazyGlobals?: Readonly<Record<string, string>> | undefined;
      modules?: Readonly<Record<string, string>> | undefined;
      /** Time left of the run's budget when the main thread posted it (clocks are per thread). */
      budgetMs: number;
      timeoutMs: number;
      memoryLimitBytes: number;
      maxStackBytes: number;
      maxLogChars: number;
      maxValueChars: number;
      maxCallsInFlight: number;
    }
  | { type: "replies"; replies: Array<{ callId: number; reply: HostReply }> }
  | { type: "abort"; jobId: number };

/** One binding call inside a `calls` batch. */
export interface WorkerCall {
  callId: number;
  ns: number;
  fn: number;
  json: string;
  /** False when `json` is plain JSON of the arguments (no codec tags to decode). */
  tagged: boolean;
  /** Set (the encoded size) when the arguments were over the bound and `json` is empty. */
  oversize?: number | undefined;
}

/** worker → main. */
export type WorkerToMain =
  | { type: "ready" }
  | { type: "calls"; jobId: number; calls: WorkerCall[] }
  | { type: "log"; jobId: number; line: string }
  | { type: "done"; jobId: number; result: SessionResult; modules: string[] };

const KINDS: ReadonlySet<ExecutorFailureKind> = new Set(["exception", "timeout", "abort", "worker-exit"]);

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isSessionResult(value: unknown): value is SessionResult {
  if (value === null || typeof value !== "object") return false;
  const result = value as Record<string, unknown>;
  switch (result.type) {
    case "value":
      return typeof result.json === "string" && typeof result.tagged === "boolean";
    case "rendered":
      return typeof result.text === "string";
    case "error":
      return KINDS.has(result.kind as ExecutorFailureKind) && typeof result.message === "string";
    default:
      return false;
  }
}

function isWorkerCall(value: unknown): value is WorkerCall {
  if (value === null || typeof value !== "object") return false;
  const call = value as Record<string, unknown>;
  return (
    isCount(call.callId) &&
    isCount(call.ns) &&
    isCount(call.fn) &&
    typeof call.json === "string" &&
    typeof call.tagged === "boolean" &&
    (call.oversize === undefined || isCount(call.oversize))
  );
}

/** True when `message` is a well-formed worker → main message. */
export function isWorkerToMain(message: unknown): message is WorkerToMain {
  if (message === null || typeof message !== "object") return false;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case "ready":
      return true;
    case "calls":
      return isCount(m.jobId) && Array.isArray(m.calls) && m.calls.length > 0 && m.calls.every(isWorkerCall);
    case "log":
      return isCount(m.jobId) && typeof m.line === "string";
    case "done":
      return (
        isCount(m.jobId) &&
        isSessionResult(m.result) &&
        Array.isArray(m.modules) &&
        m.modules.every((name) => typeof name === "string")
      );
    default:
      return false;
  }
}
