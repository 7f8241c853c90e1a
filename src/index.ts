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
export type {
  ArgumentValidation,
  Connector,
  ConnectorCallContext,
  ConnectorLifecycleContext,
  ConnectorMethod,
  ConnectorRevertContext,
  DescribeOutput,
  ConnectorApprovalContext,
  ReplayPolicy,
  SearchOutput,
  SearchResult,
  SkippedMethod,
} from "./connectors/types.js";
export { connector } from "./connectors/connector.js";
export type { ConnectorOptions, MethodPolicy } from "./connectors/connector.js";
export type { ConnectorToolExecutionOptions } from "./connectors/tool-set-connector.js";
export { McpToolError } from "./connectors/mcp-tool.js";
export { OUTBOUND_CONNECTOR, OUTBOUND_MAX_REDIRECTS, OUTBOUND_METHOD } from "./connectors/outbound-fetch.js";
export type { OutboundFetchOptions, OutboundRequest, OutboundRequestInfo, OutboundResponse } from "./connectors/outbound-fetch.js";
export { createCodemodeRuntime } from "./ai/create-codemode-runtime.js";
export type { CodemodeRuntime, CodemodeRuntimeOptions } from "./ai/create-codemode-runtime.js";
export { codemodeTool } from "./ai/codemode-tool.js";
export type { CodemodeToolFactoryOptions } from "./ai/codemode-tool.js";
export type { CodemodeTool, CodemodeToolOptions } from "./ai/build-codemode-tool.js";
export type { InlineTypes } from "./ai/tool-description.js";
export type {
  CallRecord,
  CallStatus,
  CodeModeInput,
  CodeModeOutput,
  ExecuteOptions,
  ExecutionDetail,
  ExecutionStatus,
  ExecutionSummary,
  FailureKind,
  PendingAction,
  RejectOutput,
  RollbackOutput,
  Snippet,
} from "./runtime/types.js";
export type { DurableRuntime } from "./runtime/durable-runtime.js";
export type { DurableRuntimeOptions, RuntimeLimits, TransformResultInfo } from "./runtime/runtime-options.js";
export type { CodemodeStoreOptions, StoreOption } from "./runtime/store/open-store.js";
export type { ExpirePausedOutput } from "./runtime/housekeeping.js";
export type { ExpiredExecution } from "./runtime/store/journal-store.js";
export type { SaveSnippetOutput } from "./runtime/snippets.js";
export { StoreError } from "./runtime/store-error.js";
export { CodemodeError, InvalidOptionError } from "./errors.js";
