/**
 * `ai-codemode/ui`: server-side helpers that fit codemode approvals into the stock AI SDK `useChat` approval
 * flow, and the types of the parts a chat renders (approval descriptors, progress).
 */
export type { CodemodeApprovalCall, CodemodeApprovalDescriptor } from "./ai/ui/approval-descriptor.js";
export { isCodemodeApprovalDescriptor } from "./ai/ui/approval-descriptor.js";
export type { CodemodeApprovalSecret } from "./ai/ui/approval-signature.js";
export { createCodemodeApprovalId } from "./ai/ui/approval-id.js";
export { codemodeApprovalStatus } from "./ai/ui/codemode-approval-status.js";
export type { CodemodeApprovalStatusOptions } from "./ai/ui/codemode-approval-status.js";
export type { CreateCodemodeChatStreamOptions } from "./ai/ui/create-codemode-chat-stream.js";
export { createCodemodeChatStream } from "./ai/ui/create-codemode-chat-stream.js";
export { hasPausedCodemode } from "./ai/ui/has-paused-codemode.js";
export { encodeCodemodeDecisions } from "./ai/ui/codemode-decisions.js";
export type { CodemodeProgress } from "./ai/codemode-progress.js";
export type { CallProgress } from "./runtime/pass/progress-events.js";
export type { CodemodePartProgress } from "./ai/ui/read-codemode-progress.js";
export { readCodemodeProgress } from "./ai/ui/read-codemode-progress.js";
export type { PausedCodemodeOutput } from "./ai/ui/paused-output.js";
export { isPausedCodemodeOutput } from "./ai/ui/paused-output.js";
export type {
  ResolvedCodemodeApproval,
  ResumeCodemodeApprovalsOptions,
  ResumeCodemodeApprovalsResult,
} from "./ai/ui/resume-codemode-approvals.js";
export { resumeCodemodeApprovals } from "./ai/ui/resume-codemode-approvals.js";
export type { CodemodeApprovalRuntime } from "./ai/ui/types.js";
