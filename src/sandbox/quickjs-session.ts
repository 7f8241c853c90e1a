/**
 * One run of one normalised program in a fresh QuickJS context, on whichever thread calls it (the
 * main thread for in-process isolation, a worker otherwise). Host calls are bridged with the sync
 * build: the sandbox gets a call id, the host settles it later and drains the job queue. The
 * interrupt handler enforces the deadline and the abort flag. The runtime is reused after runs
 * that ended cleanly (see `SandboxModule.runtime`) and replaced after anything else. The deadline is
 * a state, not a wake-up: `whenPast` sets the stop when the monotonic clock passes it, whatever the pump
 * is doing, and the pump checks that state before every wait.
 */
import { monotonicNow, whenPast, type MonotonicClock } from "./deadline.js";
import { callsInFlightMessage } from "./calls-in-flight-message.js";
import { timeoutMessage } from "./timeout-message.js";
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { useFreshScratchViews } from "./quickjs-fresh-views.js";
import type { SandboxModule } from "./quickjs-module-pool.js";
import { tooLongMessage } from "./boundary-messages.js";
import { SandboxGlobals } from "./sandbox-globals.js";
import { installModuleLoader } from "./sandbox-modules.js";
import { messageOf } from "../shared/message-of.js";
import type {
  HostCaller,
  HostReply,
  SessionControls,
  SessionOutcome,
  SessionRequest,
  SessionResult,
} from "./session-types.js";

const MIB = 1024 * 1024;
/** A kept runtime is replaced after this many runs, bounding what its atom table can accumulate. */
const MAX_RUNS_PER_RUNTIME = 500;
const LOG_MARKER_ALLOWANCE = 200;
/** Encoded arguments of calls still in flight, in multiples of `maxValueChars` (bounds what the host holds for one run). */
const MAX_INFLIGHT_VALUES = 4;
/**
 * The program's result may be larger than `maxValueChars` (a final result too large for the
 * journal is returned to the caller and journaled as a placeholder), up to this multiple of it.
 */
const MAX_RESULT_VALUES = 4;
/** Memory within this of the cap counts as exhausted when the run failed. */
const MEMORY_FULL_SLACK_BYTES = 4 * MIB;

function describeBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** Runs one program to completion, failure, deadline or abort. Never rejects. */
export function runSession(
  sandbox: SandboxModule,
  request: SessionRequest,
  controls: SessionControls,
  callHost: HostCaller,
): Promise<SessionOutcome> {
  return new QuickJSSession(sandbox, request, controls, callHost).run();
}

type ReportKind = "value" | "rendered" | "error";

/** The state of one run. Use {@link runSession}. */
class QuickJSSession {
  private readonly logs: string[] = [];
  private logChars = 0;
  private report: { kind: ReportKind; text: string; tagged?: boolean } | undefined;
  /** The program's promise settled (its value or reason is in `settledWith`). */
  private settled: "fulfilled" | "rejected" | undefined;
  private settledWith: QuickJSHandle | undefined;
  /** Set while the host encodes the result: the deadline still applies, leftover jobs do not run. */
  private finishing = false;
  /** Why the run is being stopped: its deadline, an abort, or one call too many in flight (`maxCallsInFlight`). */
  private stop: "timeout" | "abort" | "calls" | undefined;
  private crash: unknown;
  private inflight = 0;
  /** Characters of encoded arguments of calls in flight. */
  private inflightChars = 0;
  private nextId = 1;
  private readonly replies: Array<[number, HostReply]> = [];
  private wake: (() => void) | undefined;
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly clock: MonotonicClock;
  private globals: SandboxGlobals | undefined;
  /** Modules the run loaded (each once per context: QuickJS caches an instance per context). */
  private readonly modules: string[] = [];

  constructor(
    private readonly sandbox: SandboxModule,
    private readonly request: SessionRequest,
    private readonly controls: SessionControls,
    private readonly callHost: HostCaller,
  ) {
    this.clock = controls.clock ?? monotonicNow;
    this.runtime = sandbox.runtime ?? sandbox.module.newRuntime();
    sandbox.runtime = undefined;
    sandbox.runtimeRuns++;
    this.runtime.setMaxStackSize(request.maxStackBytes);
    this.runtime.setInterruptHandler(() => this.shouldInterrupt());
    // Set on every run: the runtime is reused, and a loader must never serve an earlier run's modules.
    installModuleLoader(this.runtime, request, (specifier) => this.modules.push(specifier));
    this.context = this.runtime.newContext();
    useFreshScratchViews(this.runtime);
    useFreshScratchViews(this.context);
  }

