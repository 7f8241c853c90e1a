"use client";

import {
  type CodemodeApprovalCall,
  type CodemodeApprovalDescriptor,
  type CodemodePartProgress,
  encodeCodemodeDecisions,
  readCodemodeProgress,
} from "ai-codemode/ui";
import { type CSSProperties, useState } from "react";

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

const box: CSSProperties = {
  background: "#fff",
  border: "1px solid #d0d4da",
  borderRadius: 6,
  padding: 12,
  margin: "8px 0",
};
const pre: CSSProperties = {
  background: "#0f172a",
  color: "#e2e8f0",
  padding: 10,
  borderRadius: 4,
  overflowX: "auto",
  fontSize: 13,
};
const logsPre: CSSProperties = { ...pre, background: "#f1f5f9", color: "#334155" };
const panel: CSSProperties = { border: "2px solid #f59e0b", borderRadius: 6, padding: 10, background: "#fffbeb" };
const argsPre: CSSProperties = { ...pre, background: "#fef3c7", color: "#1c1e21" };
const note: CSSProperties = { fontSize: 12, color: "#666" };
const STATE_COLOURS: Record<string, string> = {
  running: "#2563eb",
  done: "#059669",
  replayed: "#64748b",
  "needs-approval": "#d97706",
  rejected: "#b00020",
  failed: "#b00020",
};
/** How a call's state reads on the card: a replayed call ran in an earlier pass and was not run again. */
const STATE_LABELS: Record<string, string> = { replayed: "done earlier", "needs-approval": "needs approval" };
const WAIT_FOR_REPLY = "Wait for the current reply to finish before answering.";

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
    progress.progress.counts["needs-approval"] === progress.progress.totalCalls &&
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
  const waiting = progress.counts["needs-approval"] > 0;
  const stateOf = (state: string) => (stopped && state === "needs-approval" ? "rejected" : state);
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

/** One approval: the whole program, one call, or several calls of a Promise.all decided together. */
function Approval({
  descriptor,
  code,
  progress,
  busy,
  approvalId,
  answer,
}: {
  descriptor: CodemodeApprovalDescriptor;
  /** The program shown above the card. */
  code: string | undefined;
  progress: CodemodePartProgress | undefined;
  busy: boolean;
  approvalId: string;
  answer: (approved: boolean, reason?: string) => void;
}) {
  const isProgram = descriptor.connector === "codemode" && descriptor.method === "program";
  const programCode = isProgram ? ((descriptor.args as { code?: string }).code ?? "") : "";
  const counts = progress?.progress.counts;
  const ran = counts === undefined ? 0 : counts.done + counts.replayed;
  return (
    <div data-testid="approval" style={panel}>
      {isProgram ? (
        <>
          <div>
            Run the program above? Nothing has run yet. <code data-testid="approval-call">codemode.program</code>
          </div>
          {/* The code to approve is the code above; shown again only if it were not. */}
          {programCode === code ? null : (
            <>
              <div style={{ color: "#b00020" }}>The program waiting for approval differs from the one shown above:</div>
              <pre data-testid="approval-program" style={argsPre}>
                {programCode}
              </pre>
            </>
          )}
        </>
      ) : descriptor.calls ? (
        <Decisions approvalId={approvalId} calls={descriptor.calls} busy={busy} answer={answer} />
      ) : (
        <>
          <div>
            Approve <code data-testid="approval-call">{`${descriptor.connector}.${descriptor.method}`}</code>?
          </div>
          <pre data-testid="approval-args" style={argsPre}>
            {JSON.stringify(descriptor.args, null, 2)}
          </pre>
        </>
      )}
      {ran > 0 ? (
        <div data-testid="already-ran" style={{ fontSize: 13 }}>
          This execution already ran {ran} call{ran === 1 ? "" : "s"} (listed above). Rejecting stops the program; it
          does not undo them.
        </div>
      ) : null}
      <div style={note}>
        execution {descriptor.executionId} ·{" "}
        {isProgram
          ? "the whole program, before it runs"
          : descriptor.calls
            ? `calls ${descriptor.calls.map((call) => call.seq).join(", ")}`
            : `call ${descriptor.seq}`}
      </div>
      {descriptor.calls ? null : (
        <div style={{ display: "flex", gap: 8, marginTop: 8, alignItems: "center" }}>
          <button type="button" data-testid="approve" disabled={busy} onClick={() => answer(true)}>
            Approve
          </button>
          <button type="button" data-testid="reject" disabled={busy} onClick={() => answer(false)}>
            Reject
          </button>
          {busy ? <WaitNote /> : null}
        </div>
      )}
    </div>
  );
}

function WaitNote() {
  return (
    <span data-testid="approval-disabled-reason" style={note}>
      {WAIT_FOR_REPLY}
    </span>
  );
}

/** Several pending calls: approve all, reject all, or decide each, answered in one request. */
function Decisions({
  approvalId,
  calls,
  busy,
  answer,
}: {
  approvalId: string;
  calls: CodemodeApprovalCall[];
  busy: boolean;
  answer: (approved: boolean, reason?: string) => void;
}) {
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const send = (decisions: Record<string, boolean>) => answer(true, encodeCodemodeDecisions(decisions));
  const all = (approved: boolean) => Object.fromEntries(calls.map((call) => [call.approvalId, approved]));
  return (
    <div data-testid="decisions" data-approval-id={approvalId}>
      <div>{calls.length} calls wait for approval (unanswered ones stay pending):</div>
      {calls.map((call) => (
        <div
          key={call.approvalId}
          data-testid="decision"
          data-seq={call.seq}
          style={{ display: "flex", gap: 8, alignItems: "center", margin: "4px 0" }}
        >
          <code style={{ flex: 1 }}>{`${call.connector}.${call.method}(${JSON.stringify(call.args)})`}</code>
          {[true, false].map((approved) => (
            <label key={String(approved)}>
              <input
                type="radio"
                data-testid={approved ? "decide-approve" : "decide-reject"}
                name={call.approvalId}
                checked={chosen[call.approvalId] === approved}
                onChange={() => setChosen({ ...chosen, [call.approvalId]: approved })}
              />
              {approved ? "approve" : "reject"}
            </label>
          ))}
        </div>
      ))}
      <div style={{ display: "flex", gap: 8, marginTop: 8, alignItems: "center", flexWrap: "wrap" }}>
        <button type="button" data-testid="approve-all" disabled={busy} onClick={() => send(all(true))}>
          Approve all
        </button>
        <button type="button" data-testid="reject-all" disabled={busy} onClick={() => send(all(false))}>
          Reject all
        </button>
        <button
          type="button"
          data-testid="submit-decisions"
          disabled={busy || Object.keys(chosen).length === 0}
          onClick={() => send(chosen)}
        >
          Submit decisions
        </button>
        <button type="button" data-testid="reject" disabled={busy} onClick={() => answer(false)}>
          Stop the program
        </button>
        {busy ? <WaitNote /> : null}
      </div>
    </div>
  );
}
