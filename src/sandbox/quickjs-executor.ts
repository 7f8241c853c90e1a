/**
 * `QuickJSExecutor`: the default executor. Runs one program once in a fresh QuickJS
 * runtime and context, with host bindings as null-prototype globals, and reports value, logs and
 * a typed failure. `run()` never rejects.
 */
import type { ExecutorBackend } from "./executor-backend.js";
import {
  resolveExecutorOptions,
  type QuickJSExecutorOptions,
  type ResolvedExecutorOptions,
} from "./executor-options.js";
import { prepareBindings, readSandboxValue } from "./host-bindings.js";
import { InProcessBackend } from "./in-process-backend.js";
import { normalizeProgram, preloadParser } from "./normalize-program.js";
import { mayImport } from "./sandbox-modules.js";
import type { CodeBindingNamespace, CodeRunRequest, CodeRunResult, Executor, ExecutorFailureKind } from "./types.js";
import { WorkerPoolBackend } from "./worker-pool-backend.js";
import { messageOf } from "../shared/message-of.js";

/** An executor dropped without `dispose()` gives back its share of the substrate when collected. */
const released = new FinalizationRegistry<ExecutorBackend>((backend) => void backend.dispose());

function failure(kind: ExecutorFailureKind, message: string, logs: string[] = []): CodeRunResult {
  return { logs, error: { kind, message } };
}

