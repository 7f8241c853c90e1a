/**
 * `ai-codemode`: the `codemode` tool, the durable runtime and connectors, with the types of the options they take
 * and the outputs and records they return. The executor seam (`Executor`, `CodeRunRequest`, …) for writing an
 * executor of your own is the `ai-codemode/sandbox` entry.
 */
export { QuickJSExecutor } from "./sandbox/quickjs-executor.js";
export type {
  Connector,
  ConnectorMethod,
  DescribeOutput,
  SearchOutput,
} from "./connectors/types.js";
export { connector } from "./connectors/connector.js";
export type { ConnectorOptions, MethodPolicy } from "./connectors/connector.js";
export type { OutboundFetchOptions } from "./connectors/outbound-fetch.js";
export { createCodemodeRuntime } from "./ai/create-codemode-runtime.js";
export type { CodemodeRuntime, CodemodeRuntimeOptions } from "./ai/create-codemode-runtime.js";
export { codemodeTool } from "./ai/codemode-tool.js";
export type { CodemodeToolCaller } from "./ai/codemode-tool-caller.js";
export type { CodemodeTool, CodemodeToolOptions, CodemodeToolOutput } from "./ai/build-codemode-tool.js";
export type { ProgressEvent } from "./runtime/pass/progress-events.js";
export type { CallState } from "./runtime/call-state.js";
export type {
  ApproveRequestInput,
  CallDecision,
  CallRecord,
  CodemodeOutput,
  ExecuteInput,
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
export type { RuntimeLimits } from "./runtime/runtime-options.js";
export type { StoreOption } from "./runtime/store/connection/open-store.js";
export {
  CodecError,
  CodemodeArgumentError,
  CodemodeError,
  CorruptRecordError,
  InvalidOptionError,
  McpToolError,
  OutboundFetchError,
  RedirectError,
  StoreError,
} from "./errors.js";
