"use client";

import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
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

type Descriptor = { connector: string; method: string; args: unknown; executionId: string; seq: number };

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
        <Message key={message.id} message={message} onAnswer={(id, approved) => addToolApprovalResponse({ id, approved })} />
      ))}
      {error ? <p data-testid="chat-error" style={{ color: "#b00020" }}>{error.message}</p> : null}
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
          placeholder='Try "Merge pull request 42"'
          style={{ flex: 1, padding: 8, fontSize: 15 }}
        />
        <button type="submit" disabled={status !== "ready"} style={{ padding: "8px 16px" }}>
          Send
        </button>
      </form>
      <p data-testid="status" style={{ color: "#888", fontSize: 12 }}>{status}</p>
    </main>
  );
}

function Message({ message, onAnswer }: { message: UIMessage; onAnswer: (approvalId: string, approved: boolean) => void }) {
  return (
    <section data-testid={`message-${message.role}`} style={{ margin: "12px 0" }}>
      <strong>{message.role === "user" ? "You" : "Assistant"}</strong>
      {message.parts.map((part, index) => {
        if (part.type === "text") return <p key={index} data-testid="text">{part.text}</p>;
        if (part.type === "tool-codemode") return <CodemodeCall key={index} part={part as unknown as CodemodePart} onAnswer={onAnswer} />;
        return null;
      })}
    </section>
  );
}

const box: CSSProperties = { background: "#fff", border: "1px solid #d0d4da", borderRadius: 6, padding: 12, margin: "8px 0" };
const pre: CSSProperties = { background: "#0f172a", color: "#e2e8f0", padding: 10, borderRadius: 4, overflowX: "auto", fontSize: 13 };

function CodemodeCall({ part, onAnswer }: { part: CodemodePart; onAnswer: (approvalId: string, approved: boolean) => void }) {
  const descriptor = part.approval?.descriptor as Descriptor | undefined;
  return (
    <div data-testid="codemode-call" data-state={part.state} style={box}>
      <div style={{ fontSize: 12, color: "#555" }}>codemode · {part.state}</div>
      <pre data-testid="code" style={pre}>{part.input?.code ?? ""}</pre>
      {part.state === "approval-requested" && part.approval && descriptor ? (
        <div data-testid="approval" style={{ border: "2px solid #f59e0b", borderRadius: 6, padding: 10, background: "#fffbeb" }}>
          <div>
            Approve <code data-testid="approval-call">{`${descriptor.connector}.${descriptor.method}`}</code>?
          </div>
          <pre data-testid="approval-args" style={{ ...pre, background: "#fef3c7", color: "#1c1e21" }}>
            {JSON.stringify(descriptor.args, null, 2)}
          </pre>
          <div style={{ fontSize: 12, color: "#666" }}>
            execution {descriptor.executionId} · call {descriptor.seq}
          </div>
          <div style={{ display: "flex", gap: 8, marginTop: 8 }}>
            <button data-testid="approve" onClick={() => onAnswer(part.approval!.id, true)}>Approve</button>
            <button data-testid="reject" onClick={() => onAnswer(part.approval!.id, false)}>Reject</button>
          </div>
        </div>
      ) : null}
      {part.state === "approval-responded" ? (
        <div data-testid="answered">{part.approval?.approved ? "Approved, resuming…" : "Rejected, stopping…"}</div>
      ) : null}
      {part.state === "output-available" && part.output ? <Output output={part.output} /> : null}
      {part.state === "output-denied" ? (
        <div data-testid="denied" style={{ color: "#b00020" }}>Rejected: {part.approval?.reason ?? "not approved"}</div>
      ) : null}
      {part.state === "output-error" ? <div data-testid="tool-error" style={{ color: "#b00020" }}>{part.errorText}</div> : null}
    </div>
  );
}

function Output({ output }: { output: NonNullable<CodemodePart["output"]> }) {
  return (
    <div data-testid="output" data-status={output.status}>
      {output.logs && output.logs.length > 0 ? (
        <pre data-testid="logs" style={{ ...pre, background: "#f1f5f9", color: "#334155" }}>{output.logs.join("\n")}</pre>
      ) : null}
      {output.status === "completed" ? (
        <pre data-testid="result" style={{ ...pre, background: "#ecfdf5", color: "#065f46" }}>{JSON.stringify(output.result, null, 2)}</pre>
      ) : (
        <div style={{ color: "#b00020" }}>
          {output.kind}: {output.error}
        </div>
      )}
    </div>
  );
}
