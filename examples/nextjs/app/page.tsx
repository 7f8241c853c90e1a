"use client";

import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import {
  encodeCodemodeDecisions,
  readCodemodeProgress,
  type CodemodeApprovalCall,
  type CodemodeApprovalDescriptor,
} from "ai-codemode/ui";
import { useState, type CSSProperties } from "react";

type CodemodePart = {
  type: "tool-codemode";
  toolCallId: string;
  state: string;
  input?: { code?: string };
  output?: { status: string; result?: unknown; logs?: string[]; error?: string; kind?: string };
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string; descriptor?: unknown };
};

type Descriptor = CodemodeApprovalDescriptor;

type Answer = (approvalId: string, approved: boolean, reason?: string) => void;

export default function Page() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");

  return (
    <main style={{ maxWidth: 760, margin: "0 auto", padding: "24px 16px" }}>
      <h1 style={{ fontSize: 20 }}>ai-codemode: approvals in useChat</h1>
      <p style={{ color: "#555", marginTop: -8 }}>
        The model writes one program; calls that need a human pause it until you approve or reject them.
      </p>
      {messages.map((message) => (
        <Message
          key={message.id}
          message={message}
          onAnswer={(id, approved, reason) =>
            addToolApprovalResponse({ id, approved, ...(reason === undefined ? {} : { reason }) })
          }
        />
      ))}
      {error ? (
        <p data-testid="chat-error" style={{ color: "#b00020" }}>
          {error.message}
        </p>
      ) : null}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim() === "") return;
          void sendMessage({ text: input });
          setInput("");
        }}
        style={{ display: "flex", gap: 8, marginTop: 16 }}
      >
        <input
          data-testid="prompt"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder='Try "Merge pull request 42", "Review the pull requests", "Merge 42, 43 and 44 at once"'
          style={{ flex: 1, padding: 8, fontSize: 15 }}
        />
        <button type="submit" disabled={status !== "ready"} style={{ padding: "8px 16px" }}>
          Send
        </button>
      </form>
      <p data-testid="status" style={{ color: "#888", fontSize: 12 }}>
        {status}
      </p>
    </main>
  );
}

function Message({ message, onAnswer }: { message: UIMessage; onAnswer: Answer }) {
  return (
    <section data-testid={`message-${message.role}`} style={{ margin: "12px 0" }}>
      <strong>{message.role === "user" ? "You" : "Assistant"}</strong>
      {message.parts.map((part, index) => {
        if (part.type === "text")
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a text part has no id; parts are appended, never reordered.
            <p key={index} data-testid="text">
              {part.text}
            </p>
          );
        if (part.type === "tool-codemode") {
          const codemodePart = part as unknown as CodemodePart;
          return <CodemodeCall key={codemodePart.toolCallId} part={codemodePart} onAnswer={onAnswer} />;
        }
        return null;
      })}
    </section>
  );
}

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

