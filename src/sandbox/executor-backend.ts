/**
 * What `QuickJSExecutor` needs from a place to run sessions: the calling thread
 * (`InProcessBackend`) or a worker-thread pool (`WorkerPoolBackend`).
 */
import type { CodeRunEnvironment } from "./types.js";
import type { HostCaller, SessionBinding, SessionResult } from "./session-types.js";

/** One normalised program and how to reach the host. */
export interface BackendJob {
  script: string;
  bindings: SessionBinding[];
  environment?: CodeRunEnvironment | undefined;
  /** Globals compiled on the program's first read (`CodeRunRequest.lazyGlobals`). */
  lazyGlobals?: Readonly<Record<string, string>> | undefined;
  /** Specifier → ES module source the program may import (`CodeRunRequest.modules`). */
  modules?: Readonly<Record<string, string>> | undefined;
  /** Specifiers of modules the app gave and the run was not sent (the program's text never says `import`). */
  withheldModules?: readonly string[] | undefined;
  /** Who the run is for, to share the worker pool fairly (`CodeRunRequest.fairnessKey`). */
  fairnessKey?: string | undefined;
  signal?: AbortSignal | undefined;
  callHost: HostCaller;
  /** Receives each console line as the program writes it. */
  onLog?: ((line: string) => void) | undefined;
}

/** The outcome of a job. */
export interface BackendOutcome {
  result: SessionResult;
  logs: string[];
  /** Specifiers of the modules the run loaded (empty when none, or when the run was cut off). */
  modules: string[];
}

/** A place to run sessions. `run` never rejects; `dispose` waits for in-flight jobs. */
export interface ExecutorBackend {
  run(job: BackendJob): Promise<BackendOutcome>;
  dispose(): Promise<void>;
}
