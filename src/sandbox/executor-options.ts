/**
 * Budgets and settings of `QuickJSExecutor`: the options interface, its checks and defaults declared against it,
 * validated at construction.
 */
import { availableParallelism } from "node:os";
import { declareOptions } from "../shared/options/declare-options.js";
import { integerOption, oneOfOption, optionalIntegerOption } from "../shared/options/option-checks.js";

/** Wall-clock budget of one run. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Memory budget of one run: the fixed maximum of its WebAssembly memory. */
export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * QuickJS stack budget in a worker thread (whose native stack is `WORKER_STACK_SIZE_MB` MiB, 16). Not 1 MiB:
 * overflowing `JSON.stringify` on a deeply nested value costs time quadratic in the stack size inside one C builtin
 * the interrupt handler cannot stop (docs/decisions/default-figures.md); the worker's hard stop still bounds it.
 */
export const DEFAULT_WORKER_MAX_STACK_BYTES = 256 * 1024;
/**
 * QuickJS stack budget on the main thread. Larger values let deep recursion overflow the host's
 * native stack inside the wasm (the module is then replaced and the run fails `worker-exit`).
 */
export const DEFAULT_IN_PROCESS_MAX_STACK_BYTES = 64 * 1024;
/** Largest accepted program source. */
export const DEFAULT_MAX_SOURCE_CHARS = 256 * 1024;
/** Total characters of captured console output per run (a truncation marker is added beyond it). */
export const DEFAULT_MAX_LOG_CHARS = 64 * 1024;
/**
 * Largest value that crosses the boundary in one piece (a call's arguments, a host result, the
 * program's result), in characters of codec JSON. Equal to the journal's limit
 * (`MAX_JOURNAL_VALUE_CHARS`): a larger value could never be journaled, and checking it where it is
 * encoded keeps the host from decoding (and stalling on) a value the program controls.
 */
const DEFAULT_MAX_VALUE_CHARS = 1_000_000;
/**
 * Host (connector) calls one run may have started and not yet seen settle. Each holds a promise and its
 * arguments in the sandbox and the call's state on the host: a program that starts calls without awaiting
 * them (`for (…) api.send(x)`) crashed the sandbox at about 200,000 (450 MB on the host) with a message
 * nobody could act on. Past this the run stops and is told to await its calls or batch them; 10,000 leaves
 * room for any `Promise.all` a program should issue at once.
 */
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 10_000;
/** Worker threads in the pool (default: min(4, available parallelism)). */
const DEFAULT_POOL_SIZE = Math.max(1, Math.min(4, availableParallelism()));
/** Native stack of each worker thread; QuickJS's 1 MiB default fits in every measured case. */
export const WORKER_STACK_SIZE_MB = 16;
/** The smallest memory budget accepted: the QuickJS wasm module needs 16 MiB to start. */
const MIN_MEMORY_LIMIT_BYTES = 24 * 1024 * 1024;
/**
 * The largest QuickJS stack budget accepted: the wasm build's own stack is about 5 MiB, and a
 * budget past it makes QuickJS's stack limit wrap around (every call then fails).
 */
const MAX_STACK_BYTES = 4 * 1024 * 1024;
/** The largest memory budget accepted (wasm32 address space). */
const MAX_MEMORY_LIMIT_BYTES = 2048 * 1024 * 1024;

/** Where programs run: a worker-thread pool (default) or the calling thread. */
export type ExecutorIsolation = "worker-thread" | "in-process";

