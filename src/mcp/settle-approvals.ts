/**
 * Approvals inside the tool call: while the execution is paused and the client can be asked,
 * one elicitation per pass asks the person about every pending call, and `runtime.decide`
 * resumes it. Whatever else happens (declined, cancelled, timed out, the client gone, the
 * form limit reached) nothing is decided and the execution stays paused; the model is told
 * so and how a person decides it elsewhere. Of two deciders at once (this form and the
 * inspector, another client) the store lets exactly one resume: the other gets `conflict`.
 */
import { messageOf } from "../shared/message-of.js";
import type { DurableRuntime } from "../runtime/durable-runtime.js";
import type { ProgressListener } from "../runtime/pass/progress-events.js";
import type { CodemodeOutput } from "../runtime/types.js";
import { approvalElicitation, readElicitationAnswer, type ApprovalElicitation } from "./approval-elicitation.js";
import { MAX_ELICITATIONS_PER_CALL } from "./mcp-server-options.js";
import { OUTCOME_TOOL } from "./mcp-tools.js";

/** Sends one form to the person; rejects when it could not be asked or timed out. */
export type AskPerson = (form: ApprovalElicitation) => Promise<unknown>;

/** The final output of the tool call and what to tell the model beside it. */
export interface SettledOutput {
  output: CodemodeOutput;
  /** Replaces the output's `message`, when set. */
  message?: string;
}

/** A request that timed out: the MCP SDK v2's `SdkErrorCode.RequestTimeout` (v1 used JSON-RPC's `-32001`). */
const REQUEST_TIMEOUT_CODES: ReadonlySet<unknown> = new Set(["REQUEST_TIMEOUT", -32001]);

function failureReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (REQUEST_TIMEOUT_CODES.has(code)) return "did not answer the approval request in time";
  if ((error as { name?: unknown } | null)?.name === "AbortError") return "left before answering (the request ended)";
  return `could not be asked (${messageOf(error)})`;
}

/** What the model is told when nobody decided here. `hint` says how a person decides elsewhere. */
export function undecidedMessage(why: string, executionId: string, hint: string): string {
  return (
    `${why}: nothing was approved, rejected or run, and execution ${executionId} stays paused. ` +
    `Do not call codemode again for this; tell the user what awaits approval. ${hint.replaceAll("{id}", executionId)} ` +
    `Once a person decided, ${OUTCOME_TOOL} with { "executionId": "${executionId}" } returns the result.`
  );
}

/** Asks about `output`'s pending calls until the execution is no longer paused or nothing more can be decided. */
export async function settleApprovals({
  runtime,
  output,
  scope,
  ask,
  hint,
  signal,
  onProgress,
}: {
  runtime: Pick<DurableRuntime, "decide">;
  output: CodemodeOutput;
  scope: string | undefined;
  ask: AskPerson | undefined;
  hint: string;
  signal: AbortSignal;
  /** Receives the resumed passes' progress (their console lines). */
  onProgress?: ProgressListener | undefined;
}): Promise<SettledOutput> {
  let current = output;
  for (let round = 0; current.status === "paused"; round++) {
    const { executionId, pending } = current;
    if (ask === undefined) {
      return {
        output: current,
        message: undecidedMessage(
          "No person can be asked through this client (it has no elicitation)",
          executionId,
          hint,
        ),
      };
    }
    if (round === MAX_ELICITATIONS_PER_CALL) {
      return {
        output: current,
        message: undecidedMessage(`The program paused ${round} times in one call`, executionId, hint),
      };
    }
    let answer: ReturnType<typeof readElicitationAnswer>;
    try {
      answer = readElicitationAnswer(pending, await ask(approvalElicitation(pending)));
    } catch (error) {
      answer = { decided: false, why: failureReason(error) };
    }
    if (!answer.decided)
      return { output: current, message: undecidedMessage(`The person ${answer.why}`, executionId, hint) };
    const next = await runtime.decide(
      scope === undefined
        ? { executionId, decisions: answer.decisions }
        : { executionId, decisions: answer.decisions, scope },
      { abortSignal: signal, ...(onProgress === undefined ? {} : { onProgress }) },
    );
    if (next.status === "error" && (next.kind === "conflict" || next.kind === "stale")) {
      return {
        output: next,
        message:
          `Someone else decided or resumed execution ${executionId} at the same time, so this answer ran nothing. ` +
          `${OUTCOME_TOOL} with { "executionId": "${executionId}" } returns its outcome.`,
      };
    }
    current = next;
  }
  return { output: current };
}
