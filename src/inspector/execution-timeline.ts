/**
 * The timeline of one execution, derived from its public view (`runtime.execution(id)`):
 * its passes, each call placed in the pass that ran (or requested) it, replays, the
 * waits for approval, approvals and the rejection. The CLI prints it; the web page draws it.
 *
 * The journal stores no pass table, so passes are derived: pass 1 starts when the
 * execution was created, and each later pass starts at an approval instant (only an
 * approval starts a new pass). A pending call records no request time, so a wait for
 * approval is drawn from the last journal instant of the pass that paused (for the
 * current pause: the instant it paused) to the approval.
 *
 * A program that had to be approved before it ran (`approveProgram`) has its approval row at
 * call #0 (`codemode.program`): it belongs to no pass (its `pass` is 0), its wait runs from
 * the execution's creation to the decision, and pass 1 starts at its approval.
 */
import { isProgramApproval } from "../runtime/program-approval.js";
import type { CallState, CallStatus } from "../runtime/call-state.js";
import { storedCallState } from "../runtime/stored-call-state.js";
import type { CallRecord, ExecutionDetail, ExecutionStatus } from "../runtime/types.js";

/** One pass (one run of the program). */
interface TimelinePass {
  /** 1-based pass number. */
  pass: number;
  startedAt: number;
  /** Its last journal instant when a later pass followed (it paused there), else the execution's last update. */
  endedAt: number;
  /** What started it: the execution's start or an approval (for pass 1, the program's approval, when it needed one). */
  trigger: "start" | "approval";
}

/** One journaled call on the timeline. */
export interface TimelineCall {
  seq: number;
  connector: string;
  method: string;
  args: unknown;
  /** The arguments the call ran with, when the approver changed them (approve with changes); `args` are the program's. */
  approvedArgs?: unknown;
  result?: unknown;
  error?: string;
  status: CallStatus;
  /** What happened to it, read from `status` and the run (`replayed`, `approved`, `rejected`, `interrupted`). */
  state: CallState;
  needsApproval: boolean;
  /** Whether this is the approval of the whole program (call #0, `codemode.program`, arguments `{ code }`). */
  program: boolean;
  /** Whether `rollback` can revert it (the runtime has its connector and the method a `revert`). */
  revertible: boolean;
  /** The pass that ran the call (or, for a call still pending, requested it); 0 for the program's approval. */
  pass: number;
  startedAt?: number;
  finishedAt?: number;
  durationMs?: number;
  approvedAt?: number;
  /** Who approved or rejected it (`decidedBy` of the request), when given. */
  decidedBy?: string;
  /** What it counted against the execution's `maxCost`, when its method has a `cost`. */
  cost?: number;
  /** For a call that needed approval: the pass that paused on it (0: the program's approval, before any pass). */
  requestedInPass?: number;
  /** Passes that returned this call from the journal instead of running it. */
  replayedInPasses: number[];
}

/** A wait for a human. */
interface TimelineWait {
  seq: number;
  /** The pass that paused on the call; 0 for the program's approval (before pass 1). */
  pass: number;
  from: number;
  /** When the wait ended (approval, rejection or expiry); absent while still waiting. */
  to?: number;
}

/** A human decision. */
interface TimelineDecision {
  decision: "approved" | "rejected" | "rolled_back";
  at: number;
  /** Who decided (`decidedBy` of the approval or rejection), when given; a rollback records no one. */
  decidedBy?: string;
  /** The call approved or rejected (a rollback concerns the whole execution). */
  seq?: number;
  /** The rejection message as recorded (with the reason given). */
  reason?: string;
}

/** Everything the timeline shows. */
export interface ExecutionTimeline {
  executionId: string;
  status: ExecutionStatus;
  startedAt: number;
  endedAt: number;
  /** Every pass that ran (none while a program waits for its approval, or after it was rejected). */
  passes: TimelinePass[];
  calls: TimelineCall[];
  waits: TimelineWait[];
  decisions: TimelineDecision[];
}

