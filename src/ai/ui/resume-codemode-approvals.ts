/**
 * The next request after a user answered a codemode approval: resume or reject the
 * execution from the store, and say what the client and the model should see.
 */
import type { UIMessage, UIMessageChunk } from "ai";
import type { CodemodeOutput, PendingAction, RejectOutput } from "../../runtime/types.js";
import { displayJson } from "../../shared/display-value.js";
import { answeredMessageIndex } from "./answered-message.js";
import { CHAT_REQUEST_OPTION_KEYS, type CodemodeChatRequestOptions } from "./chat-request-options.js";
import { withFinalProgress } from "../codemode-progress.js";
import { DEFAULT_CODEMODE_TOOL_NAME } from "./codemode-approval-transform.js";
import { outcomeApprovedElsewhere } from "./approved-elsewhere.js";
import { assertApprovalSecret, signatureProblem, type CodemodeApprovalSecret } from "./approval-signature.js";
import {
  claimsCodemodeDecisions,
  MAX_DECISIONS,
  MAX_DECISIONS_CHARS,
  parseCodemodeDecisions,
} from "./codemode-decisions.js";
import { describeDenial } from "./denial-text.js";
import { createCodemodeApprovalRequest, isPausedCodemodeOutput } from "./paused-output.js";
import { applyDecisions } from "./resolve-codemode-decisions.js";
import { resumeProgress } from "./resume-progress.js";
import type { CodemodeApprovalRuntime } from "./types.js";
import { verifyCodemodeApproval, type CodemodeApprovalErrorKind } from "./verify-codemode-approval.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";

/** Options of {@link resumeCodemodeApprovals}: the chat request's, and where progress goes. */
export interface ResumeCodemodeApprovalsOptions<UI_MESSAGE extends UIMessage>
  extends CodemodeChatRequestOptions<UI_MESSAGE> {
  /**
   * Receives progress of the resumed executions as preliminary `tool-output-available` chunks (throttled
   * snapshots: calls and console lines) while they run; write them to the response as they come.
   * `createCodemodeChatStream` does. Without it, a resumed run shows only its outcome.
   */
  writeProgress?: (chunk: UIMessageChunk) => void;
}

/** What happened to one answered approval. */
export type ResolvedCodemodeApproval =
  | { toolCallId: string; approvalId: string; status: "approved"; output: CodemodeOutput }
  | { toolCallId: string; approvalId: string; status: "rejected"; output: RejectOutput }
  | {
      toolCallId: string;
      approvalId: string;
      status: "invalid";
      /** `signature`: the answer's signature is missing, wrong, or cannot be checked (see `toolApprovalSecret`). */
      kind: CodemodeApprovalErrorKind | "conflict" | "reject-failed" | "signature";
      error: string;
    };

/** Result of {@link resumeCodemodeApprovals}. */
export interface ResumeCodemodeApprovalsResult<UI_MESSAGE extends UIMessage> {
  /** The conversation with every answered codemode approval resolved; give it to `convertToModelMessages`. */
  messages: UI_MESSAGE[];
  /** Index in `messages` of the assistant message that was answered, or -1 when the request answers none. */
  messageIndex: number;
  /** Chunks that update the client's codemode parts; write them before anything else. */
  chunks: UIMessageChunk[];
  /**
   * Whether the model should be called now: `false` when an execution paused again (a new
   * approval request is in `chunks`), an approval id was refused (its error is in `chunks`), or the
   * answered message is not the last one (the conversation has moved on; the model reads the
   * outcome with the next message).
   */
  continueModel: boolean;
  /** Every answered approval of the answered assistant message, in part order. */
  resolved: ResolvedCodemodeApproval[];
}

type ToolPartRecord = Record<string, unknown> & {
  toolCallId: string;
  state: string;
  approval?: { id: string; approved?: boolean; reason?: string; signature?: unknown };
};

const RESUME_OPTION_KEYS = [
  ...CHAT_REQUEST_OPTION_KEYS,
  ...keysOf<Omit<ResumeCodemodeApprovalsOptions<UIMessage>, keyof CodemodeChatRequestOptions<UIMessage>>>({
    writeProgress: true,
  }),
];

/**
 * Resolves the codemode approvals the user answered in an assistant message (the last one, or the one
 * `messageId` names).
 * Approved: the runtime resumes the execution from the store (`approve`); a new pause
 * becomes a new approval request and the model is not called, a final result becomes
 * the tool output the model continues with. Denied: the runtime rejects the execution
 * (its hooks run) and the model reads the denial as the tool output. An approval id that
 * does not match a pending call in the store changes nothing and becomes a tool error.
 *
 * @example
 * ```ts
 * const resumed = await resumeCodemodeApprovals({ runtime, messages });
 * for (const chunk of resumed.chunks) writer.write(chunk);
 * if (resumed.continueModel) writer.merge(streamText({ ..., messages: await convertToModelMessages(resumed.messages) })
 *   .toUIMessageStream().pipeThrough(codemodeApprovalTransform()));
 * ```
 */