/** A message when `bindings` is not a list of `{ global: string, functions: object }` (a host programming error). */
function describeInvalidBindings(bindings: unknown): string | undefined {
  if (!Array.isArray(bindings))
    return "The executor was given no bindings list (bindings must be an array of namespaces).";
  for (const [index, namespace] of bindings.entries()) {
    const { global, functions } = (namespace ?? {}) as Partial<CodeBindingNamespace>;
    if (typeof global !== "string" || global === "") return `bindings[${index}].global must be a non-empty string.`;
    if (functions === null || typeof functions !== "object")
      return `bindings[${index}].functions must be an object of functions.`;
  }
  return undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A message when `lazyGlobals` is not an object of identifier → source string, or names a binding's global. */
function describeInvalidLazyGlobals(lazyGlobals: unknown, bindings: unknown): string | undefined {
  if (lazyGlobals === undefined) return undefined;
  if (lazyGlobals === null || typeof lazyGlobals !== "object")
    return "lazyGlobals must be an object of global name → source.";
  const taken = new Set(
    Array.isArray(bindings) ? bindings.map((namespace) => (namespace as { global?: unknown })?.global) : [],
  );
  for (const [name, source] of Object.entries(lazyGlobals)) {
    if (!IDENTIFIER.test(name)) return `lazyGlobals: ${JSON.stringify(name)} is not an identifier.`;
    if (typeof source !== "string") return `lazyGlobals.${name} must be a string of source.`;
    if (taken.has(name)) return `lazyGlobals.${name} is also a binding's global.`;
  }
  return undefined;
}

/** A message when `modules` is not an object of specifier → source string. */
function describeInvalidModules(modules: unknown): string | undefined {
  if (modules === undefined) return undefined;
  if (modules === null || typeof modules !== "object") return "modules must be an object of specifier → source.";
  for (const [specifier, source] of Object.entries(modules)) {
    if (typeof source !== "string") return `modules[${JSON.stringify(specifier)}] must be a string of source.`;
  }
  return undefined;
}

/**
 * Runs programs in QuickJS (WebAssembly). By default in a pool of worker threads, so a spinning
 * program never stalls the host's event loop and can be stopped hard; `isolation: "in-process"`
 * runs on the calling thread for the lowest latency.
 *
 * @example
 * const executor = new QuickJSExecutor({ timeoutMs: 5_000 });
 * const { value } = await executor.run({
 *   program: "async () => (await math.add({ a: 1, b: 2 })) * 2",
 *   bindings: [{ global: "math", functions: { add: async ({ a, b }: any) => a + b } }],
 * });
 * await executor.dispose(); // optional: an executor that is dropped releases its share by itself
 */
export class QuickJSExecutor implements Executor {
  readonly language = "typescript" as const;
  readonly isolation: "in-process" | "worker-thread";
  /** The validated budgets this executor runs with. */
  readonly options: Readonly<ResolvedExecutorOptions>;
  private readonly backend: ExecutorBackend;
  private readonly inflight = new Set<Promise<CodeRunResult>>();
  /** Aborted by `dispose()`: stops this executor's runs (only these). */
  private readonly disposal = new AbortController();
  private disposed = false;

  /** @throws InvalidOptionError naming the option path when an option is invalid. */
  constructor(options: QuickJSExecutorOptions = {}) {
    this.options = Object.freeze(resolveExecutorOptions(options));
    this.isolation = this.options.isolation;
    this.backend =
      this.isolation === "in-process" ? new InProcessBackend(this.options) : new WorkerPoolBackend(this.options);
    released.register(this, this.backend, this);
    // The first run's parse overlaps what it waits for anyway (the worker's start, the runtime's store).
    preloadParser();
  }

  /** Runs one program. Resolves with its value and logs, or a typed failure; never rejects. */
  run(request: CodeRunRequest): Promise<CodeRunResult> {
    const pending = this.runSafely(request);
    this.inflight.add(pending);
    void pending.finally(() => this.inflight.delete(pending));
    return pending;
  }

  /**
   * Stops accepting runs, stops the runs in flight (they end with kind `abort`, within a second:
   * a worker that does not stop is terminated) and releases this executor's share of the
   * process-wide substrate. Optional: the substrate is shared and released when idle.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    released.unregister(this);
    this.disposal.abort();
    await Promise.allSettled([...this.inflight]);
    await this.backend.dispose();
  }

  /** `dispose()`, for `await using executor = new QuickJSExecutor()`: disposed when the block that declared it ends. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  private async runSafely(request: CodeRunRequest): Promise<CodeRunResult> {
    try {
      return await this.runChecked(request);
    } catch (error) {
      return failure("worker-exit", `The executor failed unexpectedly: ${messageOf(error)}`);
    }
  }

  private async runChecked(request: CodeRunRequest): Promise<CodeRunResult> {
    if (this.disposed) return failure("worker-exit", "The executor has been disposed; create a new one.");
    if (request === null || typeof request !== "object")
      return failure("exception", "The run request must be an object { program, bindings }.");
    const { program, signal, environment, onLog } = request;
    if (
      environment !== undefined &&
      (!Number.isFinite(environment?.epochMs) || typeof environment?.randomSeed !== "string")
    ) {
      return failure("exception", "environment must be { epochMs: finite number, randomSeed: string }.");
    }
    if (typeof program !== "string")
      return failure("exception", "The program must be a string of JavaScript or TypeScript.");
    if (request.prelude !== undefined && (typeof request.prelude !== "string" || request.prelude.includes("\n"))) {
      return failure("exception", "prelude must be a string of one line.");
    }
    const lazyProblem = describeInvalidLazyGlobals(request.lazyGlobals, request.bindings);
    if (lazyProblem !== undefined) return failure("exception", lazyProblem);
    const modulesProblem = describeInvalidModules(request.modules);
    if (modulesProblem !== undefined) return failure("exception", modulesProblem);
    const { fairnessKey } = request;
    if (fairnessKey !== undefined && typeof fairnessKey !== "string")
      return failure("exception", "fairnessKey must be a string (who the run is for).");
    if (program.length > this.options.maxSourceChars) {
      return failure(
        "exception",
        `The program is ${program.length} characters; the limit is ${this.options.maxSourceChars} (maxSourceChars). Write a shorter program.`,
      );
    }
    if (signal?.aborted) return failure("abort", "The run was aborted before it started.");
    const normalized = await normalizeProgram(program);
    if (!normalized.ok) return failure("exception", normalized.message);
    const invalid = describeInvalidBindings(request.bindings);
    if (invalid !== undefined) return failure("exception", invalid);
    const { bindings, callHost } = prepareBindings(request.bindings, this.options.maxValueChars);
    const script = request.prelude === undefined ? normalized.script : `${request.prelude} ${normalized.script}`;
    const { lazyGlobals } = request;
    // A program that cannot import costs nothing for the modules (a worker is not even sent them); their names go,
    // so an import the program builds at run time (`eval`) is told why it finds nothing.
    const sent = request.modules !== undefined && mayImport(normalized.script);
    const modules = sent ? request.modules : undefined;
    const withheldModules = request.modules === undefined || sent ? undefined : Object.keys(request.modules);
    const job = { script, bindings, environment, lazyGlobals, modules, withheldModules, fairnessKey, callHost, onLog };
    let outcome: Awaited<ReturnType<ExecutorBackend["run"]>>;
    if (signal === undefined) {
      // Only `dispose()` can stop this run: its signal is the run's.
      outcome = await this.backend.run({ ...job, signal: this.disposal.signal });
    } else {
      const stop = new AbortController();
      const onStop = (): void => stop.abort();
      signal.addEventListener("abort", onStop, { once: true });
      this.disposal.signal.addEventListener("abort", onStop, { once: true });
      if (this.disposed) stop.abort();
      try {
        outcome = await this.backend.run({ ...job, signal: stop.signal });
      } finally {
        signal.removeEventListener("abort", onStop);
        this.disposal.signal.removeEventListener("abort", onStop);
      }
    }
    const { result, logs } = outcome;
    const used = outcome.modules.length > 0 ? { modules: outcome.modules } : {};
    switch (result.type) {
      case "error":
        if (result.kind === "abort" && this.disposed && signal?.aborted !== true) {
          return { ...failure("abort", "The run was stopped because its executor was disposed.", logs), ...used };
        }
        return { ...failure(result.kind, result.message, logs), ...used };
      case "rendered":
        return { value: result.text, logs, ...used };
      case "value":
        try {
          return { value: readSandboxValue(result.json, result.tagged, "result"), logs, ...used };
        } catch (error) {
          return {
            ...failure("exception", `The program's result could not be read: ${messageOf(error)}`, logs),
            ...used,
          };
        }
    }
  }
}
