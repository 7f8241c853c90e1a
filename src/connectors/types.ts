/**
 * The connector contract. Connectors provide capabilities: methods,
 * schemas, TypeScript declarations, search documents and per-method policy.
 * They know nothing of replay or the store.
 */
import type { JSONSchema7 } from "ai";

/** How a call is treated on a later pass: `record` returns the journaled result; `reexecute` runs it again (reads only). */
export type ReplayPolicy = "record" | "reexecute";

/** Passed to a method's `execute` on every real (non-replayed) call. */
export interface ConnectorCallContext {
  executionId: string;
  /** Sequence number of this call inside the execution; stable across passes. */
  seq: number;
  /** `${executionId}:${seq}`: stable across passes, use it as an idempotency key downstream. */
  idempotencyKey: string;
  /** Stable id for the AI SDK's `ToolExecutionOptions.toolCallId`. */
  toolCallId: string;
  connector: string;
  method: string;
  /** Aborted when the run is aborted. */
  abortSignal: AbortSignal;
  /** The outer conversation's messages (AI SDK `ModelMessage[]`), when the run came from a tool call. */
  messages: unknown[];
  /** The outer tool context, if any. */
  context: unknown;
}

/** Optionally passed to a `needsApproval` function: the parts of the call context known before the call runs. */
export type ConnectorApprovalContext = Partial<
  Pick<ConnectorCallContext, "executionId" | "seq" | "toolCallId" | "messages" | "context">
>;

/** Passed to `revert` during rollback. */
export interface ConnectorRevertContext {
  executionId: string;
  seq: number;
  idempotencyKey: string;
  connector: string;
  method: string;
}

/** Passed to lifecycle hooks. Hooks must tolerate executions they never touched, and being called twice. */
export interface ConnectorLifecycleContext {
  executionId: string;
  connector: string;
  /** How the pass or execution ended. */
  status: "completed" | "error" | "paused" | "rejected" | "rolled_back";
}

/** Outcome of validating arguments. */
export type ArgumentValidation = { success: true; value: unknown } | { success: false; error: string };

/** The HTTP request a call will send, shown with a pending approval so the approver sees what will run. */
interface CallRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** The absolute URL, query included. */
  url: string;
}

/** One method of a connector. */
export interface ConnectorMethod {
  description?: string;
  /** JSON Schema of the input, used for declarations, search and (without `validate`) validation. */
  inputSchema?: JSONSchema7;
  /** JSON Schema of the output; `unknown` without one. */
  outputSchema?: JSONSchema7;
  /** Validates (and may normalise) arguments before anything runs or is asked. */
  validate?: (args: unknown) => ArgumentValidation | Promise<ArgumentValidation>;
  /**
   * Whether a call needs human approval before it runs. A function receives the
   * validated arguments and, when the caller has it, the call context. @default false
   */
  needsApproval?: boolean | ((args: unknown, context?: ConnectorApprovalContext) => boolean | Promise<boolean>);
  /** @default "record" */
  replay?: ReplayPolicy;
  /**
   * The call only reads: it is still journaled (replay returns its recorded result) but its row costs no store
   * round trip of its own; it travels with the pass's next write. A crash before that write runs the read again.
   * Cannot be combined with `needsApproval`. @default false
   */
  readOnly?: boolean;
  /**
   * An approver may run a pending call of this method with other arguments (approve with changes): the new ones
   * are validated like the program's. Off by default: an edit lets whoever approves choose what runs, so the
   * method's owner opts in (see docs/decisions/approve-with-changes.md). @default false
   */
  editable?: boolean;
  /** Performs the call. A rejection becomes a rejection inside the program. */
  execute: (args: unknown, context: ConnectorCallContext) => unknown;
  /** Compensates an applied call during rollback. */
  revert?: (args: unknown, result: unknown, context: ConnectorRevertContext) => unknown;
  /**
   * The HTTP request a call with these (journaled) arguments will send, for methods that
   * send one (OpenAPI operations): pending approvals carry it as `request`. Must not throw
   * or return credentials; `undefined` when the arguments do not make a request.
   */
  describeRequest?: (args: unknown) => CallRequest | undefined;
  /**
   * Calls of this method one execution may make, over all its passes (a replayed call counts once, where it first
   * ran). The call past it does not run: the run ends with `kind: "limit"`. Fixed for the execution when it starts.
   * @default no budget of its own (the runtime's `limits.maxCalls` still applies)
   */
  maxCalls?: number;
  /**
   * What a call with these arguments costs against the runtime's `limits.maxCost` (e.g. records billed), a finite
   * number >= 0. Synchronous and without effects: it runs before the call, on the program's own arguments; a call
   * whose cost would exceed the budget does not run. A function that throws or returns anything else fails the
   * call (nothing runs). @default no cost (the method's calls count only against call budgets)
   */
  cost?: (args: unknown) => number;
}

/** A tool left out of a connector, with the reason (shown by `describe`). */
export interface SkippedMethod {
  name: string;
  reason: string;
}

/** A namespace of methods plus lifecycle hooks. A hand-written object of this shape is a connector. */
export interface Connector {
  description?: string;
  /** Extra guidance shown to the model for this namespace. */
  instructions?: string;
  methods: Record<string, ConnectorMethod>;
  /**
   * Tools that could not become methods (e.g. a tool without `execute`), with the reason.
   * Filled by `resolveConnector`; shown by `describe` so the developer sees why a method is missing.
   */
  skipped?: SkippedMethod[];
  /** After every pass (completed, failed, paused). Errors are ignored. */
  onPassEnd?: (context: ConnectorLifecycleContext) => unknown;
  /** After completion, error, rejection or rollback; never after a pause. Errors are ignored. */
  disposeExecution?: (context: ConnectorLifecycleContext) => unknown;
}

/** One hit of `codemode.search`. */
export interface SearchResult {
  /** `connector.method` or `snippets.name`. */
  path: string;
  connector: string;
  method: string;
  description?: string;
  kind: "method" | "snippet" | "module";
  score: number;
}

/** Output of `codemode.search(query)`: ranked paths, not schemas. */
export interface SearchOutput {
  results: SearchResult[];
  total: number;
  truncated: boolean;
}

/** Output of `codemode.describe(target)`: TypeScript declarations. */
export interface DescribeOutput {
  path: string;
  description?: string;
  types: string;
  kind: "connector" | "method" | "snippet" | "module";
}