export async function resumeCodemodeApprovals<UI_MESSAGE extends UIMessage>({
  runtime,
  messages,
  messageId,
  toolName = DEFAULT_CODEMODE_TOOL_NAME,
  scope,
  decidedBy,
  writeProgress,
  toolApprovalSecret,
  ...unknown
}: ResumeCodemodeApprovalsOptions<UI_MESSAGE>): Promise<ResumeCodemodeApprovalsResult<UI_MESSAGE>> {
  assertKnownKeys(unknown, RESUME_OPTION_KEYS, "resumeCodemodeApprovals");
  if (toolApprovalSecret !== undefined) assertApprovalSecret(toolApprovalSecret, "toolApprovalSecret");
  const signing = { secret: toolApprovalSecret, toolName };
  const messageIndex = answeredMessageIndex(messages, messageId);
  const answered = messages[messageIndex];
  const result: ResumeCodemodeApprovalsResult<UI_MESSAGE> = {
    messages,
    messageIndex,
    chunks: [],
    continueModel: true,
    resolved: [],
  };
  if (answered === undefined) return result;
  // The conversation went on after this message: its outcome is shown where it is; the model reads it next time.
  if (messageIndex < messages.length - 1) result.continueModel = false;

  const parts: unknown[] = [];
  for (const part of answered.parts as unknown[]) {
    if (!isAnsweredCodemodePart(part, toolName)) {
      parts.push(part);
      continue;
    }
    const { modelPart, chunks, resolved, continueModel } = await resolvePart({
      runtime,
      part,
      scope,
      decidedBy,
      writeProgress,
      signing,
    });
    parts.push(modelPart);
    result.chunks.push(...chunks);
    result.resolved.push(resolved);
    result.continueModel &&= continueModel;
  }
  if (result.resolved.length === 0) return result;
  result.messages = messages.map((message, index) =>
    index === messageIndex ? ({ ...answered, parts } as UI_MESSAGE) : message,
  );
  return result;
}

function isAnsweredCodemodePart(part: unknown, toolName: string): part is ToolPartRecord {
  if (typeof part !== "object" || part === null) return false;
  const record = part as Record<string, unknown>;
  const isCodemode =
    record["type"] === `tool-${toolName}` || (record["type"] === "dynamic-tool" && record["toolName"] === toolName);
  const approval = record["approval"] as Record<string, unknown> | undefined;
  return (
    isCodemode &&
    record["state"] === "approval-responded" &&
    typeof record["toolCallId"] === "string" &&
    typeof approval?.["id"] === "string" &&
    typeof approval["approved"] === "boolean"
  );
}

interface PartResolution {
  /** The part as the model should see it. */
  modelPart: unknown;
  chunks: UIMessageChunk[];
  resolved: ResolvedCodemodeApproval;
  continueModel: boolean;
}

