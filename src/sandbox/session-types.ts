/**
 * The types of one session (one run in one QuickJS context): what it is given, how the host answers
 * its calls, how it is stopped, and what it reports. Shared by the in-process and worker backends.
 */
import type { MonotonicClock } from "./deadline.js";
import type { CodeRunEnvironment, ExecutorFailureKind } from "./types.js";

/** A binding namespace as the sandbox sees it: its global and member names (in call-index order). */
export interface SessionBinding {
  global: string;
  functions: string[];
  /** Why the namespace has no functions, when it has none and the host said why. */
  unavailable?: string;
}

/**
 * What the host answers to one call: the encoded result (codec JSON; `tagged` when the tree holds
 * any tag, so the sandbox can skip decoding plain JSON) or a message.
 */
export type HostReply = { ok: true; json: string; tagged: boolean } | { ok: false; message: string };

/**
 * Calls binding `functions[fn]` of namespace `ns` with codec-JSON arguments (`tagged` false when the
 * text is plain JSON with nothing to decode). `oversize`: the arguments were over `maxValueChars`
 * (their encoded size; `argsJson` is then empty). Must not throw.
 */
export type HostCaller = (
  ns: number,
  fn: number,
  argsJson: string,
  tagged: boolean,
  oversize?: number,
) => Promise<HostReply>;

/** How the run is stopped from outside. */
export interface SessionControls {
  /** Absolute deadline on `clock` (ms). */
  deadline: number;
  /** The monotonic clock `deadline` is measured on. @default performance.now */
  clock?: MonotonicClock;
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
  /** Globals compiled on the program's first read (`CodeRunRequest.lazyGlobals`). */
  lazyGlobals?: Readonly<Record<string, string>> | undefined;
  /** Specifier → ES module source the program may import (`CodeRunRequest.modules`). */
  modules?: Readonly<Record<string, string>> | undefined;
  /** Specifiers of modules the app gave and this run was not sent: an import built at run time names them. */
  withheldModules?: readonly string[] | undefined;
  timeoutMs: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
  maxLogChars: number;
  /** Largest encoded value (arguments, the result), measured before the host sees it. */
  maxValueChars: number;
  /** Host calls started and not yet settled at once; one more stops the run. */
  maxCallsInFlight: number;
}

/** The completion: codec JSON, a string rendering (value could not cross), or a failure. */
export type SessionResult =
  | { type: "value"; json: string; tagged: boolean }
  | { type: "rendered"; text: string }
  | { type: "error"; kind: ExecutorFailureKind; message: string };

/** Outcome of a session; `discardModule` asks the pool to replace the module. */
export interface SessionOutcome {
  result: SessionResult;
  logs: string[];
  /** Specifiers of the modules the run loaded, in load order. */
  modules: string[];
  discardModule: boolean;
}
