/**
 * Approvals by link (URL-mode elicitation). With a session, the server sends the person a link through
 * `elicitation/create` and answers the tool call once the journal shows their decision. Without one (serverless,
 * many instances), the tool call fails with `-32042` (URL elicitation required) carrying the link, and the client
 * retries the same call after the person decided: the retry finds its execution by the owner and the program's
 * digest, which the first call journaled as the execution's tool call id, and claims it once (compare-and-set), so
 * the result is returned once, on any instance, and nothing runs twice. The link itself is never in a tool result.
 */
import { createHash } from "node:crypto";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { RuntimeInternals } from "../runtime/runtime-internals.js";
import type { CodeModeOutput, ExecutionDetail, PendingAction } from "../runtime/types.js";
import { messageOf } from "../shared/message-of.js";
import { type ApprovalLinks, type IssuedLink, issueLink, waitForDecision } from "./approval-links.js";
import { executionOutcome, type ExecutionOutcome } from "./execution-outcome.js";
import { MAX_ELICITATIONS_PER_CALL } from "./mcp-server-options.js";
import { undecidedMessage } from "./settle-approvals.js";

/** Executions of the owner a retry looks through for its own (newest first). */
const RETRY_SCAN_LIMIT = 50;

/** What a tool call ends with: an output (with what to tell the model), or a state no pass returns. */
export type LinkOutcome =
  | { kind: "output"; output: CodeModeOutput; message?: string }
  | Extract<ExecutionOutcome, { kind: "state" }>;

/** The session's side of URL-mode elicitation. */
export interface LinkElicitation {
  /** Sends `elicitation/create` in URL mode; the client's answer (it says whether the person opens the link). */
  elicit(link: IssuedLink): Promise<unknown>;
  /** Sends `notifications/elicitation/complete`. */
  complete(elicitationId: string): Promise<void>;
}

/** What both ways need. */
interface LinkSettings {
  runtime: CodemodeRuntime;
  scope: string | undefined;
  links: ApprovalLinks;
  /** How a person decides elsewhere (`{id}`: the execution id). */
  hint: string;
  /** How long to wait for the person's decision, in ms. */
  timeoutMs: number;
  signal: AbortSignal;
}

function outcomeOf(detail: ExecutionDetail): LinkOutcome {
  const read = executionOutcome(detail);
  return read.kind === "state" ? read : { kind: "output", output: read.output };
}

/** With a session: one link per pause, until the execution no longer pauses or nothing more can be decided. */
export async function settleByLinkElicitation(
  settings: LinkSettings & { output: CodeModeOutput; session: LinkElicitation },
): Promise<LinkOutcome> {
  const { runtime, scope, links, hint, signal, session } = settings;
  let current = settings.output;
  for (let round = 0; current.status === "paused"; round++) {
    const { executionId, pending } = current;
    const undecided = (why: string): LinkOutcome => ({
      kind: "output",
      output: current,
      message: undecidedMessage(why, executionId, hint),
    });
    if (round === MAX_ELICITATIONS_PER_CALL) return undecided(`The program paused ${round} times in one call`);
    const link = issueLink(links, pending, scope);
    let answer: unknown;
    try {
      answer = await session.elicit(link);
    } catch (error) {
      return undecided(`The approval link could not be sent (${messageOf(error)})`);
    }
    const action = (answer as { action?: unknown } | null)?.action;
    if (action !== "accept")
      return undecided(
        action === "decline" ? "The person declined to open the approval link" : "The approval link was dismissed",
      );
    const seqs = pending.map((call) => call.seq);
    const detail = await waitForDecision({ runtime, executionId, seqs, scope, timeoutMs: settings.timeoutMs, signal });
    await session.complete(link.elicitationId).catch(() => undefined);
    if (detail === undefined) return undecided("No decision came through the approval link in time");
    const next = outcomeOf(detail);
    if (next.kind === "state") return next;
    current = next.output;
  }
  return { kind: "output", output: current };
}

/** The tool call id a link-mode execution of `code` is journaled with until its retry claims it. */
function retryMark(code: string): { waiting: string; claimed: string } {
  const digest = createHash("sha256").update(code).digest("base64url");
  return { waiting: `mcp-link:${digest}`, claimed: `mcp-link-claimed:${digest}` };
}

/** The error asking the client for the person's decision through `pending`'s link, then to retry. */
function linkRequired(settings: LinkSettings, pending: PendingAction[]): UrlElicitationRequiredError {
  const executionId = pending[0]?.executionId ?? "?";
  return new UrlElicitationRequiredError(
    [issueLink(settings.links, pending, settings.scope)],
    `Execution ${executionId} paused before a call a person must approve; the model cannot. The client was given a ` +
      "link for the person; once they decided, call codemode again with the same code to get the result. " +
      settings.hint.replaceAll("{id}", executionId),
  );
}

/** The newest execution of this owner waiting for a retry of `code`: it paused (a call needed approval) and was not claimed. */
async function findWaiting(settings: LinkSettings, waiting: string): Promise<ExecutionDetail | undefined> {
  const scoped = settings.scope === undefined ? {} : { scope: settings.scope };
  const listed = await settings.runtime.executions(RETRY_SCAN_LIMIT, scoped);
  for (const summary of listed) {
    if (summary.toolCallId !== waiting) continue;
    const detail = await settings.runtime.execution(summary.executionId, scoped);
    // One that never paused answered its call directly: it waits for no retry.
    if (detail?.calls.some((call) => call.needsApproval)) return detail;
  }
  return undefined;
}

/**
 * Without a session: runs `code`, or continues the execution an earlier call of it paused, and throws the
 * `-32042` error while a person has to decide.
 */
export async function runWithLinkRetry(
  settings: LinkSettings & { code: string; internals: RuntimeInternals },
): Promise<LinkOutcome> {
  const { runtime, scope, code, internals, signal } = settings;
  const mark = retryMark(code);
  const found = await findWaiting(settings, mark.waiting);
  if (found !== undefined) {
    let detail: ExecutionDetail | undefined = found;
    if (found.status === "paused" || found.status === "running") {
      // A retry: the person may be deciding now. Wait for the journal to say so before asking again.
      const seqs = found.pending.map((call) => call.seq);
      detail = await waitForDecision({
        runtime,
        executionId: found.executionId,
        seqs,
        scope,
        timeoutMs: settings.timeoutMs,
        signal,
      });
      detail ??= await runtime.execution(found.executionId, scope === undefined ? {} : { scope });
    }
    if (detail?.status === "paused") throw linkRequired(settings, detail.pending);
    // Still running: say so, unclaimed, so the next retry finds it again.
    if (detail?.status === "running") return outcomeOf(detail);
    if (
      detail !== undefined &&
      (await internals.retagToolCall({ executionId: detail.executionId, expected: mark.waiting, next: mark.claimed }))
    )
      return outcomeOf(detail);
    // Another retry claimed it first (or it was deleted): this call is a new run of the program.
  }
  const output = await runtime.execute(
    { code, ...(scope === undefined ? {} : { scope }) },
    { abortSignal: signal, toolCallId: mark.waiting },
  );
  if (output.status === "paused") throw linkRequired(settings, output.pending);
  return { kind: "output", output };
}