async function resolvePart({
  runtime,
  part,
  scope,
  decidedBy,
  writeProgress,
  signing,
}: {
  runtime: CodemodeApprovalRuntime;
  part: ToolPartRecord;
  scope: string | undefined;
  decidedBy: string | undefined;
  writeProgress: ((chunk: UIMessageChunk) => void) | undefined;
  signing: { secret: CodemodeApprovalSecret | undefined; toolName: string };
}): Promise<PartResolution> {
  const { toolCallId } = part;
  const approvalId = part.approval?.id ?? "";
  // Checked before the store is read: a forged or unsigned answer changes nothing.
  const unsigned = await signatureProblem({
    secret: signing.secret,
    signature: part.approval?.signature,
    approval: { approvalId, toolCallId, toolName: signing.toolName },
  });
  if (unsigned !== undefined) return refused({ part, approvalId, kind: "signature", error: unsigned });
  // Bound to the tool call: the execution must have been started by this part's call (and owned by `scope`).
  const verification = await verifyCodemodeApproval({ runtime, approvalId, toolCallId, scope });
  let output: CodemodeOutput;
  let lastProgress: ReturnType<NonNullable<ReturnType<typeof resumeProgress>>["finish"]> | undefined;
  let decidedElsewhere = false;
  if (verification.valid) {
    const { action } = verification;
    if (part.approval?.approved !== true) {
      return rejectPart({ runtime, part, approvalId, action, userReason: part.approval?.reason, scope, decidedBy });
    }
    // Several calls decided at once travel in `reason` (codemode-decisions.ts); otherwise the one call the id names.
    const decisions = parseCodemodeDecisions(part.approval.reason);
    if (decisions === undefined && claimsCodemodeDecisions(part.approval.reason)) {
      const error =
        `The decisions sent with approval "${approvalId}" could not be read (at most ${MAX_DECISIONS_CHARS} characters ` +
        `and ${MAX_DECISIONS} decisions, as encodeCodemodeDecisions writes them): nothing was approved, rejected or run. ` +
        "Decide again, with smaller edits or fewer calls at once.";
      return refused({ part, approvalId, kind: "malformed", error });
    }
    const progress = writeProgress === undefined ? undefined : resumeProgress({ toolCallId, write: writeProgress });
    const options = progress === undefined ? {} : { onProgress: progress.onProgress };
    const scoped = { ...(scope === undefined ? {} : { scope }), ...(decidedBy === undefined ? {} : { decidedBy }) };
    output =
      decisions === undefined
        ? await runtime.approve({ executionId: action.executionId, seq: action.seq, ...scoped }, options)
        : await applyDecisions({ runtime, action, decisions, toolCallId, scope, decidedBy, options });
    lastProgress = progress?.finish();
  } else {
    // Approved in the inspector (or elsewhere) already: the chat gets the stored outcome. "stale" is only
    // reported after the execution was found for this scope and tool call.
    const elsewhere =
      verification.kind === "stale" && part.approval?.approved === true
        ? await outcomeApprovedElsewhere({ runtime, approvalId, scope })
        : undefined;
    if (elsewhere === undefined)
      return refused({ part, approvalId, kind: verification.kind, error: verification.error });
    output = elsewhere.output;
    lastProgress = elsewhere.progress;
    decidedElsewhere = true;
  }
  if (output.status === "error" && output.kind === "conflict") {
    return refused({
      part,
      approvalId,
      kind: "conflict",
      error: `Approval "${approvalId}" was not applied by this request: ${output.error}`,
    });
  }
  const resolved: ResolvedCodemodeApproval = { toolCallId, approvalId, status: "approved", output };
  if (isPausedCodemodeOutput(output)) {
    // The next card says what this pass already did (the calls it replayed and ran before pausing again).
    const { secret, toolName } = signing;
    const request = await createCodemodeApprovalRequest({
      toolCallId,
      output,
      ...(lastProgress === undefined ? {} : { progress: lastProgress }),
      signing: secret === undefined ? undefined : { secret, toolName },
    });
    return { modelPart: part, chunks: [request], resolved, continueModel: false };
  }
  const { approval: _approval, ...rest } = part;
  const json = displayJson(output);
  // The client keeps the last snapshot on the part (the model never reads `progress`).
  const withProgress = lastProgress === undefined ? json : displayJson(withFinalProgress(output, lastProgress));
  // Marks an outcome the card did not cause (decided elsewhere first), for the card only, like `progress`.
  const shown =
    decidedElsewhere && typeof withProgress === "object" && withProgress !== null
      ? { ...withProgress, decidedElsewhere: true }
      : withProgress;
  return {
    modelPart: { ...rest, state: "output-available", output: json },
    chunks: [{ type: "tool-output-available", toolCallId, output: shown }],
    resolved,
    continueModel: true,
  };
}

async function rejectPart({
  runtime,
  part,
  approvalId,
  action,
  userReason,
  scope,
  decidedBy,
}: {
  runtime: CodemodeApprovalRuntime;
  part: ToolPartRecord;
  approvalId: string;
  action: PendingAction;
  userReason: string | undefined;
  scope: string | undefined;
  decidedBy: string | undefined;
}): Promise<PartResolution> {
  const { toolCallId } = part;
  const output = await runtime.reject({
    executionId: action.executionId,
    seq: action.seq,
    ...(scope === undefined ? {} : { scope }),
    ...(decidedBy === undefined ? {} : { decidedBy }),
    ...(userReason === undefined ? {} : { reason: userReason }),
  });
  if (output.status !== "rejected") {
    return refused({
      part,
      approvalId,
      kind: "reject-failed",
      error: `Rejecting approval "${approvalId}" failed: ${output.error}`,
    });
  }
  const reason = describeDenial({ action, applied: output.applied, userReason });
  return {
    modelPart: {
      ...part,
      state: "output-denied",
      approval: { ...part.approval, id: approvalId, approved: false, reason },
    },
    chunks: [
      { type: "tool-approval-response", approvalId, approved: false, reason },
      { type: "tool-output-denied", toolCallId },
    ],
    resolved: { toolCallId, approvalId, status: "rejected", output },
    continueModel: true,
  };
}

function refused({
  part,
  approvalId,
  kind,
  error,
}: {
  part: ToolPartRecord;
  approvalId: string;
  kind: CodemodeApprovalErrorKind | "conflict" | "reject-failed" | "signature";
  error: string;
}): PartResolution {
  const { approval: _approval, ...rest } = part;
  return {
    modelPart: { ...rest, state: "output-error", errorText: error },
    chunks: [{ type: "tool-output-error", toolCallId: part.toolCallId, errorText: error }],
    resolved: { toolCallId: part.toolCallId, approvalId, status: "invalid", kind, error },
    continueModel: false,
  };
}