/** When each pass started: the first at creation (or at the program's approval), each later one at an approval. */
function passStarts(detail: ExecutionDetail): number[] {
  const program = detail.calls.find(isProgramApproval);
  const approvals = [
    ...new Set(
      detail.calls.flatMap((call) => (call.approvedAt === undefined || call === program ? [] : [call.approvedAt])),
    ),
  ];
  approvals.sort((a, b) => a - b);
  // A program still waiting for its approval, or rejected, never ran: no pass.
  if (program !== undefined && program.approvedAt === undefined) return [];
  const starts = [program?.approvedAt ?? detail.createdAt, ...approvals];
  // Passes the journal cannot place (none expected) share the last known start.
  while (starts.length < detail.passes) starts.push(starts[starts.length - 1] ?? detail.createdAt);
  return starts.slice(0, Math.max(detail.passes, 1));
}

/** The 1-based pass whose start is the latest one at or before `at` (0 when no pass ran). */
function passAt(starts: number[], at: number): number {
  let pass = Math.min(1, starts.length);
  for (let index = 0; index < starts.length; index++) if ((starts[index] ?? 0) <= at) pass = index + 1;
  return pass;
}

/** The pass that ran (or requested) a call. */
function callPass(call: CallRecord, starts: number[]): number {
  if (isProgramApproval(call)) return 0;
  if (call.startedAt !== undefined && call.status !== "pending") return passAt(starts, call.startedAt);
  if (call.approvedAt !== undefined) return Math.max(1, passAt(starts, call.approvedAt) - 1);
  if (call.finishedAt !== undefined && call.status !== "reverted") return passAt(starts, call.finishedAt);
  return starts.length;
}

function timelineCall(call: CallRecord, starts: number[], executionStatus: ExecutionStatus): TimelineCall {
  const pass = callPass(call, starts);
  const replayedInPasses: number[] = [];
  for (let next = pass + 1; next <= starts.length && replayedInPasses.length < call.replayedCount; next++)
    replayedInPasses.push(next);
  const entry: TimelineCall = {
    seq: call.seq,
    connector: call.connector,
    method: call.method,
    args: call.args,
    status: call.status,
    state: storedCallState(call, executionStatus),
    needsApproval: call.needsApproval,
    program: isProgramApproval(call),
    revertible: call.revertible,
    pass,
    replayedInPasses,
  };
  if ("approvedArgs" in call) entry.approvedArgs = call.approvedArgs;
  if ("result" in call) entry.result = call.result;
  if (call.error !== undefined) entry.error = call.error;
  if (call.decidedBy !== undefined) entry.decidedBy = call.decidedBy;
  if (call.cost !== undefined) entry.cost = call.cost;
  if (call.startedAt !== undefined) entry.startedAt = call.startedAt;
  if (call.finishedAt !== undefined) entry.finishedAt = call.finishedAt;
  if (call.startedAt !== undefined && call.finishedAt !== undefined && call.status !== "reverted" && !entry.program) {
    entry.durationMs = Math.max(0, call.finishedAt - call.startedAt);
  }
  if (entry.program) {
    if (call.approvedAt !== undefined) entry.approvedAt = call.approvedAt;
    entry.requestedInPass = 0;
  } else if (call.approvedAt !== undefined) {
    entry.approvedAt = call.approvedAt;
    entry.requestedInPass = Math.max(1, passAt(starts, call.approvedAt) - 1);
  } else if (call.needsApproval && (call.status === "pending" || entry.state === "rejected")) {
    entry.requestedInPass = pass;
  }
  return entry;
}

/** The last journal instant recorded in `pass` (its start when nothing was). */
function lastInstantOf(pass: number, starts: number[], calls: TimelineCall[]): number {
  let last = starts[pass - 1] ?? 0;
  for (const call of calls) {
    // A rejected call's instant is the rejection, not work done in the pass.
    if (call.pass !== pass || call.state === "rejected") continue;
    for (const at of [call.startedAt, call.status === "reverted" ? undefined : call.finishedAt]) {
      if (at !== undefined && at > last) last = at;
    }
  }
  return last;
}

