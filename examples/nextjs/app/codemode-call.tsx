"use client";

import { type CodemodeApprovalDescriptor, type CodemodePartProgress, readCodemodeProgress } from "ai-codemode/ui";
import { Approval } from "./codemode-approval";
import { box, logsPre, pre, STATE_COLOURS } from "./styles";

/** A `tool-codemode` part as useChat holds it. */
export type CodemodePart = {
  type: "tool-codemode";
  toolCallId: string;
  state: string;
  input?: { code?: string };
  output?: { status: string; result?: unknown; logs?: string[]; error?: string; kind?: string };
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string; descriptor?: unknown };
};

/** Answers the approval `approvalId` of message `messageId`. */
export type Answer = (answer: {
  messageId: string;
  approvalId: string;
  approved: boolean;
  reason?: string;
}) => void | Promise<void>;

/** How a call's state reads on the card: a replayed call ran in an earlier pass and was not run again. */
const STATE_LABELS: Record<string, string> = { replayed: "replayed (ran earlier)", pending: "pending approval" };

/** One codemode call: its program, its calls and logs, and the approval, the outcome or the error. */
export function CodemodeCall({
  part,
  messageId,
  busy,
  failed,
  onAnswer,
}: {
  part: CodemodePart;
  /** The message holding the part (an older card's answer is sent with it). */
  messageId: string;
  /** A request is on its way: answers wait for it. */
  busy: boolean;
  /** The last request failed (its error is shown under the chat). */
  failed: boolean;
  onAnswer: Answer;
}) {
  const descriptor = part.approval?.descriptor as CodemodeApprovalDescriptor | undefined;
  const progress = readCodemodeProgress(part);
  const output = part.state === "output-available" && progress?.running !== true ? part.output : undefined;
  // Waiting on calls with nothing run and nothing logged before them: the approval card lists them alone.
  const onlyWaiting =
    part.state === "approval-requested" &&
    progress !== undefined &&
    progress.progress.counts.pending === progress.progress.totalCalls &&
    progress.progress.logs.length === 0;
  const approvalId = part.approval?.id;
  const answer = (approved: boolean, reason?: string) =>
    approvalId === undefined
      ? undefined
      : onAnswer({ messageId, approvalId, approved, ...(reason === undefined ? {} : { reason }) });
  return (
    <div data-testid="codemode-call" data-state={part.state} style={box}>
      <div style={{ fontSize: 12, color: "#555" }}>codemode · {progress?.running ? "running" : part.state}</div>
      <pre data-testid="code" style={pre}>
        {part.input?.code ?? ""}
      </pre>
      {/* The logs once: here until the final output shows them. */}
      {progress && !onlyWaiting ? (
        <Progress
          view={progress}
          showLogs={!(output?.logs && output.logs.length > 0)}
          stopped={part.state === "output-denied"}
        />
      ) : null}
      {part.state === "approval-requested" && descriptor ? (
        <Approval
          descriptor={descriptor}
          code={part.input?.code}
          progress={progress}
          busy={busy}
          approvalId={approvalId ?? ""}
          answer={answer}
        />
      ) : null}
      {part.state === "approval-responded" ? (
        <div data-testid="answered">
          {busy
            ? part.approval?.approved
              ? "Approved, resuming…"
              : "Rejected, stopping…"
            : failed
              ? "Your answer was not delivered (the error is below). Reload the page to see this chat as it is stored."
              : "Answered; waiting for the server…"}
        </div>
      ) : null}
      {output ? <Output output={output} /> : null}
      {part.state === "output-denied" ? (
        <div data-testid="denied" style={{ color: "#b00020" }}>
          Rejected: {part.approval?.reason ?? "not approved"}
        </div>
      ) : null}
      {part.state === "output-error" ? (
        <div data-testid="tool-error" style={{ color: "#b00020" }}>
          {part.errorText}
        </div>
      ) : null}
    </div>
  );
}

function Output({ output }: { output: NonNullable<CodemodePart["output"]> }) {
  return (
    <div data-testid="output" data-status={output.status}>
      {output.logs && output.logs.length > 0 ? (
        <pre data-testid="logs" style={logsPre}>
          {output.logs.join("\n")}
        </pre>
      ) : null}
      {output.status === "completed" ? (
        <pre data-testid="result" style={{ ...pre, background: "#ecfdf5", color: "#065f46" }}>
          {JSON.stringify(output.result, null, 2)}
        </pre>
      ) : (
        <div style={{ color: "#b00020" }}>
          {output.kind}: {output.error}
        </div>
      )}
    </div>
  );
}

/** The program's connector calls and console lines: live while it runs, what it did before a pause, kept after. */
function Progress({
  view,
  showLogs,
  stopped,
}: {
  view: CodemodePartProgress;
  showLogs: boolean;
  /** The approval was rejected: the calls that waited did not run. */
  stopped: boolean;
}) {
  const { progress, running } = view;
  const hidden = progress.totalCalls - progress.calls.length;
  const waiting = progress.counts.pending > 0;
  const stateOf = (state: string) => (stopped && state === "pending" ? "rejected" : state);
  return (
    <div data-testid="progress" data-running={running} style={{ margin: "8px 0", fontSize: 13 }}>
      <div style={{ color: "#555" }}>
        {running ? "Running… " : stopped ? "Stopped after " : waiting ? "Paused after " : ""}
        {progress.totalCalls} call{progress.totalCalls === 1 ? "" : "s"}
        {hidden > 0 ? ` (latest ${progress.calls.length} shown)` : ""}
      </div>
      <ol style={{ margin: "4px 0", paddingLeft: 20 }}>
        {progress.calls.map((call) => (
          <li key={call.seq} data-testid="progress-call" data-state={stateOf(call.state)}>
            <code>{`${call.connector}.${call.method}(${JSON.stringify(call.args)})`}</code>{" "}
            <span style={{ color: STATE_COLOURS[stateOf(call.state)] ?? "#555" }}>
              {STATE_LABELS[stateOf(call.state)] ?? stateOf(call.state)}
            </span>
            {call.durationMs === undefined ? "" : ` · ${call.durationMs} ms`}
          </li>
        ))}
      </ol>
      {showLogs && progress.logs.length > 0 ? (
        <pre data-testid="progress-logs" style={logsPre}>
          {progress.logs.join("\n")}
        </pre>
      ) : null}
    </div>
  );
}