/** Options of `new QuickJSExecutor(options)`. Every budget is per run. */
export interface QuickJSExecutorOptions {
  /**
   * `"worker-thread"`: programs run in a pool of worker threads; a spinning program never stalls the
   * host and can always be stopped (deadline or `signal`). `"in-process"`: lowest latency, but a
   * synchronous loop holds the host's event loop until the deadline stops it, and an `AbortSignal`
   * is only noticed when the program waits for a host call or when the abort happened before the
   * loop started.
   * @default "worker-thread"
   */
  isolation?: ExecutorIsolation;
  /**
   * Worker threads in the pool (worker-thread isolation only), at most 64.
   * @default min(4, available parallelism)
   */
  poolSize?: number;
  /**
   * Wall-clock budget of one run, in milliseconds.
   * @default 30_000
   */
  timeoutMs?: number;
  /**
   * Memory budget of one run (the WebAssembly memory's maximum), in bytes; at least 24 MiB.
   * @default 64 MiB
   */
  memoryLimitBytes?: number;
  /**
   * QuickJS stack budget (at most 4 MiB). In-process, the host thread's own stack is the real limit:
   * past about 64 KiB deep recursion can overflow it, which fails the run with `worker-exit` and
   * replaces the substrate.
   * @default 256 KiB in a worker, 64 KiB in-process
   */
  maxStackBytes?: number;
  /**
   * Characters of captured console output per run; a truncation marker is added beyond it.
   * @default 65_536
   */
  maxLogChars?: number;
  /**
   * Largest accepted program source, in characters.
   * @default 262_144
   */
  maxSourceChars?: number;
  /**
   * Largest value crossing the boundary (arguments, host results, the program's result), in
   * characters of codec JSON, measured where it is encoded.
   * @default 1_000_000 (the journal's limit)
   */
  maxValueChars?: number;
  /**
   * Host (connector) calls started and not yet settled at once. Past it the run stops with an error telling
   * the program to await its calls or batch them (calls already started are not undone).
   * @default 10_000
   */
  maxCallsInFlight?: number;
}

/** How each option of {@link QuickJSExecutorOptions} is checked and defaulted. */
const EXECUTOR_OPTIONS = declareOptions<QuickJSExecutorOptions>()({
  isolation: oneOfOption<ExecutorIsolation>(["worker-thread", "in-process"], "worker-thread"),
  poolSize: integerOption(DEFAULT_POOL_SIZE, { max: 64 }),
  timeoutMs: integerOption(DEFAULT_TIMEOUT_MS, { max: 2_147_483_647 }),
  memoryLimitBytes: integerOption(DEFAULT_MEMORY_LIMIT_BYTES, {
    min: MIN_MEMORY_LIMIT_BYTES,
    max: MAX_MEMORY_LIMIT_BYTES,
  }),
  maxStackBytes: optionalIntegerOption({ min: 16 * 1024, max: MAX_STACK_BYTES }),
  maxLogChars: integerOption(DEFAULT_MAX_LOG_CHARS),
  maxSourceChars: integerOption(DEFAULT_MAX_SOURCE_CHARS),
  maxValueChars: integerOption(DEFAULT_MAX_VALUE_CHARS, { min: 1024 }),
  maxCallsInFlight: integerOption(DEFAULT_MAX_CALLS_IN_FLIGHT, { max: 1_000_000 }),
});

/** Fully populated, validated options: every option of {@link QuickJSExecutorOptions} set. */
export type ResolvedExecutorOptions = Required<QuickJSExecutorOptions>;

/** Every key of `QuickJSExecutorOptions` (the runtime's `limits` takes the same names). */
export const EXECUTOR_OPTION_KEYS = EXECUTOR_OPTIONS.keys;

/**
 * Validates executor options and fills defaults. Throws {@link InvalidOptionError} naming the
 * path, e.g. `timeoutMs must be a positive integer`.
 *
 * @param prefix Path prefix for messages (the runtime passes `limits`).
 */
export function resolveExecutorOptions(options: QuickJSExecutorOptions = {}, prefix = ""): ResolvedExecutorOptions {
  const resolved = EXECUTOR_OPTIONS.resolve(options, prefix);
  // The stack's default depends on where programs run.
  const defaultStack =
    resolved.isolation === "worker-thread" ? DEFAULT_WORKER_MAX_STACK_BYTES : DEFAULT_IN_PROCESS_MAX_STACK_BYTES;
  return { ...resolved, maxStackBytes: resolved.maxStackBytes ?? defaultStack };
}
