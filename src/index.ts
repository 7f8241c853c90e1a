export type {
  CodeBindingFunction,
  CodeBindingNamespace,
  CodeRunEnvironment,
  CodeRunRequest,
  CodeRunResult,
  Executor,
  ExecutorFailureKind,
} from "./sandbox/types.js";
export type {
  ArgumentValidation,
  Connector,
  ConnectorCallContext,
  ConnectorLifecycleContext,
  ConnectorMethod,
  ConnectorRevertContext,
  DescribeOutput,
  ReplayPolicy,
  SearchOutput,
  SearchResult,
} from "./connectors/types.js";
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
export { CodemodeError, InvalidOptionError } from "./errors.js";
