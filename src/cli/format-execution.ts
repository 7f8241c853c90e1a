/**
 * The text of `ai-codemode show <id>`: a header, the program with line numbers, then
 * the timeline pass by pass (each call with its arguments, result or error, duration
 * and what happened to it; replays; waits for approval), decisions, logs and outcome.
 */
import type { ExecutionTimeline, TimelineCall } from "../inspector/execution-timeline.js";
import { isProgramApproval } from "../runtime/program-approval.js";
import type { ExecutionDetail } from "../runtime/types.js";
import { formatDuration, formatInstant, formatOffset, inlineValue, terminalSafe } from "./text-format.js";

function programLines(code: string): string[] {
  const lines = terminalSafe(code).split("\n");
  const width = String(lines.length).length;
  return lines.map((line, index) => `  ${String(index + 1).padStart(width)} │ ${line}`.trimEnd());
}

/** The call's state word (the vocabulary of `CallState`), with what a person needs beside it. */
function stateText(call: TimelineCall): string {
  const replays = call.replayedInPasses.length;
  switch (call.state) {
    case "pending":
      return "pending, waiting for approval";
    case "approved":
      return "approved, not run yet";
    case "replayed":
      return `replayed ×${replays}`;
    case "error":
      return replays > 0 ? `error, replayed ×${replays}` : "error";
    default:
      return call.state;
  }
}

function callLines(call: TimelineCall, start: number): string[] {
  const timing = call.startedAt === undefined ? "" : `  ${formatOffset(call.startedAt, start)}`;
  const duration = call.durationMs === undefined ? "" : `  ${formatDuration(call.durationMs)}`;
  const lines = [
    `  #${call.seq} ${terminalSafe(`${call.connector}.${call.method}`)}  ${stateText(call)}${timing}${duration}`,
  ];
  lines.push(`       args    ${inlineValue(call.args)}`);
  // Approved with changes: the program's arguments above, the ones it ran with here.
  if ("approvedArgs" in call)
    lines.push(`       ran with ${inlineValue(call.approvedArgs)}  (changed by the approver)`);
  if (call.error !== undefined) lines.push(`       error   ${inlineValue(call.error)}`);
  else if ("result" in call) lines.push(`       result  ${inlineValue(call.result)}`);
  if (call.cost !== undefined) lines.push(`       cost    ${call.cost}`);
  if (call.decidedBy !== undefined)
    lines.push(`       ${call.state === "rejected" ? "rejected" : "approved"} by ${inlineValue(call.decidedBy)}`);
  if (call.state === "reverted" && call.finishedAt !== undefined)
    lines.push(`       reverted at ${formatOffset(call.finishedAt, start)}`);
  return lines;
}

/** What a call waited for, as a person reads it: the program (its code is printed above) or call `#seq`. */
function waitedFor(call: TimelineCall | undefined, seq: number): string {
  return call?.program === true ? "the program" : `#${seq}`;
}

function waitLine(timeline: ExecutionTimeline, wait: ExecutionTimeline["waits"][number]): string {
  const call = timeline.calls.find((candidate) => candidate.seq === wait.seq);
  const ending =
    call?.state === "rejected" ? ", then rejected" : call?.approvedAt === undefined ? ", then the run ended" : "";
  return wait.to === undefined
    ? `  ⏸ waiting for approval of ${waitedFor(call, wait.seq)} since ${formatOffset(wait.from, timeline.startedAt)}`
    : `  ⏸ waited ${formatDuration(wait.to - wait.from)} for approval of ${waitedFor(call, wait.seq)}${ending}`;
}

function passTrigger(timeline: ExecutionTimeline, pass: ExecutionTimeline["passes"][number]): string {
  if (pass.trigger === "start") return "started";
  const approved = timeline.calls.filter((call) => call.approvedAt === pass.startedAt);
  if (approved.some((call) => call.program)) return "started by the approval of the program";
  return `resumed by the approval of ${approved.map((call) => `#${call.seq}`).join(", ") || "a call"}`;
}

function timelineLines(timeline: ExecutionTimeline): string[] {
  const start = timeline.startedAt;
  // The program's own approval comes before any pass.
  const lines: string[] = timeline.waits.filter((wait) => wait.pass === 0).map((wait) => waitLine(timeline, wait));
  for (const pass of timeline.passes) {
    lines.push(`Pass ${pass.pass}  ${formatOffset(pass.startedAt, start)}  ${passTrigger(timeline, pass)}`);
    const replayed = timeline.calls
      .filter((call) => call.replayedInPasses.includes(pass.pass))
      .map((call) => `#${call.seq}`);
    if (replayed.length > 0) lines.push(`  replayed from the journal: ${replayed.join(", ")}`);
    for (const call of timeline.calls) if (call.pass === pass.pass) lines.push(...callLines(call, start));
    for (const wait of timeline.waits) if (wait.pass === pass.pass) lines.push(waitLine(timeline, wait));
  }
  return lines;
}

function decisionLines(timeline: ExecutionTimeline): string[] {
  return timeline.decisions.map((decision) => {
    const call = timeline.calls.find((candidate) => candidate.seq === decision.seq);
    const target = decision.seq === undefined ? "" : ` ${waitedFor(call, decision.seq)}`;
    const reason = decision.reason === undefined ? "" : `: ${inlineValue(decision.reason)}`;
    const by = decision.decidedBy === undefined ? "" : ` by ${inlineValue(decision.decidedBy)}`;
    return `  ${decision.decision}${target}${by} at ${formatInstant(decision.at)} (${formatOffset(decision.at, timeline.startedAt)})${reason}`;
  });
}

function outcomeLines(detail: ExecutionDetail): string[] {
  if (detail.error !== undefined) return ["Error", `  ${detail.kind ?? "error"}: ${inlineValue(detail.error)}`];
  if (detail.status === "completed") return ["Result", `  ${inlineValue(detail.result)}`];
  if (detail.status === "paused") {
    return [
      "Waiting for approval",
      ...detail.pending.map((action) =>
        isProgramApproval(action)
          ? "  the program above (nothing has run yet)"
          : `  #${action.seq} ${terminalSafe(`${action.connector}.${action.method}`)} ${inlineValue(action.args)}`,
      ),
    ];
  }
  return [];
}

/** Everything `show <id>` prints for an execution. */
export function formatExecution(detail: ExecutionDetail, timeline: ExecutionTimeline): string {
  const calls = detail.calls.filter((call) => !isProgramApproval(call)).length;
  const header = [
    `Execution ${terminalSafe(detail.executionId)}  ${detail.status}  (runtime "${terminalSafe(detail.runtime)}")`,
    `Started ${formatInstant(detail.createdAt)}, last update ${formatInstant(detail.updatedAt)} (${formatOffset(detail.updatedAt, detail.createdAt)}); ` +
      `${detail.passes} pass${detail.passes === 1 ? "" : "es"}, ${calls} call${calls === 1 ? "" : "s"}`,
  ];
  if (detail.workflowRunId !== undefined) header.push(`Workflow run ${terminalSafe(detail.workflowRunId)}`);
  const sections = [header, ["Program", ...programLines(detail.code)], ["Timeline", ...timelineLines(timeline)]];
  if (timeline.decisions.length > 0) sections.push(["Decisions", ...decisionLines(timeline)]);
  if (detail.logs.length > 0) sections.push(["Logs", ...detail.logs.map((line) => `  ${inlineValue(line)}`)]);
  const outcome = outcomeLines(detail);
  if (outcome.length > 0) sections.push(outcome);
  return sections.map((lines) => lines.join("\n")).join("\n\n");
}
