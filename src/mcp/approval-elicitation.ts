/**
 * Asking a person through MCP elicitation (`elicitation/create`, form mode): the pending
 * calls of one pass become one form (one approve/reject choice per call, and a reason),
 * and the answer becomes decisions for `runtime.decide`. Anything but an accepted,
 * complete answer decides nothing: declined, cancelled, timed out, failed or malformed,
 * the execution stays paused.
 */
import type { CallDecision } from "../runtime/types.js";
import type { PendingAction } from "../runtime/types.js";
import { jsonText } from "../ai/model-output-budget.js";
import { displayJson } from "../shared/display-value.js";

/** Characters of one call's arguments quoted in the form (the approver can open the inspector for the rest). */
export const ELICITATION_ARGS_MAX_CHARS = 2000;
/** Longest reason kept from the form. */
export const ELICITATION_REASON_MAX_CHARS = 500;

/** The form's field for call `seq`. */
function field(seq: number): string {
  return `call_${seq}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line per call: `#3 memory.delete_entities {"entityNames":["Ada"]}` (and its HTTP request, if any). */
export function pendingLine(action: PendingAction): string {
  const request = action.request === undefined ? "" : ` (${action.request.method} ${action.request.url})`;
  const args = clip(jsonText(displayJson(action.args)), ELICITATION_ARGS_MAX_CHARS);
  return `#${action.seq} ${action.connector}.${action.method}${request} ${args}`;
}

/** A call's approve / reject choice (the legacy `enumNames` form every form-mode client reads). */
export interface ChoiceField {
  type: "string";
  title: string;
  description: string;
  enum: string[];
  enumNames: string[];
}

/** The free-text reason. */
export interface TextField {
  type: "string";
  title: string;
  description: string;
  maxLength: number;
}

/** The `elicitation/create` parameters asking about every pending call of one pass. */
export interface ApprovalElicitation {
  mode: "form";
  message: string;
  requestedSchema: {
    type: "object";
    properties: Record<string, ChoiceField | TextField>;
    required: string[];
  };
}

/** The form for `pending` (all of one execution and one pass). */
export function approvalElicitation(pending: PendingAction[]): ApprovalElicitation {
  const properties: ApprovalElicitation["requestedSchema"]["properties"] = {};
  for (const action of pending) {
    properties[field(action.seq)] = {
      type: "string",
      title: clip(`#${action.seq} ${action.connector}.${action.method}`, 120),
      description: clip(pendingLine(action), ELICITATION_ARGS_MAX_CHARS + 200),
      enum: ["approve", "reject"],
      enumNames: ["Approve", "Reject"],
    };
  }
  properties["reason"] = {
    type: "string",
    title: "Reason (optional)",
    description: "Told to the program with a rejection",
    maxLength: ELICITATION_REASON_MAX_CHARS,
  };
  const count = pending.length === 1 ? "this call" : `these ${pending.length} calls`;
  return {
    mode: "form",
    message:
      `A codemode program (execution ${pending[0]?.executionId ?? "?"}) paused before ${count}; approve or reject each:\n` +
      pending.map(pendingLine).join("\n"),
    requestedSchema: { type: "object", properties, required: pending.map((action) => field(action.seq)) },
  };
}

/** What the person's answer decided. */
export type ElicitationAnswer =
  | { decided: true; decisions: CallDecision[] }
  /** Nothing decided: `why` is said to the model (declined, cancelled, timed out, …). */
  | { decided: false; why: string };

/** Reads an `ElicitResult` for `pending`: only an accepted answer with a choice for every call decides. */
export function readElicitationAnswer(pending: PendingAction[], result: unknown): ElicitationAnswer {
  const record = typeof result === "object" && result !== null ? (result as Record<string, unknown>) : {};
  const action = record["action"];
  if (action === "decline") return { decided: false, why: "declined to decide" };
  if (action === "cancel") return { decided: false, why: "dismissed the approval request" };
  if (action !== "accept") return { decided: false, why: "gave no answer the server understands" };
  const content = typeof record["content"] === "object" && record["content"] !== null ? record["content"] : {};
  const answers = content as Record<string, unknown>;
  const reasonValue = answers["reason"];
  const reason =
    typeof reasonValue === "string" && reasonValue.trim() !== ""
      ? clip(reasonValue.trim(), ELICITATION_REASON_MAX_CHARS)
      : undefined;
  const decisions: CallDecision[] = [];
  for (const pendingAction of pending) {
    const choice = answers[field(pendingAction.seq)];
    if (choice !== "approve" && choice !== "reject") {
      return { decided: false, why: `answered without a choice for call #${pendingAction.seq}` };
    }
    const decision: CallDecision = { seq: pendingAction.seq, approved: choice === "approve" };
    if (choice === "reject" && reason !== undefined) decision.reason = reason;
    decisions.push(decision);
  }
  return { decided: true, decisions };
}
