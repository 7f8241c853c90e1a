/**
 * The options a chat request's approvals are read with, declared once for both entry points that take them:
 * `createCodemodeChatStream` (which passes them on) and `resumeCodemodeApprovals`.
 */
import type { UIMessage } from "ai";
import { keysOf } from "../../shared/known-keys.js";
import type { CodemodeApprovalSecret } from "./approval-signature.js";
import type { CodemodeApprovalRuntime } from "./types.js";

/** The options shared by `createCodemodeChatStream` and `resumeCodemodeApprovals`. */
export interface CodemodeChatRequestOptions<UI_MESSAGE extends UIMessage> {
  /** The runtime behind the codemode tool (any instance on the same store and name). */
  runtime: CodemodeApprovalRuntime;
  /** The conversation as the client sent it (or as the server stored it, with the client's answers applied). */
  messages: UI_MESSAGE[];
  /**
   * The id of the assistant message whose approvals the request answers: useChat's `messageId` (the default
   * transport sends it in the body; pass it on). An approval answered on an earlier message than the last is
   * resolved there: its parts get their outcomes and the model is not called. Without it, or when it names no
   * assistant message, the last message is the one answered.
   */
  messageId?: string | undefined;
  /**
   * Name of the codemode tool in `tools`.
   * @default "codemode"
   */
  toolName?: string;
  /**
   * The owner this request acts for (e.g. the signed-in user's id); give the same value to `runtime.tool({ scope })`.
   * Approvals of executions of another scope are refused as `not-found`.
   */
  scope?: string;
  /**
   * Who answers the approvals in this request (e.g. the signed-in user's id, at most 200 characters): journaled on
   * every call it approves or rejects (`CallRecord.decidedBy`). Often the same value as `scope`.
   * @default undefined (the journal records no one)
   */
  decidedBy?: string;
  /**
   * The value given to `streamText({ experimental_toolApprovalSecret })`: codemode approval requests are signed with
   * it, and an answer without this bridge's signature for its approval and tool call is refused (`signature`) with
   * nothing run. The store binding (pending call, tool call, scope) applies either way. Without it, an answer that
   * carries a signature is refused (the route that issued it had a secret). At least 32 bytes (a string's UTF-8
   * bytes), e.g. `openssl rand -hex 32`.
   * @default undefined (unsigned)
   */
  toolApprovalSecret?: CodemodeApprovalSecret;
}

/** Every key of {@link CodemodeChatRequestOptions} (the compiler keeps the list complete). */
export const CHAT_REQUEST_OPTION_KEYS = keysOf<CodemodeChatRequestOptions<UIMessage>>({
  runtime: true,
  messages: true,
  messageId: true,
  toolName: true,
  scope: true,
  decidedBy: true,
  toolApprovalSecret: true,
});
