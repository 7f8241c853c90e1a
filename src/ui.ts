/**
 * `ai-codemode/ui`: server-side helpers that fit codemode approvals into the stock AI SDK
 * `useChat` approval flow (SPEC §5).
 */
export type { CodemodeApprovalCall, CodemodeApprovalDescriptor } from "./ai/ui/approval-descriptor.js";
export { isCodemodeApprovalDescriptor, toCodemodeApprovalDescriptor } from "./ai/ui/approval-descriptor.js";
export type { ParsedCodemodeApprovalId } from "./ai/ui/approval-id.js";
export type { CodemodeApprovalSecret } from "./ai/ui/approval-signature.js";
export { CODEMODE_APPROVAL_ID_PREFIX, createCodemodeApprovalId, parseCodemodeApprovalId } from "./ai/ui/approval-id.js";
export type { CodemodeApprovalTransformOptions } from "./ai/ui/codemode-approval-transform.js";
export { codemodeApprovalTransform, DEFAULT_CODEMODE_TOOL_NAME } from "./ai/ui/codemode-approval-transform.js";
export type { CreateCodemodeChatStreamOptions } from "./ai/ui/create-codemode-chat-stream.js";
export { createCodemodeChatStream } from "./ai/ui/create-codemode-chat-stream.js";
export { hasPausedCodemode } from "./ai/ui/has-paused-codemode.js";
export type { CodemodeDecision } from "./ai/ui/codemode-decisions.js";
export {
  encodeCodemodeDecisions,
  MAX_DECISIONS,
  MAX_DECISIONS_CHARS,
  parseCodemodeDecisions,
  claimsCodemodeDecisions,
} from "./ai/ui/codemode-decisions.js";
export type { CodemodeProgress, CodemodeProgressCall } from "./ai/codemode-progress.js";
export { isCodemodeProgress } from "./ai/codemode-progress.js";
export type { CallProgress, CallProgressState } from "./runtime/pass/progress-events.js";
export type { CodemodePartProgress } from "./ai/ui/read-codemode-progress.js";
export { readCodemodeProgress } from "./ai/ui/read-codemode-progress.js";
export type { PausedCodemodeOutput, ToolApprovalRequestChunk } from "./ai/ui/paused-output.js";
export { createCodemodeApprovalRequest, isPausedCodemodeOutput } from "./ai/ui/paused-output.js";
export type {
  ResolvedCodemodeApproval,
  ResumeCodemodeApprovalsOptions,
  ResumeCodemodeApprovalsResult,
} from "./ai/ui/resume-codemode-approvals.js";
export { resumeCodemodeApprovals } from "./ai/ui/resume-codemode-approvals.js";
export type { CodemodeApprovalRuntime, CodemodeResumeOptions } from "./ai/ui/types.js";
export type { CodemodeApprovalErrorKind, CodemodeApprovalVerification } from "./ai/ui/verify-codemode-approval.js";
export { verifyCodemodeApproval } from "./ai/ui/verify-codemode-approval.js";
