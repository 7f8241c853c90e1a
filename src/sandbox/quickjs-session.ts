/**
 * One run of one normalised program in a fresh QuickJS context, on whichever thread calls it (the
 * main thread for in-process isolation, a worker otherwise). Host calls are bridged with the sync
 * build: the sandbox gets a call id, the host settles it later and drains the job queue. The
 * interrupt handler enforces the deadline and the abort flag. The runtime is reused after runs
 * that ended cleanly (see `SandboxModule.runtime`) and replaced after anything else.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import type { CodeRunEnvironment, ExecutorFailureKind } from "./types.js";
import type { SandboxModule } from "./quickjs-module-pool.js";
import { SandboxGlobals } from "./sandbox-globals.js";

/** A binding namespace as the sandbox sees it: its global and member names (in call-index order). */
export interface SessionBinding {
  global: string;
  functions: string[];
}

/**
 * What the host answers to one call: the encoded result (codec JSON; `tagged` when the tree holds
 * any tag, so the sandbox can skip decoding plain JSON) or a message.
 */
export type HostReply = { ok: true; json: string; tagged: boolean } | { ok: false; message: string };

/** Calls binding `functions[fn]` of namespace `ns` with codec-JSON arguments. Must not throw. */
export type HostCaller = (ns: number, fn: number, argsJson: string) => Promise<HostReply>;

/** How the run is stopped from outside. */
export interface SessionControls {
  /** Absolute deadline (`Date.now()` ms). */
  deadline: number;
  /** Cheap check, called from the interrupt handler while the program runs. */
  isAborted(): boolean;
  /** Calls `wake` when an abort happens while the program waits for the host; returns an unsubscribe. */
  onAbort(wake: () => void): () => void;
  /** Called with each captured console line as it is written (a worker streams them to the host). */
  onLog?: (line: string) => void;
}

/** Budgets and inputs of one session. */
export interface SessionRequest {
  script: string;
  bindings: SessionBinding[];
  environment?: CodeRunEnvironment | undefined;
  timeoutMs: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
  maxLogChars: number;
}

/** The completion: codec JSON, a string rendering (value could not cross), or a failure. */
export type SessionResult =
  | { type: "value"; json: string }
  | { type: "rendered"; text: string }
  | { type: "error"; kind: ExecutorFailureKind; message: string };

/** Outcome of a session; `discardModule` asks the pool to replace the module. */
export interface SessionOutcome {
  result: SessionResult;
  logs: string[];
  discardModule: boolean;
}

const MIB = 1024 * 1024;
/** A kept runtime is replaced after this many runs, bounding what its atom table can accumulate. */
const MAX_RUNS_PER_RUNTIME = 500;
const LOG_MARKER_ALLOWANCE = 200;
/** Memory within this of the cap counts as exhausted when the run failed. */
const MEMORY_FULL_SLACK_BYTES = 4 * MIB;

function describeBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** Runs one program to completion, failure, deadline or abort. Never rejects. */
export async function runSession(sandbox: SandboxModule, request: SessionRequest, controls: SessionControls, callHost: HostCaller): Promise<SessionOutcome> {
  const logs: string[] = [];
  let logChars = 0;
  let report: { kind: ReportKind; text: string } | undefined;
  /** The program's promise settled (its value or reason is in `settledWith`). */
  let settled: "fulfilled" | "rejected" | undefined;
  let settledWith: QuickJSHandle | undefined;
  /** Set while the host encodes the result: the deadline still applies, leftover jobs do not run. */
  let finishing = false;
  let stop: "timeout" | "abort" | undefined;
  let crash: unknown;
  let inflight = 0;
  let nextId = 1;
  const replies: Array<[number, HostReply]> = [];
  let wake: (() => void) | undefined;
  const signalWake = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };

  const runtime = sandbox.runtime ?? sandbox.module.newRuntime();
  sandbox.runtime = undefined;
  sandbox.runtimeRuns++;
  runtime.setMaxStackSize(request.maxStackBytes);
  runtime.setInterruptHandler(() => {
    if (stop !== undefined) return true;
    // Once the program's promise settled, jobs it left behind are stopped, not run.
    if (settled !== undefined && !finishing) return true;
    if (controls.isAborted()) stop = "abort";
    else if (Date.now() > controls.deadline) stop = "timeout";
    return stop !== undefined;
  });
  const context = runtime.newContext();
  const unsubscribe = controls.onAbort(signalWake);
  const timer = setTimeout(signalWake, Math.max(0, controls.deadline - Date.now()) + 1);
  let globals: SandboxGlobals | undefined;

  try {
    const sandboxGlobals = new SandboxGlobals(context, {
      bindings: request.bindings,
      environment: request.environment,
      maxLogChars: request.maxLogChars,
      onLog: (text) => {
        if (logChars > request.maxLogChars + LOG_MARKER_ALLOWANCE) return;
        const room = request.maxLogChars + LOG_MARKER_ALLOWANCE - logChars;
        const line = text.length > room ? `${text.slice(0, room)}… [logs truncated]` : text;
        logChars += line.length;
        logs.push(line);
        controls.onLog?.(line);
      },
      onCall: (ns, fn, json) => {
        const id = nextId++;
        inflight++;
        const settle = (reply: HostReply): void => {
          replies.push([id, reply]);
          signalWake();
        };
        let pending: Promise<HostReply>;
        try {
          pending = callHost(ns, fn, json);
        } catch (error) {
          pending = Promise.resolve({ ok: false, message: error instanceof Error ? error.message : String(error) });
        }
        pending.then(settle, (error: unknown) => settle({ ok: false, message: error instanceof Error ? error.message : String(error) }));
        return id;
      },
    });
    globals = sandboxGlobals;
    const onSettled = (state: "fulfilled" | "rejected") =>
      sandboxGlobals.own(
        context.newFunction(state, (value) => {
          if (settled !== undefined) return;
          settled = state;
          settledWith = sandboxGlobals.own((value ?? context.undefined).dup());
        }),
      );

    const evaluated = context.evalCode(request.script, "program.js");
    if (evaluated.error) {
      settled = "rejected";
      settledWith = sandboxGlobals.own(evaluated.error);
    } else {
      const value = sandboxGlobals.own(evaluated.value);
      const promise = sandboxGlobals.own(context.unwrapResult(context.callFunction(sandboxGlobals.promiseResolve, sandboxGlobals.promiseConstructor, value)));
      context.callFunction(sandboxGlobals.promiseThen, promise, onSettled("fulfilled"), onSettled("rejected")).dispose();
    }

    for (;;) {
      while (replies.length > 0 && settled === undefined && stop === undefined) {
        const [id, reply] = replies.shift() as [number, HostReply];
        inflight--;
        sandboxGlobals.settle(id, reply);
        drainJobs(runtime);
      }
      drainJobs(runtime);
      if (settled !== undefined || stop !== undefined) break;
      if (replies.length > 0) continue;
      if (inflight === 0) break;
      if (controls.isAborted()) stop = "abort";
      else if (Date.now() > controls.deadline) stop = "timeout";
      if (stop !== undefined) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }

    if (stop === undefined && settled !== undefined && settledWith !== undefined) {
      finishing = true;
      report = finish(sandboxGlobals, settled, settledWith);
    }
  } catch (error) {
    // Set-up interrupted by the deadline or an abort is not a crash.
    if (stop === undefined) crash = error;
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }

  let discardModule = crash !== undefined;
  if (!discardModule) {
    try {
      globals?.dispose();
      context.dispose();
      // Keep the runtime only after a clean end: no stop, nothing left in the shared job queue.
      const clean = stop === undefined && report !== undefined && inflight === 0 && !runtime.hasPendingJob();
      if (clean && sandbox.runtimeRuns < MAX_RUNS_PER_RUNTIME) {
        sandbox.runtime = runtime;
      } else {
        sandbox.runtimeRuns = 0;
        runtime.dispose();
      }
    } catch {
      // A dispose assertion (quickjs-emscripten #269/#235): the result stands, the module is replaced.
      discardModule = true;
    }
  }
  // A failure with the memory at its cap is memory exhaustion even when QuickJS could not allocate
  // the error itself (then it throws null). A failed large allocation may leave a few MiB unused.
  const memoryBytes = sandbox.memory.buffer.byteLength;
  const memoryFull = memoryBytes >= sandbox.maxBytes - MEMORY_FULL_SLACK_BYTES;
  const outOfMemory =
    (report?.kind === "error" && report.text.startsWith("InternalError: out of memory")) || ((report === undefined || report.kind === "error") && memoryFull);
  return { result: describeResult(), logs, discardModule: discardModule || outOfMemory || memoryBytes >= sandbox.maxBytes * 0.75 };

  function describeResult(): SessionResult {
    if (crash !== undefined) {
      const reason = crash instanceof Error ? `${crash.name}: ${crash.message}` : String(crash);
      const hint = /stack|recursion/i.test(reason) ? " (deep recursion overflowed the host stack; recurse less deeply)" : "";
      return { type: "error", kind: "worker-exit", message: `The sandbox crashed and was replaced: ${reason}${hint}` };
    }
    if (stop === "timeout") return { type: "error", kind: "timeout", message: `The program exceeded its time budget of ${request.timeoutMs} ms (timeoutMs) and was stopped.` };
    if (stop === "abort") return { type: "error", kind: "abort", message: "The run was aborted." };
    if (outOfMemory) {
      return {
        type: "error",
        kind: "worker-exit",
        message: `The program ran out of memory: its budget is ${describeBytes(request.memoryLimitBytes)} (memoryLimitBytes). The sandbox was replaced; use less memory (stream or page through data).`,
      };
    }
    if (report?.kind === "value") return { type: "value", json: report.text };
    if (report?.kind === "rendered") return { type: "rendered", text: report.text };
    if (report !== undefined) return { type: "error", kind: "exception", message: report.text };
    return {
      type: "error",
      kind: "exception",
      message: "The program is waiting for a promise that can never settle (no host call is in flight and no job is queued).",
    };
  }
}

type ReportKind = "value" | "rendered" | "error";

/** Turns the settled program into codec JSON, a rendering (value could not cross) or an error message. */
function finish(globals: SandboxGlobals, state: "fulfilled" | "rejected", value: QuickJSHandle): { kind: ReportKind; text: string } {
  if (state === "rejected") return { kind: "error", text: globals.renderError(value) };
  const encoded = globals.toJson(value, "result");
  if ("json" in encoded) return { kind: "value", text: encoded.json };
  const text = globals.renderFallback(value, encoded.error);
  encoded.error.dispose();
  return { kind: "rendered", text };
}

function drainJobs(runtime: QuickJSRuntime): void {
  const result = runtime.executePendingJobs(-1);
  if (result.error) result.error.dispose();
}
