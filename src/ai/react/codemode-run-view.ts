/**
 * What a `tool-codemode` UI part shows, read once per change of the part: the program, its calls with their live
 * state, its console lines, the calls waiting for a person (with their input schemas and whether they are
 * `editable`), and the outcome. Pure (no React): `useCodemodeRun` memoizes it per part, and keeps the objects of
 * calls that did not change from one snapshot to the next, so a row component memoized on its call re-renders only
 * when that call changed (a 200-call run streams without re-rendering 200 rows per chunk).
 */
import type { CallState } from "../../runtime/call-state.js";
import type { CodemodeProgress } from "../codemode-progress.js";
import { type CodemodeApprovalDescriptor, isCodemodeApprovalDescriptor } from "../ui/approval-descriptor.js";
import { parseCodemodeDecisions } from "../ui/codemode-decisions.js";
import { readCodemodeProgress } from "../ui/read-codemode-progress.js";
import { type CodemodeRunOutcome, outcomeOf, sameOutcome } from "./codemode-run-outcome.js";

/** One connector call of the run as the card lists it. */
export interface CodemodeRunCall {
  seq: number;
  connector: string;
  method: string;
  /** The arguments as JSON (longer than 1,000 characters: `{ preview }`, the start of their JSON). */
  args: unknown;
  /**
   * Where the call stands (docs/durability.md#call-states): `executing`, `applied`, `replayed`, `pending`,
   * `error` and `rejected` as the run reported them; `approved` / `rejected` once a person answered a pending call
   * on this card and the server has not yet reported back.
   */
  state: CallState;
  /** Milliseconds the call took on its pass (absent while executing and for replayed calls). */
  durationMs?: number;
  /** The error text, for `error` and `rejected`. */
  error?: string;
}

/** A JSON Schema object (draft-07) as the approval request carries it. */
type CodemodeInputSchema = Record<string, unknown>;

/** A call that waits for a person: what to show and what to answer with. */
export interface CodemodePendingCall {
  /** The id a decision about this call is keyed by (`useCodemodeDecisions`). */
  approvalId: string;
  seq: number;
  connector: string;
  method: string;
  /** The arguments the program passed, JSON-safe. */
  args: unknown;
  /** The person may approve it with other arguments (the method's policy sets `editable: true`). */
  editable: boolean;
  /** The method's input schema, when it is `editable` and has one: an edit form is generated from it. */
  inputSchema?: CodemodeInputSchema;
  /** The exact HTTP request the call will send, when its connector says (OpenAPI operations). */
  request?: { method: string; url: string };
  /** The whole program waits for approval before it runs (`codemode.program`, sequence 0); `args.code` is it. */
  program: boolean;
}

/** What `useCodemodeRun(part)` returns. */
export interface CodemodeRunView {
  /** The tool call the part belongs to. */
  toolCallId: string | undefined;
  /** The execution, once the run reported it (a program waiting for approval before it runs: from the request). */
  executionId: string | undefined;
  /** The program (partial while the model writes it). */
  code: string;
  /** The latest calls, in the order they started (at most the snapshot's `maxCalls`; see `totalCalls`). */
  calls: readonly CodemodeRunCall[];
  /** Every call reported so far, including those no longer in `calls`. */
  totalCalls: number;
  /** Calls in each state, over all calls. */
  counts: Readonly<Record<CallState, number>>;
  /** The console lines (the latest, while running; all of them kept with the final output when it has them). */
  logs: readonly string[];
  /** Every console line reported so far. */
  totalLogs: number;
  /** The calls waiting for a person's decision (empty unless `outcome.status` is `awaiting-approval`). */
  pending: readonly CodemodePendingCall[];
  /**
   * The approval the part holds (the id `useChat` answers) while it waits or was answered; absent otherwise. With
   * several pending calls it is the first call's id, and each call has its own (`pending[].approvalId`).
   */
  approvalId: string | undefined;
  /** How the run stands. */
  outcome: CodemodeRunOutcome;
}

const EMPTY_COUNTS: Readonly<Record<CallState, number>> = Object.freeze({
  executing: 0,
  applied: 0,
  replayed: 0,
  pending: 0,
  approved: 0,
  rejected: 0,
  error: 0,
  reverted: 0,
  interrupted: 0,
});
const NO_CALLS: readonly CodemodeRunCall[] = Object.freeze([]);
const NO_LOGS: readonly string[] = Object.freeze([]);
const NO_PENDING: readonly CodemodePendingCall[] = Object.freeze([]);