  async run(): Promise<SessionOutcome> {
    const signalWake = (): void => this.signalWake();
    const unsubscribe = this.controls.onAbort(signalWake);
    const cancelDeadline = whenPast(
      this.controls.deadline,
      () => {
        this.stop ??= "timeout";
        signalWake();
      },
      this.clock,
    );
    try {
      this.start();
      await this.pump();
      if (this.stop === undefined) {
        // Past this point the deadline still applies but leftover jobs do not run (shouldInterrupt).
        this.finishing = true;
        this.globals?.flushLogs();
      }
      if (this.stop === undefined && this.settled !== undefined && this.settledWith !== undefined) {
        this.finishing = true;
        this.report = this.finish(this.settled, this.settledWith);
      }
    } catch (error) {
      // Set-up interrupted by the deadline or an abort is not a crash.
      if (this.stop === undefined) this.crash = error;
    } finally {
      cancelDeadline();
      unsubscribe();
    }
    if (this.globals?.hostFailure !== undefined) this.crash ??= this.globals.hostFailure;
    return this.outcome(this.release());
  }

  private shouldInterrupt(): boolean {
    if (this.stop !== undefined) return true;
    // Once the program's promise settled, jobs it left behind are stopped, not run.
    if (this.settled !== undefined && !this.finishing) return true;
    this.checkStop();
    return this.stop !== undefined;
  }

  private checkStop(): void {
    if (this.controls.isAborted()) this.stop = "abort";
    else if (this.clock() >= this.controls.deadline) this.stop = "timeout";
  }

  private signalWake(): void {
    const resolve = this.wake;
    this.wake = undefined;
    resolve?.();
  }

  /** Builds the globals, evaluates the program and attaches to its completion. */
  private start(): void {
    const { context, request } = this;
    const globals = new SandboxGlobals(context, {
      script: request.script,
      bindings: request.bindings,
      environment: request.environment,
      lazyGlobals: request.lazyGlobals,
      maxLogChars: request.maxLogChars,
      maxValueChars: request.maxValueChars,
      onLog: (text) => this.log(text),
      onCall: (ns, fn, json, tagged, oversize) => this.call(ns, fn, json, tagged, oversize),
    });
    this.globals = globals;
    const onSettled = (state: "fulfilled" | "rejected"): QuickJSHandle =>
      globals.own(
        context.newFunction(state, (value) => {
          if (this.settled !== undefined) return;
          this.settled = state;
          this.settledWith = globals.own((value ?? context.undefined).dup());
        }),
      );
    const evaluated = context.evalCode(request.script, "program.js");
    if (evaluated.error) {
      this.settled = "rejected";
      this.settledWith = globals.own(evaluated.error);
      return;
    }
    const value = globals.own(evaluated.value);
    const { intrinsics } = globals;
    const resolved = context.callFunction(intrinsics.get("promiseResolve"), intrinsics.get("Promise"), value);
    const promise = globals.own(context.unwrapResult(resolved));
    const then = intrinsics.get("promiseThen");
    context.callFunction(then, promise, onSettled("fulfilled"), onSettled("rejected")).dispose();
  }

