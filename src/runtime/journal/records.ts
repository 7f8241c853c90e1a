/**
 * The journal's storage format: one record per execution, call and snippet.
 * Values (arguments, results) are kept as codec strings; the store never
 * decodes them. Every row carries {@link RECORD_VERSION} and is validated when
 * read (see `record-validation.ts`).
 */
/** Version tag written on every row; bump with a migration when a record's meaning changes. */
export const RECORD_VERSION = 1;

/** Sequence number of the row that stands for a whole program awaiting approval (program calls start at 1). */
export const WHOLE_PROGRAM_SEQ = 0;

/** Stored life of an execution (the runtime's `ExecutionStatus` maps onto it one to one). */
export type ExecutionRecordStatus = "running" | "paused" | "completed" | "error" | "rejected" | "rolled_back";

/** Stored life of a call (the runtime's `CallStatus`). */
export type CallRecordStatus = "pending" | "executing" | "applied" | "error" | "reverted";

/** Every failure kind a row may carry (the runtime's `FailureKind`); a row with another is corrupt. */
export const FAILURE_RECORD_KINDS = [
  "exception",
  "timeout",
  "abort",
  "worker-exit",
  "divergence",
  "rejected",
  "conflict",
  "limit",
  "connector-missing",
  "validation",
  "not-found",
  "stale",
  "expired",
  "store",
  "interrupted",
  "approval-unreached",
  "nothing-to-revert",
] as const;

/** A failure kind as stored. */
export type FailureRecordKind = (typeof FAILURE_RECORD_KINDS)[number];

/** A stored execution. */
export interface ExecutionRecord {
  runtime: string;
  executionId: string;
  status: ExecutionRecordStatus;
  code: string;
  /** Connector names configured when the execution started; all must exist to resume it. */
  connectors: string[];
  createdAt: number;
  updatedAt: number;
  passes: number;
  /** Codec string of the final result, or of a "not journaled" marker when it did not fit. */
  resultText?: string;
  logs: string[];
  error?: string;
  kind?: FailureRecordKind;
  /** Token of the invocation that holds the execution (a pass, a rollback). */
  leaseToken?: string;
  /** The holder is presumed dead after this instant (ms). */
  leaseUntil?: number;
  toolCallId?: string;
  /** The Workflow SDK run whose step started it (`ai-codemode/workflow`). */
  workflowRunId?: string;
  /** The owner the execution was started for; other scopes do not see it. */
  scope?: string;
  /** The trace context its first pass left (`src/runtime/tracing/trace-record.ts` reads it); opaque to the store. */
  traceContext?: string;
  /** The call and cost budgets fixed when it started (`budget-record.ts` reads them); opaque to the store. */
  budgetsText?: string;
  /** The modules its passes imported, with a hash of each (`module-record.ts` reads it); opaque to the store. */
  modulesText?: string;
}

/** A stored connector call or `codemode.step`. */
export interface CallJournalRecord {
  seq: number;
  connector: string;
  method: string;
  /** Codec string of the arguments as the program passed them. */
  argsText: string;
  status: CallRecordStatus;
  /** Codec string of the recorded result (record policy, applied). */
  resultText?: string;
  error?: string;
  replay: "record" | "reexecute";
  needsApproval: boolean;
  approvedAt?: number;
  /** Codec string of the arguments the approver gave instead of the program's (approve with changes). */
  approvedArgsText?: string;
  startedAt?: number;
  finishedAt?: number;
  replayedCount: number;
  /** What the call counted against the execution's `maxCost` where it first ran (its method's `cost(args)`). */
  cost?: number;
  /** Who approved or rejected the call (`decidedBy` of the request), when given. */
  decidedBy?: string;
}

/** A stored snippet. */
export interface SnippetRecord {
  name: string;
  description?: string;
  code: string;
  connectors: string[];
  /** JSON text of the input schema. */
  inputSchemaText?: string;
  executionId: string;
  createdAt: number;
}

/** Execution statuses that end a run; only these are pruned by retention. */
export const TERMINAL_EXECUTION_STATUSES: readonly ExecutionRecordStatus[] = [
  "completed",
  "error",
  "rejected",
  "rolled_back",
];

/**
 * Tool call id prefix of an execution a client may come back for with a retry id (an MCP call without a session,
 * answered `-32042` when it paused). Retention's grace (`retention.minAgeMs`, a day by default) keeps every ended
 * execution, this one included, whatever the count.
 */
export const RETRY_HOLD_TOOL_CALL_PREFIX = "codemode-retry:";
