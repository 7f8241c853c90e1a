/**
 * Public types of the durable runtime.
 */
import type { JSONSchema7 } from "ai";
import type { ExecutorFailureKind } from "../sandbox/types.js";
import type { CallStatus } from "./call-state.js";
import type { ProgressListener } from "./pass/progress-events.js";

/** Input of the `codemode` tool. */
export interface CodemodeInput {
  /** An async arrow function, a function body or an expression, in JS or TS. */
  code: string;
}

/** A call waiting for human approval. */
export interface PendingAction {
  executionId: string;
  seq: number;
  connector: string;
  method: string;
  args: unknown;
  /**
   * The exact HTTP method and URL the call will request, for connector methods that send
   * one request (OpenAPI operations): what the approver approves, beside the arguments.
   */
  request?: { method: string; url: string };
  /**
   * The method's policy is `editable: true`: an approver may run the call with other arguments
   * (`approve({ executionId, seq, args })`, or `args` on a `decide` decision). Absent when not editable.
   */
  editable?: boolean;
  /**
   * The method's input schema (JSON Schema), for an `editable` method that has one: what an approver's changed
   * arguments must satisfy, from which a card builds its edit form. Absent otherwise.
   */
  inputSchema?: JSONSchema7;
}

/**
 * A call a person approved with changed arguments: the program's own `args` (what replay matches) and the
 * `approvedArgs` the connector ran with. Listed on every output of the execution's later passes, so the model
 * knows the change was deliberate and does not make the call again with its original arguments.
 */
export interface EditedCall {
  seq: number;
  connector: string;
  method: string;
  /** The arguments the program passed. */
  args: unknown;
  /** The arguments the approver gave, which the connector ran with. */
  approvedArgs: unknown;
}

/**
 * Every way a run can fail. The executor's four plus the runtime's own:
 * - `divergence`: a later pass made a different call at a recorded sequence number.
 * - `rejected`: a human rejected a pending call.
 * - `conflict`: another invocation changed the execution first (e.g. two approvals at once).
 * - `limit`: a journaled value exceeded the size limit or could not be serialized, or a call would have exceeded
 *   the execution's call or cost budget (`limits.maxCalls`, `limits.maxCost`, a method's `maxCalls`).
 * - `connector-missing`: a recorded or requested connector is not configured.
 * - `validation`: arguments failed a method's input schema.
 * - `not-found`: no such execution, call or snippet.
 * - `stale`: the execution is not in a state that allows the request (completed, rejected, …).
 * - `expired`: `expirePaused` ended the execution.
 * - `store`: the database failed; nothing was half-written.
 * - `interrupted`: a call was found `executing` on a later pass (its process died mid-call); it is never run again.
 * - `approval-unreached`: the resumed program ended without reaching a call that was approved (it took another
 *   path); the approved call did not run and is recorded `error`. Never reported as `completed`.
 * - `nothing-to-revert`: a rollback found no applied call it could revert (none has a `revert`, or its connector is
 *   not configured); the execution is unchanged.
 */
export type FailureKind =
  | ExecutorFailureKind
  | "divergence"
  | "rejected"
  | "conflict"
  | "limit"
  | "connector-missing"
  | "validation"
  | "not-found"
  | "stale"
  | "expired"
  | "store"
  | "interrupted"
  | "approval-unreached"
  | "nothing-to-revert";

/**
 * Output of the `codemode` tool and of `execute`/`approve`. A completed output carries `journaled: false` when
 * its result was too large for the journal (over 1,000,000 characters once serialized): the caller has it, the
 * journal keeps a placeholder, so `execution(id)` will not return it.
 */
export type CodemodeOutput =
  | {
      status: "completed";
      executionId: string;
      result: unknown;
      logs?: string[];
      journaled?: false;
      /** Calls a person approved with changed arguments (each with the arguments the program gave and those it ran with); absent when none was. */
      edited?: EditedCall[];
    }
  | { status: "paused"; executionId: string; pending: PendingAction[]; edited?: EditedCall[] }
  | { status: "error"; executionId: string; error: string; kind: FailureKind; logs?: string[]; edited?: EditedCall[] };

/** Life of an execution: `running → paused → running …`, ending in one of the terminal states. */
export type ExecutionStatus = "running" | "paused" | "completed" | "error" | "rejected" | "rolled_back";

/** One journaled connector call or `step`, as shown by `execution(id)`. */
export interface CallRecord {
  seq: number;
  /** Connector name, or `codemode` for `codemode.step`. */
  connector: string;
  /** Method name, or the step name. */
  method: string;
  args: unknown;
  status: CallStatus;
  /** Recorded result (absent for `reexecute` calls and unfinished calls). */
  result?: unknown;
  error?: string;
  replay: "record" | "reexecute";
  needsApproval: boolean;
  /** Set once a human approved a pending call. */
  approvedAt?: number;
  /** Who approved or rejected the call: the `decidedBy` of that `approve`, `reject` or `decide`, when given. */
  decidedBy?: string;
  /** What the call counted against the execution's `limits.maxCost` (its method's `cost(args)`), when it has one. */
  cost?: number;
  /**
   * The arguments the connector ran with, when the approver changed them (`approve({ executionId, seq, args })`);
   * `args` stays the program's own, which replay matches. Absent when the call ran with the program's arguments.
   */
  approvedArgs?: unknown;
  startedAt?: number;
  finishedAt?: number;
  /** Number of passes that returned this call from the journal instead of running it. */
  replayedCount: number;
  /**
   * Whether `rollback` can revert it: this runtime has its connector and the method a `revert` (a runtime opened
   * without the app's connectors, such as the CLI's on a store, says `false`).
   */
  revertible: boolean;
}

