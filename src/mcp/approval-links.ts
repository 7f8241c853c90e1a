/**
 * The MCP server's `approvalLinks` option and what it makes: a signed link to the inspector's page for the
 * pending calls of a paused execution (`<url>/link/<token>`), and the wait, read from the journal, until a
 * person decided them there (on whatever instance served the page).
 */
import { randomUUID } from "node:crypto";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import { InvalidOptionError } from "../errors.js";
import { createApprovalLinkToken } from "../runtime/approval-link-token.js";
import type { ExecutionDetail, PendingAction } from "../runtime/types.js";
import { assertHmacSecret, type HmacSecret } from "../shared/hmac.js";
import { isRecord } from "../shared/is-record.js";
import { declareOptions, option } from "../shared/options/declare-options.js";
import { integerOption } from "../shared/options/option-checks.js";

/** How long a link works by default: long enough to read the call, short enough that a leaked one soon dies. */
export const DEFAULT_APPROVAL_LINK_TTL_MS = 15 * 60_000;
/** How often a wait re-reads the journal. */
const DECISION_POLL_MS = 250;

/** The `approvalLinks` option of `createCodemodeMcpServer`: where approval links point and how they are signed. */
export interface ApprovalLinksOption {
  /** Where the app mounts `createCodemodeInspector` (e.g. `https://app.example.com/admin/codemode`). */
  url: string;
  /**
   * The secret links are signed with, shared with the inspector's `approvalLinks.secret`: a string or bytes, at least
   * 32 bytes (e.g. `openssl rand -hex 32`).
   */
  secret: HmacSecret;
  /**
   * How long a link works, in milliseconds.
   * @default 900_000
   */
  ttlMs?: number;
}

/** How each key of {@link ApprovalLinksOption} is checked and defaulted. */
const APPROVAL_LINK_OPTIONS = declareOptions<ApprovalLinksOption>()({
  url: option((value, path) => {
    let parsed: URL | undefined;
    try {
      parsed = typeof value === "string" ? new URL(value) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== "https:" && parsed.protocol !== "http:") || parsed.search !== "")
      throw new InvalidOptionError({
        path,
        message: "must be the absolute http(s) URL where the app serves createCodemodeInspector, without a query",
      });
    return parsed.href.replace(/\/+$/, "");
  }),
  secret: option((value, path) => {
    assertHmacSecret(value, path);
    return value;
  }),
  ttlMs: integerOption(DEFAULT_APPROVAL_LINK_TTL_MS),
});

/** The option resolved. */
export type ApprovalLinks = Required<ApprovalLinksOption>;

/** `approvalLinks` read: `undefined` when not given. */
export function readApprovalLinks(value: unknown, path: string): ApprovalLinks | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be { url, secret, ttlMs? }" });
  return APPROVAL_LINK_OPTIONS.resolve(value, path);
}

/** One link, as URL-mode elicitation carries it. */
export interface IssuedLink {
  mode: "url";
  url: string;
  elicitationId: string;
  message: string;
}

/**
 * A link for `pending` (the pending calls of one execution), owned by `owner`. `elicitationId`: the id the client
 * echoes when it retries (a `-32042` answer's retry id); by default a new one.
 */
export async function issueLink(
  links: ApprovalLinks,
  pending: PendingAction[],
  owner: string | undefined,
  elicitationId?: string,
): Promise<IssuedLink> {
  const nonce = randomUUID();
  const expiresAt = Date.now() + links.ttlMs;
  const token = await createApprovalLinkToken({ secret: links.secret, pending, owner, expiresAt, nonce });
  const names = pending.map((call) => `${call.connector}.${call.method}`).join(", ");
  return {
    mode: "url",
    url: `${links.url}/link/${token}`,
    elicitationId: elicitationId ?? nonce,
    message:
      `A codemode program (execution ${pending[0]?.executionId ?? "?"}) paused before ${names}. ` +
      "Open the link to see the whole call and approve or reject it.",
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Reads the execution until none of `seqs` is pending and no pass runs (a person decided and the resumed pass
 * ended, here or on another instance): its detail then, or `undefined` when `timeoutMs` passed, the request
 * ended or the execution is gone.
 */
export async function waitForDecision({
  runtime,
  executionId,
  seqs,
  scope,
  timeoutMs,
  signal,
}: {
  runtime: Pick<CodemodeRuntime, "execution">;
  executionId: string;
  seqs: number[];
  scope: string | undefined;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<ExecutionDetail | undefined> {
  const deadline = performance.now() + timeoutMs;
  const scoped = scope === undefined ? {} : { scope };
  while (!signal.aborted) {
    const detail = await runtime.execution(executionId, scoped);
    if (detail === undefined) return undefined;
    const waiting =
      detail.status === "running" ||
      (detail.status === "paused" && detail.pending.some((call) => seqs.includes(call.seq)));
    if (!waiting) return detail;
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(DECISION_POLL_MS, left), signal);
  }
  return undefined;
}
