/**
 * The retry id of a `-32042` answer: `<executionId>.<nonce>`, minted when a call without a session pauses, sent as
 * the URL elicitation's `elicitationId` and in the error's message, and echoed by the client as the `codemode`
 * tool's `retry` argument. The nonce is journaled as the execution's tool call id, so an id finds exactly the
 * execution of the call it was given for (one read, no listing), and nothing else: not another conversation's
 * run of the same program, not an execution the model only knows the id of.
 */
import { randomBytes } from "node:crypto";
import { RETRY_HOLD_TOOL_CALL_PREFIX } from "../runtime/journal/records.js";

/** Bytes of randomness in a nonce (128 bits: not guessed). */
const NONCE_BYTES = 16;
/** Longest retry id read (an execution id is at most 200 characters). */
const MAX_RETRY_ID_CHARS = 300;

/** A retry id, read. */
export interface RetryId {
  executionId: string;
  nonce: string;
}

/** A new nonce for a call that may pause. */
export function retryNonce(): string {
  return randomBytes(NONCE_BYTES).toString("base64url");
}

/** The tool call id the execution of a call with `nonce` is journaled with (retention keeps it for its retry). */
export function retryToolCallId(nonce: string): string {
  return `${RETRY_HOLD_TOOL_CALL_PREFIX}${nonce}`;
}

/** The retry id the client echoes. */
export function formatRetryId({ executionId, nonce }: RetryId): string {
  return `${executionId}.${nonce}`;
}

/** `value` as a retry id, or `undefined` when it is not one (the nonce, base64url, has no dot: split at the last). */
export function readRetryId(value: string): RetryId | undefined {
  if (value.length > MAX_RETRY_ID_CHARS) return undefined;
  const dot = value.lastIndexOf(".");
  const executionId = value.slice(0, Math.max(dot, 0));
  const nonce = value.slice(dot + 1);
  if (dot <= 0 || !/^[\w-]{16,}$/.test(nonce)) return undefined;
  return { executionId, nonce };
}
