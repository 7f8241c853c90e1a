/**
 * The `approvalDescriptor` a codemode approval request carries to the client: what the
 * user is asked to allow. The client shows it; the server never trusts it (approvals are
 * verified against the store, see `verify-codemode-approval.ts`).
 */
import type { JSONSchema7 } from "ai";
import type { PendingAction } from "../../runtime/types.js";
import type { CodemodeProgress } from "../codemode-progress.js";

/** Shown next to the stock Approve / Reject buttons: one nested connector call. */
export interface CodemodeApprovalDescriptor {
  /** Connector (sandbox global) of the call, e.g. `github`. */
  connector: string;
  /** Method of the connector, e.g. `merge_pull_request`. */
  method: string;
  /** Arguments the program passed, as recorded in the journal. */
  args: unknown;
  /** Execution the call belongs to. */
  executionId: string;
  /** Sequence number of the call inside the execution. */
  seq: number;
  /** The exact HTTP method and URL the call will request, when its connector sends one (OpenAPI). */
  request?: { method: string; url: string };
  /**
   * The call's method is `editable`: the person may approve it with other arguments
   * (`encodeCodemodeDecisions({ [approvalId]: { approved: true, args } })`). Absent when it is not.
   */
  editable?: boolean;
  /** The method's input schema (JSON Schema), when it is `editable` and has one: a card builds its edit form from it. */
  inputSchema?: JSONSchema7;
  /**
   * Every call of the pause, when it has more than one (a `Promise.all`): each with its own approval id,
   * so the person can decide each one (`encodeCodemodeDecisions`). Absent for a single pending call.
   */
  calls?: CodemodeApprovalCall[];
  /**
   * What the pass that paused had done: its last progress snapshot (calls replayed from earlier passes, calls
   * run in this one, the ones waiting; console lines). Lets a card say that earlier calls already ran. Absent
   * when nothing ran yet (a program awaiting approval) or progress is off (`runtime.tool({ progress: false })`).
   * `readCodemodeProgress(part)` returns it for a part waiting for (or answered on) this approval.
   */
  progress?: CodemodeProgress;
}

/** One pending call of a pause with several, as the approval descriptor lists it. */
export interface CodemodeApprovalCall {
  seq: number;
  connector: string;
  method: string;
  /** The arguments, JSON-safe. */
  args: unknown;
  /** This call's own approval id (a key of the decisions document). */
  approvalId: string;
  /** The call's method is `editable` (see {@link CodemodeApprovalDescriptor.editable}). */
  editable?: boolean;
  /** The method's input schema, when it is `editable` and has one (see {@link CodemodeApprovalDescriptor.inputSchema}). */
  inputSchema?: JSONSchema7;
}

/** The descriptor of a pending action. */
export function toCodemodeApprovalDescriptor(action: PendingAction): CodemodeApprovalDescriptor {
  return {
    connector: action.connector,
    method: action.method,
    args: action.args,
    executionId: action.executionId,
    seq: action.seq,
    ...(action.request === undefined ? {} : { request: { method: action.request.method, url: action.request.url } }),
    ...(action.editable === true ? { editable: true } : {}),
    ...(action.editable === true && action.inputSchema !== undefined ? { inputSchema: action.inputSchema } : {}),
  };
}

/**
 * Whether a value (typically `part.approval.descriptor` on the client) is a codemode
 * approval descriptor. Use it to render nested calls differently from ordinary tool approvals.
 */
export function isCodemodeApprovalDescriptor(value: unknown): value is CodemodeApprovalDescriptor {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record["connector"] === "string" &&
    typeof record["method"] === "string" &&
    typeof record["executionId"] === "string" &&
    typeof record["seq"] === "number" &&
    Number.isInteger(record["seq"]) &&
    "args" in record
  );
}
