"use client";

import {
  type CodemodeApprovalCall,
  type CodemodeApprovalDescriptor,
  type CodemodePartProgress,
  encodeCodemodeDecisions,
} from "ai-codemode/ui";
import { useState } from "react";
import { argsPre, note, panel } from "./styles";

const WAIT_FOR_REPLY = "Wait for the current reply to finish before answering.";

/** One approval: the whole program, one call, or several calls of a Promise.all decided together. */
export function Approval({
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
  const ran = counts === undefined ? 0 : counts.applied + counts.replayed;
  // Approve with changes (an `editable` method): the arguments as the person left them, or why they cannot be sent.
  const [edit, setEdit] = useState<Edit>({ changed: false });
  const approve = () => {
    if (!edit.changed) return answer(true);
    if ("error" in edit) return;
    // The edit travels under this call's own approval id; the server checks the method is editable and the arguments valid.
    answer(true, encodeCodemodeDecisions({ [approvalId]: { approved: true, args: edit.args } }));
  };
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
          {descriptor.editable ? (
            <ArgsEditor key={approvalId} args={descriptor.args} busy={busy} onChange={setEdit} />
          ) : (
            <pre data-testid="approval-args" style={argsPre}>
              {JSON.stringify(descriptor.args, null, 2)}
            </pre>
          )}
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
          <button
            type="button"
            data-testid="approve"
            disabled={busy || (edit.changed && "error" in edit)}
            onClick={approve}
          >
            {isProgram ? "Approve and run the program" : edit.changed ? "Approve with these arguments" : "Approve"}
          </button>
          <button type="button" data-testid="reject" disabled={busy} onClick={() => answer(false)}>
            {isProgram ? "Reject the program" : "Reject and stop the program"}
          </button>
          {busy ? <WaitNote /> : null}
        </div>
      )}
    </div>
  );
}

/** The arguments as the person edits them: unchanged, changed (parsed), or not valid JSON. */
type Edit = { changed: false } | { changed: true; args: unknown } | { changed: true; error: string };

/** A pending call's arguments as JSON the person may change before approving. */
function ArgsEditor({ args, busy, onChange }: { args: unknown; busy: boolean; onChange: (edit: Edit) => void }) {
  const original = JSON.stringify(args, null, 2);
  const [text, setText] = useState(original);
  const [error, setError] = useState<string | undefined>(undefined);
  const change = (next: string) => {
    setText(next);
    if (next === original) {
      setError(undefined);
      return onChange({ changed: false });
    }
    try {
      const parsed: unknown = JSON.parse(next);
      setError(undefined);
      onChange({ changed: true, args: parsed });
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      setError(message);
      onChange({ changed: true, error: message });
    }
  };
  return (
    <label style={{ display: "block" }}>
      <span style={note}>Arguments (JSON) — you may change them before approving:</span>
      <textarea
        data-testid="approval-args-edit"
        aria-label="Arguments of the call, as JSON"
        value={text}
        disabled={busy}
        spellCheck={false}
        rows={Math.min(12, original.split("\n").length + 1)}
        onChange={(event) => change(event.target.value)}
        style={{ ...argsPre, display: "block", width: "100%", boxSizing: "border-box", fontFamily: "monospace" }}
      />
      {text === original ? null : (
        <span data-testid="approval-args-original" style={{ ...note, display: "block" }}>
          The program asked for {JSON.stringify(args)}; the call will run with the arguments above.
        </span>
      )}
      {error === undefined ? null : (
        <span data-testid="approval-args-error" style={{ ...note, color: "#b00020" }}>
          Not valid JSON: {error}
        </span>
      )}
    </label>
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
              {approved ? "approve" : "reject (the program gets an error)"}
            </label>
          ))}
        </div>
      ))}
      <div style={{ display: "flex", gap: 8, marginTop: 8, alignItems: "center", flexWrap: "wrap" }}>
        <button type="button" data-testid="approve-all" disabled={busy} onClick={() => send(all(true))}>
          Approve all {calls.length}
        </button>
        <button type="button" data-testid="reject-all" disabled={busy} onClick={() => send(all(false))}>
          Reject all (the program gets errors)
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