type PartRecord = Record<string, unknown>;

function recordOf(value: unknown): PartRecord | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as PartRecord) : undefined;
}

/**
 * The view of a codemode tool part. `previous` (the view of the same part before this change) lets unchanged calls
 * keep their objects, and an unchanged part its whole view.
 */
export function readCodemodeRun(part: unknown, previous?: CodemodeRunView): CodemodeRunView {
  const record = recordOf(part) ?? {};
  const state = record["state"];
  const approval = recordOf(record["approval"]);
  const descriptor = isCodemodeApprovalDescriptor(approval?.["descriptor"])
    ? (approval["descriptor"] as CodemodeApprovalDescriptor)
    : undefined;
  const approvalId = typeof approval?.["id"] === "string" && approval["id"] !== "" ? approval["id"] : undefined;
  const progressView = readCodemodeProgress(part);
  const progress = progressView?.progress;
  const outcome = outcomeOf(record, approval);
  const answered = answeredStates(state, approval, descriptor, approvalId);
  const calls = sharedCalls(progress, answered, previous?.calls);
  const pending =
    state === "approval-requested" && descriptor !== undefined && approvalId !== undefined
      ? pendingCalls(descriptor, approvalId, previous?.pending)
      : NO_PENDING;
  const output = recordOf(record["output"]);
  const finalLogs = state === "output-available" && progressView?.running !== true ? output?.["logs"] : undefined;
  const logs = Array.isArray(finalLogs) && finalLogs.length > 0 ? (finalLogs as string[]) : (progress?.logs ?? NO_LOGS);
  const input = recordOf(record["input"]);
  const view: CodemodeRunView = {
    toolCallId: typeof record["toolCallId"] === "string" ? record["toolCallId"] : undefined,
    executionId: executionIdOf(progress, descriptor, output),
    code: typeof input?.["code"] === "string" ? input["code"] : "",
    calls,
    totalCalls: progress?.totalCalls ?? 0,
    counts: countsOf(progress, answered),
    logs: sameLines(logs, previous?.logs),
    totalLogs: Math.max(progress?.totalLogs ?? 0, logs.length),
    pending,
    approvalId: state === "approval-requested" || state === "approval-responded" ? approvalId : undefined,
    outcome: previous !== undefined && sameOutcome(previous.outcome, outcome) ? previous.outcome : outcome,
  };
  return previous !== undefined && sameView(previous, view) ? previous : view;
}

function executionIdOf(
  progress: CodemodeProgress | undefined,
  descriptor: CodemodeApprovalDescriptor | undefined,
  output: PartRecord | undefined,
): string | undefined {
  if (progress?.executionId !== undefined) return progress.executionId;
  if (descriptor !== undefined) return descriptor.executionId;
  return typeof output?.["executionId"] === "string" ? output["executionId"] : undefined;
}

/**
 * The state a pending call takes on this card once the person answered and the server has not reported back
 * (`approved` / `rejected`), or once the run stopped on a rejection (`rejected`), by sequence number.
 */
function answeredStates(
  state: unknown,
  approval: PartRecord | undefined,
  descriptor: CodemodeApprovalDescriptor | undefined,
  approvalId: string | undefined,
): Map<number, CallState> | undefined {
  if (state === "output-denied") return new Map([[-1, "rejected"]]);
  if (state !== "approval-responded" || descriptor === undefined) return undefined;
  const approved = approval?.["approved"] === true;
  if (!approved) return new Map([[-1, "rejected"]]);
  const decisions = parseCodemodeDecisions(approval?.["reason"]);
  const states = new Map<number, CallState>();
  if (decisions === undefined) {
    states.set(descriptor.seq, "approved");
    return states;
  }
  const calls = descriptor.calls ?? [{ seq: descriptor.seq, approvalId: approvalId ?? "" }];
  for (const call of calls) {
    const decision = decisions.get(call.approvalId);
    if (decision !== undefined) states.set(call.seq, decision === false ? "rejected" : "approved");
  }
  return states;
}

