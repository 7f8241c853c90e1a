/**
 * `ai-codemode`: the `codemode` tool, the durable runtime and connectors. The executor and the value codec
 * alone (budget defaults, `encodeValue`/`serializeValue`, …) are the `ai-codemode/sandbox` entry; this entry
 * re-exports only what configuring a runtime needs (`Executor`, `QuickJSExecutor`); the types for writing an
 * executor of your own (`CodeRunRequest`, `CodeBindingNamespace`, …) come from `ai-codemode/sandbox`.
 */
export type { Executor } from "./sandbox/types.js";
export { QuickJSExecutor } from "./sandbox/quickjs-executor.js";
export type { ExecutorIsolation, QuickJSExecutorOptions } from "./sandbox/executor-options.js";
export type {
  ArgumentValidation,
  CallRequest,
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
export { OUTBOUND_CONNECTOR, OUTBOUND_MAX_REDIRECTS, OUTBOUND_METHOD } from "./connectors/outbound-fetch.js";
export type {
  OutboundFetchOptions,
  OutboundRequest,
  OutboundRequestInfo,
  OutboundResponse,
} from "./connectors/outbound-fetch.js";
export { createCodemodeRuntime } from "./ai/create-codemode-runtime.js";
export type { CodemodeRuntime, CodemodeRuntimeOptions } from "./ai/create-codemode-runtime.js";
export type { CodemodeSearchOptions } from "./ai/search-options.js";
export type { ApproveProgramOption } from "./runtime/program-approval.js";
export type { CallDecision } from "./runtime/types.js";
export type { ProgressFeedOptions } from "./ai/progress-feed.js";
export { codemodeTool } from "./ai/codemode-tool.js";
export type {
  CodemodeToolCallerOptions,
  CodemodeToolFactoryOptions,
  CodemodeToolWithNamespacesOptions,
} from "./ai/codemode-tool.js";
export type { CodemodeToolCaller } from "./ai/codemode-tool-caller.js";
export type { CodemodeToolApproval } from "./ai/tool-approval.js";
export type { CodemodeTool, CodemodeToolOptions, CodemodeToolOutput } from "./ai/build-codemode-tool.js";
export type { CodemodeProgress, CodemodeProgressCall, WithProgress } from "./ai/codemode-progress.js";
export type {
  CallProgress,
  CallProgressState,
  ProgressEvent,
  ProgressListener,
} from "./runtime/pass/progress-events.js";
export type { InlineTypes } from "./ai/tool-description.js";
export type {
  AppliedCall,
  CallRecord,
  CallStatus,
  CodeModeInput,
  CodeModeOutput,
  ExecuteInput,
  ExecuteOptions,
  ExecutionRequestInput,
  ExecutionDetail,
  ExecutionStatus,
  ExecutionSummary,
  FailureKind,
  PendingAction,
  RejectOutput,
  RollbackOutput,
  ScopeOptions,
  Snippet,
} from "./runtime/types.js";
export type { DurableRuntime } from "./runtime/durable-runtime.js";
export type { DurableRuntimeOptions, RuntimeLimits, TransformResultInfo } from "./runtime/runtime-options.js";
export type { BudgetLimits } from "./runtime/runtime-options.js";
export type { CodemodeStoreOptions, StoreOption } from "./runtime/store/connection/open-store.js";
export type { ExpirePausedOutput } from "./runtime/types.js";
export type { ApproveRequestInput, EditedCall } from "./runtime/types.js";
export type { ExpiredExecution } from "./runtime/journal/journal-store.js";
export type { SaveSnippetOutput } from "./runtime/types.js";
export {
  CodecError,
  CodemodeError,
  CorruptRecordError,
  InvalidArgumentError,
  InvalidOptionError,
  McpToolError,
  OpenApiRequestError,
  OpenApiResponseError,
  OutboundFetchError,
  RedirectError,
  StoreError,
} from "./errors.js";
export type { CodemodeErrorCode, OpenApiRequestFailure } from "./errors.js";