function CodemodeCall({ part, onAnswer }: { part: CodemodePart; onAnswer: Answer }) {
  const descriptor = part.approval?.descriptor as Descriptor | undefined;
  const progress = readCodemodeProgress(part);
  return (
    <div data-testid="codemode-call" data-state={part.state} style={box}>
      <div style={{ fontSize: 12, color: "#555" }}>codemode · {progress?.running ? "running" : part.state}</div>
      <pre data-testid="code" style={pre}>
        {part.input?.code ?? ""}
      </pre>
      {progress ? <Progress view={progress} /> : null}
      {part.state === "approval-requested" && part.approval && descriptor ? (
        <Approval approvalId={part.approval.id} descriptor={descriptor} onAnswer={onAnswer} />
      ) : null}
      {part.state === "approval-responded" ? (
        <div data-testid="answered">{part.approval?.approved ? "Approved, resuming…" : "Rejected, stopping…"}</div>
      ) : null}
      {part.state === "output-available" && part.output && progress?.running !== true ? (
        <Output output={part.output} />
      ) : null}
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
        <pre data-testid="logs" style={{ ...pre, background: "#f1f5f9", color: "#334155" }}>
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

const panel: CSSProperties = { border: "2px solid #f59e0b", borderRadius: 6, padding: 10, background: "#fffbeb" };
const argsPre: CSSProperties = { ...pre, background: "#fef3c7", color: "#1c1e21" };
const STATE_COLOURS: Record<string, string> = {
  running: "#2563eb",
  done: "#059669",
  replayed: "#64748b",
  "needs-approval": "#d97706",
  rejected: "#b00020",
  failed: "#b00020",
};

/** The program's connector calls and console lines, live while it runs (preliminary results), kept after. */
function Progress({ view }: { view: NonNullable<ReturnType<typeof readCodemodeProgress>> }) {
  const { progress, running } = view;
  const hidden = progress.totalCalls - progress.calls.length;
  return (
    <div data-testid="progress" data-running={running} style={{ margin: "8px 0", fontSize: 13 }}>
      <div style={{ color: "#555" }}>
        {running ? "Running… " : ""}
        {progress.totalCalls} call{progress.totalCalls === 1 ? "" : "s"}
        {hidden > 0 ? ` (latest ${progress.calls.length} shown)` : ""}
      </div>
      <ol style={{ margin: "4px 0", paddingLeft: 20 }}>
        {progress.calls.map((call) => (
          <li key={call.seq} data-testid="progress-call" data-state={call.state}>
            <code>{`${call.connector}.${call.method}(${JSON.stringify(call.args)})`}</code>{" "}
            <span style={{ color: STATE_COLOURS[call.state] ?? "#555" }}>{call.state}</span>
            {call.durationMs === undefined ? "" : ` · ${call.durationMs} ms`}
          </li>
        ))}
      </ol>
      {progress.logs.length > 0 ? (
        <pre data-testid="progress-logs" style={{ ...pre, background: "#f1f5f9", color: "#334155" }}>
          {progress.logs.join("\n")}
        </pre>
      ) : null}
    </div>
  );
}

/** One approval: the whole program, one call, or several calls of a Promise.all decided together. */
function Approval({
  approvalId,
  descriptor,
  onAnswer,
}: {
  approvalId: string;
  descriptor: Descriptor;
  onAnswer: Answer;
}) {
  const isProgram = descriptor.connector === "codemode" && descriptor.method === "program";
  return (
    <div data-testid="approval" style={panel}>
      {isProgram ? (
        <>
          <div>
            Run this program? <code data-testid="approval-call">codemode.program</code>
          </div>
          <pre data-testid="approval-program" style={argsPre}>
            {(descriptor.args as { code?: string }).code ?? ""}
          </pre>
        </>
      ) : descriptor.calls ? (
        <Decisions approvalId={approvalId} calls={descriptor.calls} onAnswer={onAnswer} />
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
      <div style={{ fontSize: 12, color: "#666" }}>
        execution {descriptor.executionId} · call {descriptor.seq}
      </div>
      {descriptor.calls ? null : (
        <div style={{ display: "flex", gap: 8, marginTop: 8 }}>
          <button type="button" data-testid="approve" onClick={() => onAnswer(approvalId, true)}>
            Approve
          </button>
          <button type="button" data-testid="reject" onClick={() => onAnswer(approvalId, false)}>
            Reject
          </button>
        </div>
      )}
    </div>
  );
}

/** Several pending calls: approve all, reject all, or decide each, answered in one request. */
function Decisions({
  approvalId,
  calls,
  onAnswer,
}: {
  approvalId: string;
  calls: CodemodeApprovalCall[];
  onAnswer: Answer;
}) {
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const send = (decisions: Record<string, boolean>) => onAnswer(approvalId, true, encodeCodemodeDecisions(decisions));
  const all = (approved: boolean) => Object.fromEntries(calls.map((call) => [call.approvalId, approved]));
  return (
    <div data-testid="decisions">
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
      <div style={{ display: "flex", gap: 8, marginTop: 8 }}>
        <button type="button" data-testid="approve-all" onClick={() => send(all(true))}>
          Approve all
        </button>
        <button type="button" data-testid="reject-all" onClick={() => send(all(false))}>
          Reject all
        </button>
        <button
          type="button"
          data-testid="submit-decisions"
          disabled={Object.keys(chosen).length === 0}
          onClick={() => send(chosen)}
        >
          Submit decisions
        </button>
        <button type="button" data-testid="reject" onClick={() => onAnswer(approvalId, false)}>
          Stop the program
        </button>
      </div>
    </div>
  );
}
