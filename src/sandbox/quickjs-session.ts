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
import { PRELUDE_CHUNKS, PRELUDE_CORE } from "./sandbox-prelude.js";

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
  let report: { kind: number; text: string } | undefined;
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
    if (report !== undefined || stop !== undefined) return true;
    if (controls.isAborted()) stop = "abort";
    else if (Date.now() > controls.deadline) stop = "timeout";
    return stop !== undefined;
  });
  const context = runtime.newContext();
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle): QuickJSHandle => {
    handles.push(handle);
    return handle;
  };
  const unsubscribe = controls.onAbort(signalWake);
  const timer = setTimeout(signalWake, Math.max(0, controls.deadline - Date.now()) + 1);

  try {
    const hostCall = keep(
      context.newFunction("hostCall", (nsHandle, fnHandle, jsonHandle) => {
        const id = nextId++;
        const ns = context.getNumber(nsHandle);
        const fn = context.getNumber(fnHandle);
        const json = context.getString(jsonHandle);
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
        return context.newNumber(id);
      }),
    );
    const hostLog = keep(
      context.newFunction("hostLog", (textHandle) => {
        const text = context.getString(textHandle);
        if (logChars > request.maxLogChars + LOG_MARKER_ALLOWANCE) return;
        const room = request.maxLogChars + LOG_MARKER_ALLOWANCE - logChars;
        const line = text.length > room ? `${text.slice(0, room)}… [logs truncated]` : text;
        logChars += line.length;
        logs.push(line);
        controls.onLog?.(line);
      }),
    );
    const hostReport = keep(
      context.newFunction("hostReport", (kindHandle, textHandle) => {
        if (report === undefined) report = { kind: context.getNumber(kindHandle), text: context.getString(textHandle) };
      }),
    );
    const config = {
      maxLogChars: request.maxLogChars,
      bindings: request.bindings.map((binding) => [binding.global, binding.functions, binding.functions.map((name) => argumentsLabel(binding.global, name))]),
      ...(request.environment ? { epochMs: request.environment.epochMs, randomSeed: request.environment.randomSeed } : {}),
    };
    const configHandle = keep(unwrap(context, context.evalCode(`(${JSON.stringify(config)})`, "config.js")));
    const hostChunk = keep(
      context.newFunction("hostChunk", (nameHandle) => {
        const source = PRELUDE_CHUNKS[context.getString(nameHandle)];
        if (source === undefined) throw new Error("unknown prelude chunk");
        return context.newString(source);
      }),
    );
    const preludeFn = keep(unwrap(context, context.evalCode(PRELUDE_CORE, "prelude.js")));
    const api = keep(unwrap(context, context.callFunction(preludeFn, context.undefined, configHandle, hostCall, hostLog, hostReport, hostChunk)));
    const settleFn = keep(context.getProp(api, "settle"));
    const completeFn = keep(context.getProp(api, "complete"));
    const failFn = keep(context.getProp(api, "fail"));

    const evaluated = context.evalCode(request.script, "program.js");
    if (evaluated.error) {
      const error = keep(evaluated.error);
      if (stop === undefined) context.callFunction(failFn, context.undefined, error).dispose();
    } else {
      const value = keep(evaluated.value);
      context.callFunction(completeFn, context.undefined, value).dispose();
    }

    for (;;) {
      while (replies.length > 0 && report === undefined && stop === undefined) {
        const [id, reply] = replies.shift() as [number, HostReply];
        inflight--;
        const idHandle = context.newNumber(id);
        // 0: rejection message, 1: plain JSON, 2: tagged tree.
        const kindHandle = context.newNumber(reply.ok ? (reply.tagged ? 2 : 1) : 0);
        const textHandle = context.newString(reply.ok ? reply.json : reply.message);
        context.callFunction(settleFn, context.undefined, idHandle, kindHandle, textHandle).dispose();
        idHandle.dispose();
        kindHandle.dispose();
        textHandle.dispose();
        drainJobs(runtime);
      }
      drainJobs(runtime);
      if (report !== undefined || stop !== undefined) break;
      if (replies.length > 0) continue;
      if (inflight === 0) break;
      if (controls.isAborted()) stop = "abort";
      else if (Date.now() > controls.deadline) stop = "timeout";
      if (stop !== undefined) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
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
      for (const handle of handles) if (handle.alive) handle.dispose();
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
    (report?.kind === 2 && report.text.startsWith("InternalError: out of memory")) || ((report === undefined || report.kind === 2) && memoryFull);
  return { result: describeResult(), logs, discardModule: discardModule || outOfMemory || memoryBytes >= sandbox.maxBytes * 0.75 };

  function describeResult(): SessionResult {
    if (crash !== undefined) {
      const reason = crash instanceof Error ? `${crash.name}: ${crash.message}` : String(crash);
      const hint = /stack|recursion/i.test(reason) ? " (deep recursion overflowed the host stack; recurse less deeply)" : "";
      return { type: "error", kind: "worker-exit", message: `The sandbox crashed and was replaced: ${reason}${hint}` };
    }
    if (stop === "timeout") return { type: "error", kind: "timeout", message: `The program exceeded its time budget of ${request.timeoutMs} ms (timeoutMs) and was stopped.` };
    if (stop === "abort") return { type: "error", kind: "abort", message: "The run was aborted." };
    if (report?.kind === 0) return { type: "value", json: report.text };
    if (report?.kind === 1) return { type: "rendered", text: report.text };
    if (outOfMemory && stop === undefined) {
      return {
        type: "error",
        kind: "worker-exit",
        message: `The program ran out of memory: its budget is ${describeBytes(request.memoryLimitBytes)} (memoryLimitBytes). The sandbox was replaced; use less memory (stream or page through data).`,
      };
    }
    if (report !== undefined) return { type: "error", kind: "exception", message: report.text };
    return {
      type: "error",
      kind: "exception",
      message: "The program is waiting for a promise that can never settle (no host call is in flight and no job is queued).",
    };
  }
}

/** How errors name a binding's arguments: `github.list_prs arguments`, `api["list-prs"] arguments`. */
function argumentsLabel(global: string, name: string): string {
  return `${/^[A-Za-z_$][\w$]*$/.test(name) ? `${global}.${name}` : `${global}[${JSON.stringify(name)}]`} arguments`;
}

function unwrap(context: QuickJSContext, result: ReturnType<QuickJSContext["evalCode"]>): QuickJSHandle {
  if (result.error) {
    const detail: unknown = context.dump(result.error);
    result.error.dispose();
    throw new Error(`sandbox set-up failed: ${JSON.stringify(detail)}`);
  }
  return result.value;
}

function drainJobs(runtime: QuickJSRuntime): void {
  const result = runtime.executePendingJobs(-1);
  if (result.error) result.error.dispose();
}
