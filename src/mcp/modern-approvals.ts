/**
 * What a `tools/call` of the 2026-07-28 revision brings for approvals (the person's answers, the echoed state, the
 * kinds of requests its client fulfils), the secret its request states are signed with, and the result the SDK
 * sends for an `input_required` outcome.
 */
import { randomBytes } from "node:crypto";
import { type InputRequests, type InputRequiredResult, inputRequired } from "@modelcontextprotocol/server";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { HmacSecret } from "../shared/hmac.js";
import type { ApprovalLinks } from "./approval-links.js";
import type { EmbeddedElicitation } from "./input-required-approvals.js";

/** How long a request state works without `approvalLinks` (whose `ttlMs` it takes otherwise): as long as a link. */
export const DEFAULT_REQUEST_STATE_TTL_MS = 15 * 60_000;
/** Longest `decidedBy` journaled. */
const MAX_DECIDED_BY_CHARS = 200;

/** Bytes of a secret made for one process (HMAC-SHA256's block of security). */
const PROCESS_SECRET_BYTES = 32;

/** The approval side of a 2026-07-28 `tools/call`. */
export interface ModernApprovalRequest {
  /** The person's answers of a retry (`ctx.mcpReq.inputResponses`), as the client sent them (untrusted). */
  inputResponses: Record<string, unknown> | undefined;
  /** The echoed `requestState` of a retry, unverified. */
  requestState: unknown;
  /** The client fulfils form requests. */
  form: boolean;
  /** The client fulfils URL requests. */
  url: boolean;
  /** Every request of the client reaches this process (stdio, a server with sessions). */
  sticky: boolean;
}

/** The `input_required` result of a `tools/call` (protocol revision 2026-07-28). */
export type InputRequiredToolResult = InputRequiredResult;

/** The secret of one runtime in this process, for servers whose every round reaches this process. */
const processSecrets = new WeakMap<CodemodeRuntime, Uint8Array>();

/**
 * The secret request states are signed with: `approvalLinks.secret` (shared by every instance), else, when every
 * request of a client reaches this process (`sticky`: stdio, a server with sessions), a random one of `runtime`
 * made once in this process; else none.
 */
export function approvalStateSecret({
  links,
  runtime,
  sticky,
}: {
  links: ApprovalLinks | undefined;
  runtime: CodemodeRuntime;
  sticky: boolean;
}): HmacSecret | undefined {
  if (links !== undefined) return links.secret;
  if (!sticky) return undefined;
  let secret = processSecrets.get(runtime);
  if (secret === undefined) {
    secret = new Uint8Array(randomBytes(PROCESS_SECRET_BYTES));
    processSecrets.set(runtime, secret);
  }
  return secret;
}

/** The SDK's `input_required` result for the requests and state of an outcome. */
export function inputRequiredResult(outcome: {
  inputRequests: Record<string, EmbeddedElicitation>;
  requestState: string;
}): InputRequiredToolResult {
  // Each request is an `elicitation/create` of the wire's shape (the form of the 2025 elicitation, or a URL).
  return inputRequired({ inputRequests: outcome.inputRequests as InputRequests, requestState: outcome.requestState });
}

/** Who a retry's decision is journaled as: the MCP client of the owner (`mcp:<scope>`), or `mcp` unscoped. */
export function decidedByOf(scope: string | undefined): string {
  return scope === undefined ? "mcp" : `mcp:${scope}`.slice(0, MAX_DECIDED_BY_CHARS);
}
