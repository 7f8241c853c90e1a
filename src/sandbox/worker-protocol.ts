/**
 * Messages between the main thread and a QuickJS worker, with a validator for what the main
 * thread receives (a worker runs untrusted programs; its messages are checked, not trusted).
 *
 * main → worker: `run` (one job), replies (host calls' answers settled in one turn), `abort` (wake a
 * waiting job; a spinning one is stopped by the shared abort flag).
 * worker → main: `ready`, calls (the binding calls the program made in one synchronous stretch,
 * in call order), `log` (one captured console line), `done` (the session's outcome).
 *
 * Calls and replies cross on every awaited host call, so they travel as flat arrays of primitives
 * rather than object graphs: structured clone then copies no property names and builds no objects
 * on the receiving side (see `encodeCalls`, `encodeReplies`).
 *
 * Calls travel in batches so the main thread starts all calls issued together (`Promise.all`) in
 * one turn, as it does in-process: a call that pauses the run cannot be answered before its
 * siblings were seen, which keeps every approval of a batch pending at once.
 */
import type { CodeRunEnvironment, ExecutorFailureKind } from "./types.js";
import type { HostReply, SessionBinding, SessionResult } from "./session-types.js";

/**
 * Data every worker gets at start. The compiled QuickJS wasm is not part of it: it comes in the first message
 * (`module`), so the thread starts booting before the main thread compiles it.
 */
export interface WorkerStartData {
  /** Int32Array view over a SharedArrayBuffer: index 0 is the abort flag of the current job. */
  abortFlag: Int32Array;
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
      withheldModules?: readonly string[] | undefined;
      /** Time left of the run's budget when the main thread posted it (clocks are per thread). */
      budgetMs: number;
      timeoutMs: number;
      memoryLimitBytes: number;
      maxStackBytes: number;
      maxLogChars: number;
      maxValueChars: number;
      maxCallsInFlight: number;
    }
  | ReplyBatch
  | { type: "abort"; jobId: number }
  /** The compiled QuickJS wasm: the first message, before any run. */
  | { type: "module"; wasmModule: WebAssembly.Module };

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
  | CallBatch
  | { type: "log"; jobId: number; line: string }
  | { type: "done"; jobId: number; result: SessionResult; modules: string[] };

/**
 * The calls of one job made in one synchronous stretch: `[jobId, ...calls]`, each call five slots
 * `callId, ns, fn, json, form` (see {@link CallForm}).
 */
export type CallBatch = readonly [jobId: number, ...slots: Array<number | string>];

/** The answers of host calls settled in one turn: three slots per reply, `callId, form, text` (see {@link ReplyForm}). */
export type ReplyBatch = ReadonlyArray<number | string>;

/** How a call's `json` slot reads: a count of at least zero means oversize (that size; the text is empty). */
const CALL_PLAIN = -1;
const CALL_TAGGED = -2;
const CALL_SLOTS = 5;
/** Reply forms: a message (the call failed), plain JSON, codec JSON with tags. */
const REPLY_MESSAGE = 0;
const REPLY_PLAIN = 1;
const REPLY_TAGGED = 2;
const REPLY_SLOTS = 3;

/** Flattens the calls of one stretch (worker side). */
export function encodeCalls(jobId: number, calls: readonly WorkerCall[]): CallBatch {
  const batch: [number, ...Array<number | string>] = [jobId];
  for (const { callId, ns, fn, json, tagged, oversize } of calls)
    batch.push(callId, ns, fn, json, oversize ?? (tagged ? CALL_TAGGED : CALL_PLAIN));
  return batch;
}

/** Reads a calls batch (main side); undefined when any slot is malformed (the worker is not trusted). */
export function decodeCalls(batch: readonly unknown[]): { jobId: number; calls: WorkerCall[] } | undefined {
  const [jobId] = batch;
  const count = (batch.length - 1) / CALL_SLOTS;
  if (!isCount(jobId) || !Number.isInteger(count) || count === 0) return undefined;
  const calls: WorkerCall[] = [];
  for (let at = 1; at < batch.length; at += CALL_SLOTS) {
    const callId = batch[at];
    const ns = batch[at + 1];
    const fn = batch[at + 2];
    const json = batch[at + 3];
    const form = batch[at + 4];
    if (!isCount(callId) || !isCount(ns) || !isCount(fn) || typeof json !== "string") return undefined;
    if (form === CALL_PLAIN || form === CALL_TAGGED) calls.push({ callId, ns, fn, json, tagged: form === CALL_TAGGED });
    else if (isCount(form) && json === "") calls.push({ callId, ns, fn, json, tagged: false, oversize: form });
    else return undefined;
  }
  return { jobId, calls };
}

/** Flattens host replies (main side). */
export function encodeReplies(replies: ReadonlyArray<{ callId: number; reply: HostReply }>): ReplyBatch {
  const batch: Array<number | string> = [];
  for (const { callId, reply } of replies) {
    if (reply.ok) batch.push(callId, reply.tagged ? REPLY_TAGGED : REPLY_PLAIN, reply.json);
    else batch.push(callId, REPLY_MESSAGE, reply.message);
  }
  return batch;
}

/** True for a batch of replies (every other main → worker message is an object with a `type`). */
export function isReplyBatch(message: MainToWorker): message is ReplyBatch {
  return Array.isArray(message);
}

/** Calls `each` with every reply of a batch (worker side; the main thread is trusted). */
export function forEachReply(batch: ReplyBatch, each: (callId: number, reply: HostReply) => void): void {
  for (let at = 0; at + REPLY_SLOTS <= batch.length; at += REPLY_SLOTS) {
    const callId = batch[at] as number;
    const form = batch[at + 1] as number;
    const text = batch[at + 2] as string;
    each(
      callId,
      form === REPLY_MESSAGE ? { ok: false, message: text } : { ok: true, json: text, tagged: form === REPLY_TAGGED },
    );
  }
}

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

/** True when `message` is a well-formed worker → main message other than a calls batch (see `decodeCalls`). */
export function isWorkerToMain(message: unknown): message is Exclude<WorkerToMain, CallBatch> {
  if (message === null || typeof message !== "object") return false;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case "ready":
      return true;
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
