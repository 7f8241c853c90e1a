/**
 * `ai-codemode/sandbox`: the QuickJS executor and the value codec alone, for apps that bring their
 * own runtime or want the smallest cold start (this entry loads no AI SDK, store or search code).
 *
 * @example
 * import { QuickJSExecutor } from "ai-codemode/sandbox";
 * const executor = new QuickJSExecutor();
 * const { value } = await executor.run({ program: "1 + 1", bindings: [] });
 */
export type {
  CodeBindingFunction,
  CodeBindingNamespace,
  CodeRunEnvironment,
  CodeRunRequest,
  CodeRunResult,
  Executor,
  ExecutorFailureKind,
} from "./sandbox/types.js";
export { QuickJSExecutor } from "./sandbox/quickjs-executor.js";
export {
  DEFAULT_IN_PROCESS_MAX_STACK_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  DEFAULT_MAX_LOG_CHARS,
  DEFAULT_MAX_SOURCE_CHARS,
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_POOL_SIZE,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WORKER_MAX_STACK_BYTES,
  resolveExecutorOptions,
} from "./sandbox/executor-options.js";
export type { ExecutorIsolation, QuickJSExecutorOptions, ResolvedExecutorOptions } from "./sandbox/executor-options.js";
export {
  canonicalizeValue,
  CodecError,
  decodeValue,
  deserializeValue,
  encodeValue,
  serializeValue,
  validateEncodedValue,
} from "./sandbox/codec.js";
export type { EncodedTag, EncodedValue, EncodeOptions } from "./sandbox/codec.js";
export type { CodecProblem } from "./sandbox/codec-validation.js";
export { CodemodeError, InvalidOptionError } from "./errors.js";