function answeredState(call: { seq: number; state: CallState }, answered: Map<number, CallState> | undefined) {
  if (answered === undefined || call.state !== "pending") return call.state;
  return answered.get(call.seq) ?? answered.get(-1) ?? call.state;
}

function countsOf(
  progress: CodemodeProgress | undefined,
  answered: Map<number, CallState> | undefined,
): Readonly<Record<CallState, number>> {
  if (progress === undefined) return EMPTY_COUNTS;
  const counts = { ...EMPTY_COUNTS, ...progress.counts };
  if (answered !== undefined) {
    for (const call of progress.calls) {
      const shown = answeredState(call, answered);
      if (shown === call.state) continue;
      counts.pending -= 1;
      counts[shown] += 1;
    }
  }
  return counts;
}

/** The calls of a snapshot, each the previous object when nothing about it changed (a call's arguments never do). */
function sharedCalls(
  progress: CodemodeProgress | undefined,
  answered: Map<number, CallState> | undefined,
  previous: readonly CodemodeRunCall[] | undefined,
): readonly CodemodeRunCall[] {
  if (progress === undefined || progress.calls.length === 0) return NO_CALLS;
  const before = new Map<number, CodemodeRunCall>();
  for (const call of previous ?? NO_CALLS) before.set(call.seq, call);
  let unchanged = previous !== undefined && previous.length === progress.calls.length;
  const calls = progress.calls.map((reported, index) => {
    const state = answeredState(reported, answered);
    const old = before.get(reported.seq);
    if (
      old !== undefined &&
      old.state === state &&
      old.durationMs === reported.durationMs &&
      old.error === reported.error &&
      old.connector === reported.connector &&
      old.method === reported.method
    ) {
      if (previous?.[index] !== old) unchanged = false;
      return old;
    }
    unchanged = false;
    const call: CodemodeRunCall = {
      seq: reported.seq,
      connector: reported.connector,
      method: reported.method,
      args: reported.args,
      state,
    };
    if (reported.durationMs !== undefined) call.durationMs = reported.durationMs;
    if (reported.error !== undefined) call.error = reported.error;
    return call;
  });
  return unchanged && previous !== undefined ? previous : calls;
}

function pendingCalls(
  descriptor: CodemodeApprovalDescriptor,
  approvalId: string,
  previous: readonly CodemodePendingCall[] | undefined,
): readonly CodemodePendingCall[] {
  const program = descriptor.connector === "codemode" && descriptor.method === "program";
  const listed = descriptor.calls ?? [{ ...descriptor, approvalId }];
  const calls = listed.map((call): CodemodePendingCall => {
    const pending: CodemodePendingCall = {
      approvalId: call.approvalId,
      seq: call.seq,
      connector: call.connector,
      method: call.method,
      args: call.args,
      editable: call.editable === true,
      program,
    };
    const schema = recordOf(call.inputSchema);
    if (call.editable === true && schema !== undefined) pending.inputSchema = schema;
    const request = call.seq === descriptor.seq ? descriptor.request : undefined;
    if (request !== undefined) pending.request = request;
    return pending;
  });
  if (
    previous !== undefined &&
    previous.length === calls.length &&
    previous.every((call, index) => call.approvalId === calls[index]?.approvalId)
  )
    return previous;
  return calls;
}

function sameLines(lines: readonly string[], previous: readonly string[] | undefined): readonly string[] {
  if (previous === undefined || previous.length !== lines.length) return lines;
  for (let index = 0; index < lines.length; index += 1) if (previous[index] !== lines[index]) return lines;
  return previous;
}

function sameView(a: CodemodeRunView, b: CodemodeRunView): boolean {
  return (
    a.toolCallId === b.toolCallId &&
    a.executionId === b.executionId &&
    a.code === b.code &&
    a.calls === b.calls &&
    a.totalCalls === b.totalCalls &&
    a.logs === b.logs &&
    a.totalLogs === b.totalLogs &&
    a.pending === b.pending &&
    a.approvalId === b.approvalId &&
    a.outcome === b.outcome &&
    sameCounts(a.counts, b.counts)
  );
}

function sameCounts(a: Readonly<Record<CallState, number>>, b: Readonly<Record<CallState, number>>): boolean {
  for (const key of Object.keys(EMPTY_COUNTS) as CallState[]) if (a[key] !== b[key]) return false;
  return true;
}