function waitsOf(detail: ExecutionDetail, starts: number[], calls: TimelineCall[]): TimelineWait[] {
  const waits: TimelineWait[] = [];
  for (const call of calls) {
    const pass = call.requestedInPass;
    if (pass === undefined) continue;
    if (call.program) {
      // From the execution's creation to the decision (approval, rejection, expiry), or still waiting.
      const wait: TimelineWait = { seq: call.seq, pass: 0, from: detail.createdAt };
      const to = call.approvedAt ?? (detail.status === "paused" ? undefined : detail.updatedAt);
      if (to !== undefined) wait.to = to;
      waits.push(wait);
    } else if (call.approvedAt !== undefined) {
      waits.push({ seq: call.seq, pass, from: lastInstantOf(pass, starts, calls), to: call.approvedAt });
    } else {
      const from = detail.status === "paused" ? detail.updatedAt : lastInstantOf(pass, starts, calls);
      const wait: TimelineWait = { seq: call.seq, pass, from };
      if (detail.status !== "paused") wait.to = detail.updatedAt;
      waits.push(wait);
    }
  }
  return waits;
}

function decisionsOf(detail: ExecutionDetail, calls: TimelineCall[]): TimelineDecision[] {
  const decisions: TimelineDecision[] = calls.flatMap((call) =>
    call.approvedAt === undefined
      ? []
      : [
          {
            decision: "approved" as const,
            at: call.approvedAt,
            seq: call.seq,
            ...(call.decidedBy === undefined ? {} : { decidedBy: call.decidedBy }),
          },
        ],
  );
  if (detail.status === "rejected" && detail.kind === "rejected") {
    const decision: TimelineDecision = { decision: "rejected", at: detail.updatedAt };
    const rejected = calls.filter((call) => call.state === "rejected");
    if (rejected.length === 1 && rejected[0] !== undefined) decision.seq = rejected[0].seq;
    // One rejection decides every pending call: they all carry the same decidedBy.
    const decidedBy = rejected.find((call) => call.decidedBy !== undefined)?.decidedBy;
    if (decidedBy !== undefined) decision.decidedBy = decidedBy;
    if (detail.error !== undefined) decision.reason = detail.error;
    decisions.push(decision);
  }
  if (detail.status === "rolled_back") decisions.push({ decision: "rolled_back", at: detail.updatedAt });
  return decisions.sort((a, b) => a.at - b.at);
}

/** Derives the timeline of an execution from `runtime.execution(id)`. */
export function executionTimeline(detail: ExecutionDetail): ExecutionTimeline {
  const starts = passStarts(detail);
  const calls = detail.calls.map((call) => timelineCall(call, starts, detail.status)).sort((a, b) => a.seq - b.seq);
  const approvedProgram = calls.some((call) => call.program && call.approvedAt !== undefined);
  let endedAt = detail.updatedAt;
  for (const call of calls)
    for (const at of [call.finishedAt, call.approvedAt]) if (at !== undefined && at > endedAt) endedAt = at;
  // A pass that paused ends at its last journal instant; the wait for approval follows it.
  const passes: TimelinePass[] = starts.map((startedAt, index) => ({
    pass: index + 1,
    startedAt,
    endedAt:
      index + 1 < starts.length
        ? Math.min(starts[index + 1] ?? endedAt, lastInstantOf(index + 1, starts, calls))
        : endedAt,
    trigger: index === 0 && !approvedProgram ? "start" : "approval",
  }));
  return {
    executionId: detail.executionId,
    status: detail.status,
    startedAt: detail.createdAt,
    endedAt,
    passes,
    calls,
    waits: waitsOf(detail, starts, calls),
    decisions: decisionsOf(detail, calls),
  };
}
