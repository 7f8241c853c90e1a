/**
 * The executor seam. An executor runs one program once with host
 * bindings and reports value, logs and a typed failure. It knows nothing of
 * journals, stores or the AI SDK.
 */

/** The four ways a run can fail inside an executor. */
export type ExecutorFailureKind = "exception" | "timeout" | "abort" | "worker-exit";

/** A host function exposed to the program. Receives decoded arguments, resolves with a value that must cross back. */
export type CodeBindingFunction = (args: unknown) => Promise<unknown>;

/** One global namespace of async host functions (`github.list_pull_requests(...)`). */
export interface CodeBindingNamespace {
  /** Global name inside the sandbox, e.g. `github`. */
  global: string;
  /** Member name → host function. Names are untrusted: `__proto__` or `constructor` are ordinary members. */
  functions: Record<string, CodeBindingFunction>;
  /** Why a namespace without functions has none (e.g. its server did not start), told to a program that calls one. */
  unavailable?: string;
}

/**
 * Deterministic environment for one run (used by the durable runtime so that a
 * replayed pass sees the same values). Optional: without it `Date` and
 * `Math.random` behave normally.
 */
export interface CodeRunEnvironment {
  /** `Date.now()` and `new Date()` return this instant (ms since epoch) for the whole run. */
  epochMs: number;
  /** Seed for `Math.random()`; the same seed yields the same sequence. */
  randomSeed: string;
}

/** One program to run. */
export interface CodeRunRequest {
  /** Source: async arrow function, function body (top-level await/return) or expression; JS or TS; optionally fenced. */
  program: string;
  bindings: CodeBindingNamespace[];
  /** Aborting stops the run, even a synchronous `while (true) {}`; the result has kind `abort`. */
  signal?: AbortSignal;
  /** Deterministic `Date` / `Math.random`. */
  environment?: CodeRunEnvironment;
  /**
   * Trusted script evaluated in the run's context just before the program, on the program's first
   * line (so the program's line numbers are unchanged): write it as one line of statements, each
   * ending in `;`. The durable runtime defines the `codemode` global with it. The program itself is
   * normalised once, by the executor.
   */
  prelude?: string;
  /**
   * Trusted globals compiled only when the program first reads them (a run that never reads one compiles
   * nothing for it): global name → source of an expression whose value is a function; the first read of the
   * global calls it with the run's global object, and every read gives what it returned (the global is not
   * configurable and has no setter: a program cannot delete or replace it). The durable runtime defines `codemode`
   * and `fetch` this way.
   */
  lazyGlobals?: Readonly<Record<string, string>>;
  /**
   * ES modules the program may import, statically or with `import()`: specifier → module source. Nothing else is
   * importable. Each run instantiates them afresh. The durable runtime passes its `modules` option here.
   */
  modules?: Readonly<Record<string, string>>;
  /** Receives each console line as the program writes it (the lines are also in the result's `logs`). */
  onLog?: ((line: string) => void) | undefined;
  /**
   * Who the run is for (an owner, a tenant: any string), so that one of them cannot hold every worker of the pool
   * while its runs wait for slow connectors. Runs with a key hold at most `poolSize - 1` workers per key (a pool of
   * one: its worker), and runs waiting for a worker are served in turn across keys. Runs without one are not bounded
   * (served in turn as one more key). In-process runs do not wait for workers; there it does nothing. The durable
   * runtime passes an execution's `scope`.
   */
  fairnessKey?: string | undefined;
}

/** Outcome of one run. `run()` resolves with it; it never rejects. */
export interface CodeRunResult {
  value?: unknown;
  logs: string[];
  error?: { kind: ExecutorFailureKind; message: string };
  /** Specifiers of the `modules` the run imported, in load order (absent when it imported none). */
  modules?: string[];
}

/** A sandbox implementation. `run()` never rejects; `dispose()` waits for in-flight runs to stop. */
export interface Executor {
  readonly language: "typescript";
  readonly isolation: "in-process" | "worker-thread" | (string & {});
  /** Runs one program once. Resolves with value, logs and a typed failure; never rejects. */
  run(request: CodeRunRequest): Promise<CodeRunResult>;
  /** Stops accepting runs and waits until in-flight runs have stopped. */
  dispose(): Promise<void>;
}