  /** Runs jobs and applies host replies until the program settles, stops, or can never settle. */
  private async pump(): Promise<void> {
    const globals = this.globals as SandboxGlobals;
    for (;;) {
      while (this.replies.length > 0 && this.settled === undefined && this.stop === undefined) {
        const [id, reply] = this.replies.shift() as [number, HostReply];
        this.inflight--;
        globals.settle(id, reply);
        drainJobs(this.runtime);
      }
      drainJobs(this.runtime);
      if (this.settled !== undefined || this.stop !== undefined) return;
      if (this.replies.length > 0) continue;
      if (this.inflight === 0) return;
      this.checkStop();
      if (this.stop !== undefined) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private log(text: string): void {
    const { maxLogChars } = this.request;
    if (this.logChars > maxLogChars + LOG_MARKER_ALLOWANCE) return;
    const room = maxLogChars + LOG_MARKER_ALLOWANCE - this.logChars;
    const line = text.length > room ? `${text.slice(0, room)}… [logs truncated]` : text;
    this.logChars += line.length;
    this.logs.push(line);
    this.controls.onLog?.(line);
  }

  /**
   * Starts a host call; refuses it (a message) when the arguments of calls in flight would pass their bound,
   * and stops the run when it would be one call too many in flight (a program that never awaits its calls
   * would not read a refusal: the run's error must say it).
   */
  private call(ns: number, fn: number, json: string, tagged: boolean, oversize?: number): number | string {
    // A run being stopped (deadline, abort, the limit) starts nothing more.
    if (this.stop !== undefined) return "The run is being stopped; no more connector calls start.";
    if (this.inflight >= this.request.maxCallsInFlight) {
      this.stop = "calls";
      return callsInFlightMessage(this.request.maxCallsInFlight);
    }
    const maxInflight = MAX_INFLIGHT_VALUES * this.request.maxValueChars;
    if (this.inflightChars + json.length > maxInflight) {
      return (
        `Too much data in flight: the calls awaiting the host already carry ${this.inflightChars.toLocaleString("en-US")} characters ` +
        `of arguments (limit ${maxInflight.toLocaleString("en-US")}). Await some calls before starting more, or pass smaller values.`
      );
    }
    const id = this.nextId++;
    this.inflight++;
    this.inflightChars += json.length;
    const settle = (reply: HostReply): void => {
      this.inflightChars -= json.length;
      this.replies.push([id, reply]);
      this.signalWake();
    };
    const fail = (error: unknown): void => settle({ ok: false, message: messageOf(error) });
    try {
      this.callHost(ns, fn, json, tagged, oversize).then(settle, fail);
    } catch (error) {
      fail(error);
    }
    return id;
  }

  /** Turns the settled program into codec JSON, a rendering (value could not cross) or an error message. */
  private finish(
    state: "fulfilled" | "rejected",
    value: QuickJSHandle,
  ): { kind: ReportKind; text: string; tagged?: boolean } {
    const globals = this.globals as SandboxGlobals;
    if (state === "rejected") return { kind: "error", text: globals.renderError(value) };
    const encoded = globals.toJson(value, "result", MAX_RESULT_VALUES * this.request.maxValueChars);
    if ("json" in encoded) return { kind: "value", text: encoded.json, tagged: encoded.tagged };
    if ("tooLong" in encoded) {
      const max = MAX_RESULT_VALUES * this.request.maxValueChars;
      const text = tooLongMessage(
        "The program's result",
        encoded.tooLong,
        max,
        "Return a summary or a page of it instead.",
        "4 × maxValueChars",
      );
      return { kind: "error", text: `RangeError: ${text}` };
    }
    const text = globals.renderFallback(value, encoded.error);
    encoded.error.dispose();
    return { kind: "rendered", text };
  }

  /** Disposes the context; keeps the runtime only after a clean end. Returns whether the module must go. */
  private release(): boolean {
    if (this.crash !== undefined) return true;
    try {
      this.globals?.dispose();
      this.context.dispose();
      // Clean: settled, no stop, no call in flight, nothing left in the shared job queue.
      const clean =
        this.stop === undefined && this.report !== undefined && this.inflight === 0 && !this.runtime.hasPendingJob();
      if (clean && this.sandbox.runtimeRuns < MAX_RUNS_PER_RUNTIME) {
        this.sandbox.runtime = this.runtime;
      } else {
        this.sandbox.runtimeRuns = 0;
        this.runtime.dispose();
      }
      return false;
    } catch {
      // A dispose assertion (quickjs-emscripten #269/#235): the result stands, the module is replaced.
      return true;
    }
  }

  private outcome(discardModule: boolean): SessionOutcome {
    const { report, sandbox } = this;
    // A failure with the memory at its cap is memory exhaustion even when QuickJS could not allocate
    // the error itself (then it throws null). A failed large allocation may leave a few MiB unused.
    const memoryBytes = sandbox.memory.buffer.byteLength;
    const memoryFull = memoryBytes >= sandbox.maxBytes - MEMORY_FULL_SLACK_BYTES;
    const outOfMemory =
      (report?.kind === "error" && report.text.startsWith("InternalError: out of memory")) ||
      ((report === undefined || report.kind === "error") && memoryFull);
    return {
      result: this.describe(outOfMemory),
      logs: this.logs,
      modules: this.modules,
      discardModule: discardModule || outOfMemory || memoryBytes >= sandbox.maxBytes * 0.75,
    };
  }

  private describe(outOfMemory: boolean): SessionResult {
    const { crash, stop, report, request } = this;
    // A host callback that failed with the memory at its cap (QuickJS could not even make the error) is memory
    // exhaustion, not an opaque crash (`QuickJSUnwrapError: [object Object]`).
    if (crash !== undefined && !outOfMemory) {
      const reason = crash instanceof Error ? `${crash.name}: ${crash.message}` : String(crash);
      const hint = /stack|recursion/i.test(reason)
        ? " (deep recursion overflowed the host stack; recurse less deeply)"
        : "";
      return { type: "error", kind: "worker-exit", message: `The sandbox crashed and was replaced: ${reason}${hint}` };
    }
    if (stop === "timeout") return { type: "error", kind: "timeout", message: timeoutMessage(request.timeoutMs) };
    if (stop === "calls")
      return { type: "error", kind: "exception", message: callsInFlightMessage(request.maxCallsInFlight) };
    if (stop === "abort") return { type: "error", kind: "abort", message: "The run was aborted." };
    if (outOfMemory) {
      return {
        type: "error",
        kind: "worker-exit",
        message: `The program ran out of memory: its budget is ${describeBytes(request.memoryLimitBytes)} (memoryLimitBytes). The sandbox was replaced; use less memory (stream or page through data).`,
      };
    }
    if (report?.kind === "value") return { type: "value", json: report.text, tagged: report.tagged !== false };
    if (report?.kind === "rendered") return { type: "rendered", text: report.text };
    if (report !== undefined) return { type: "error", kind: "exception", message: report.text };
    return {
      type: "error",
      kind: "exception",
      message:
        "The program is waiting for a promise that can never settle (no host call is in flight and no job is queued).",
    };
  }
}

function drainJobs(runtime: QuickJSRuntime): void {
  const result = runtime.executePendingJobs(-1);
  if (result.error) result.error.dispose();
}
