/**
 * `ai-codemode/sandbox`: the QuickJS executor and the executor seam alone, for apps that bring their own
 * runtime or write an executor of their own (this entry loads no AI SDK, store or search code).
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
export type { ExecutorIsolation, QuickJSExecutorOptions } from "./sandbox/executor-options.js";
export { CodecError, CodemodeError, InvalidOptionError } from "./errors.js";