/** An execution as listed by `executions()`. */
export interface ExecutionSummary {
  executionId: string;
  /** The runtime name this execution belongs to. */
  runtime: string;
  status: ExecutionStatus;
  code: string;
  createdAt: number;
  updatedAt: number;
  /** Number of passes run so far. */
  passes: number;
  /** The owner given at `execute({ code, scope })`, if any. */
  scope?: string;
  /** The AI SDK tool call that started the execution, if any (approvals in a chat are bound to it). */
  toolCallId?: string;
  error?: string;
  kind?: FailureKind;
}

/** An execution with its call log, as returned by `execution(id)`. Never shown to the model. */
export interface ExecutionDetail extends ExecutionSummary {
  result?: unknown;
  logs: string[];
  pending: PendingAction[];
  calls: CallRecord[];
  connectors: string[];
}

/** A saved program that `codemode.run(name, input)` can call. */
export interface Snippet {
  name: string;
  description?: string;
  code: string;
  /** Connectors the snippet's execution used; all must exist to run it. */
  connectors: string[];
  inputSchema?: unknown;
  executionId: string;
  createdAt: number;
}

/** The input of `execute`: the program, and optionally the owner of the new execution. */
export interface ExecuteInput extends CodemodeInput {
  /**
   * The owner of the execution (e.g. the signed-in user's id, at most 200 characters). Requests with another
   * scope see it as `not-found`; requests without a scope (the server's own view) see every execution.
   */
  scope?: string;
}

/** A request naming an execution (`approve`, `reject`): the call `seq` (or all pending) and the caller's scope. */
export interface ExecutionRequestInput {
  executionId: string;
  seq?: number;
  scope?: string;
  /**
   * Who decides (e.g. the signed-in person's id, at most 200 characters): journaled on every call this request
   * approves or rejects and shown as `CallRecord.decidedBy`. Absent: the journal records no one.
   */
  decidedBy?: string;
}

/**
 * The request of `approve`: the execution (and its owner), and optionally the arguments the call `seq` runs with
 * instead of the program's (approve with changes).
 */
export interface ApproveRequestInput extends ExecutionRequestInput {
  /**
   * Replaces the arguments of the pending call `seq` (required with it): validated against the method's input
   * schema (invalid: a `validation` error, nothing runs), allowed only for a method whose policy is
   * `editable: true`. The journal keeps both argument sets; later passes match the program's own.
   */
  args?: unknown;
}

/** The scope of a listing request (`pending`, `executions`, `execution`). */
export interface ScopeOptions {
  scope?: string;
}

/** Per-call options of `execute`, typically filled from the AI SDK's `ToolExecutionOptions`. */
export interface ExecuteOptions {
  abortSignal?: AbortSignal;
  /** The outer conversation, passed on to connector methods. */
  messages?: unknown[];
  /** The outer tool context, passed on to connector methods. */
  context?: unknown;
  /** The outer tool call id (the `codemode` call), recorded with the execution. */
  toolCallId?: string;
  /**
   * The new execution's id, chosen by the caller instead of generated (at most 200 characters), so a caller that
   * runs the same request again (a retried durable step, a restarted process) finds the same execution. When the
   * id is already in the journal: a run whose process died (`running`, lease expired) with the same program is
   * taken over and replays its journal (every effect at most once); anything else starts nothing
   * (`kind: "conflict"`; read it with `execution(id)`). Only `execute` reads it.
   */
  executionId?: string;
  /** Receives each connector call as it starts and settles, and each console line (never journaled). */
  onProgress?: ProgressListener;
}

/** Result of `rollback`. */
export type RollbackOutput =
  | {
      status: "rolled_back";
      executionId: string;
      reverted: number[];
      skipped: number[];
      errors: Array<{ seq: number; error: string }>;
    }
  | {
      status: "error";
      executionId: string;
      error: string;
      kind: FailureKind;
      reverted: number[];
      skipped: number[];
      errors: Array<{ seq: number; error: string }>;
    };

/**
 * A connector call that took effect in an execution (status `applied`): what a rejection leaves in place.
 * `codemode.step` results and the whole-program approval are not calls with an effect and are not listed.
 */
export interface AppliedCall {
  seq: number;
  connector: string;
  method: string;
  /** The arguments the call ran with: the approver's when they changed them (approve with changes), else the program's. */
  args: unknown;
}

/**
 * Result of `reject`. `applied` lists the execution's calls that had already run, in order: rejection
 * undoes none of them (see `rollback`), so whoever tells the model or the person what happened can name them.
 */
export type RejectOutput =
  | { status: "rejected"; executionId: string; applied: AppliedCall[] }
  | { status: "error"; executionId: string; error: string; kind: FailureKind };

/** One decision about a pending call (`decide`). */
export interface CallDecision {
  seq: number;
  approved: boolean;
  /** Shown to the program in the rejection. */
  reason?: string;
  /** With `approved: true`: the arguments the call runs with instead of the program's (see `ApproveRequestInput.args`). */
  args?: unknown;
}

/** Output of `expirePaused`. */
export interface ExpirePausedOutput {
  expired: Array<{ executionId: string; status: "rejected" | "error" }>;
}

/** Output of `saveSnippet`. */
export type SaveSnippetOutput =
  | { status: "saved"; snippet: Snippet }
  | { status: "error"; error: string; kind: "not-found" | "validation" };
