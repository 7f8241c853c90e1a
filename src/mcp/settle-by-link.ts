/**
 * Approvals by link (URL-mode elicitation) with a session: the server sends the person a link through
 * `elicitation/create` and answers the tool call once the journal shows their decision. Without a session,
 * `link-retry.ts` answers `-32042` and the client retries. The link itself is never in a tool result.
 */
import type { ProgressListener } from "../runtime/pass/progress-events.js";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { CodemodeOutput, ExecutionDetail } from "../runtime/types.js";
import { messageOf } from "../shared/message-of.js";
import { type ApprovalLinks, type IssuedLink, issueLink, waitForDecision } from "./approval-links.js";
import { executionOutcome, type ExecutionOutcome } from "./execution-outcome.js";
import { MAX_ELICITATIONS_PER_CALL } from "./mcp-server-options.js";
import { undecidedMessage } from "./settle-approvals.js";

/**
 * What a tool call ends with: an output (with what to tell the model), a state no pass returns, or a refusal
 * (a retry id that names nothing this caller may read: nothing ran).
 */
export type LinkOutcome =
  | { kind: "output"; output: CodemodeOutput; message?: string }
  | Extract<ExecutionOutcome, { kind: "state" }>
  | { kind: "refused"; message: string };

/** The session's side of URL-mode elicitation. */
export interface LinkElicitation {
  /** Sends `elicitation/create` in URL mode; the client's answer (it says whether the person opens the link). */
  elicit(link: IssuedLink): Promise<unknown>;
  /** Sends `notifications/elicitation/complete`. */
  complete(elicitationId: string): Promise<void>;
}

/** What both ways need. */
export interface LinkSettings {
  runtime: CodemodeRuntime;
  scope: string | undefined;
  links: ApprovalLinks;
  /** How a person decides elsewhere (`{id}`: the execution id). */
  hint: string;
  /** How long to wait for the person's decision, in ms. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives the run's progress (its console lines, sent to the client as log messages). */
  onProgress?: ProgressListener | undefined;
}

/** The outcome of an execution read from the journal. */
export function outcomeOf(detail: ExecutionDetail): LinkOutcome {
  const read = executionOutcome(detail);
  return read.kind === "state" ? read : { kind: "output", output: read.output };
}

/** With a session: one link per pause, until the execution no longer pauses or nothing more can be decided. */
export async function settleByLinkElicitation(
  settings: LinkSettings & { output: CodemodeOutput; session: LinkElicitation },
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
    const link = await issueLink(links, pending, scope);
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
    if (next.kind !== "output") return next;
    current = next.output;
  }
  return { kind: "output", output: current };
}
