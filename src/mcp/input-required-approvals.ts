/**
 * Approvals as multi-round-trip requests (MCP revision 2026-07-28). A `codemode` call that pauses answers
 * `input_required`: a form request with the whole of every pending call (as the 2025 elicitation form shows it),
 * or, with `approvalLinks` and a client that takes URL requests, the signed one-use approval link; and a signed
 * `requestState` (`approval-request-state.ts`). The client asks the person, then retries the same call with their
 * answer in `inputResponses` and the state echoed. The retry reads everything from the journal, so any instance
 * answers it; of the retries, links, inspectors and CLIs deciding one execution, the store lets exactly one resume
 * it, and every later retry reads the outcome without running anything. The model cannot approve: the `codemode`
 * tool's input has no decision in it, and a decision only comes from the client's `inputResponses` under a state
 * this server signed for this owner, this program and these very calls.
 */
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { ProgressListener } from "../runtime/pass/progress-events.js";
import type { CodemodeOutput, ExecutionDetail } from "../runtime/types.js";
import type { HmacSecret } from "../shared/hmac.js";
import { approvalElicitation, readElicitationAnswer } from "./approval-elicitation.js";
import { type ApprovalLinks, issueLink, waitForDecision } from "./approval-links.js";
import {
  asksAbout,
  mintApprovalRequestState,
  readApprovalRequestState,
  type ApprovalRequestState,
  type RequestStateProblem,
} from "./approval-request-state.js";
import { OUTCOME_TOOL } from "./mcp-tools.js";
import { retryNonce, retryToolCallId } from "./retry-id.js";
import { undecidedMessage } from "./settle-approvals.js";
import { type LinkOutcome, outcomeOf } from "./settle-by-link.js";

/** The key of the form request in `inputRequests` (and of its answer in `inputResponses`). */
export const APPROVAL_FORM_KEY = "approval";
/** The key of the link request. */
export const APPROVAL_LINK_KEY = "approval_link";

/** One embedded request (`elicitation/create`) of an `input_required` result. */
export interface EmbeddedElicitation {
  method: "elicitation/create";
  params: Record<string, unknown>;
}

/** What a `codemode` call answers a 2026-07-28 client: an outcome, or a request for the person's input. */
export type InputRequiredOutcome =
  | LinkOutcome
  | { kind: "input_required"; inputRequests: Record<string, EmbeddedElicitation>; requestState: string };

/** What the flow needs, per request. */
export interface InputRequiredSettings {
  runtime: CodemodeRuntime;
  /** The caller's owner. */
  scope: string | undefined;
  /** Signs request states (the server's approval secret). */
  secret: HmacSecret;
  /** How long a request state works, in ms. */
  ttlMs: number;
  /** The client takes form requests (its `elicitation.form` capability). */
  form: boolean;
  /** Links to send, when the server has `approvalLinks` and the client takes URL requests. */
  links: ApprovalLinks | undefined;
  /** How a person decides elsewhere (`{id}`: the execution id). */
  hint: string;
  /** How long a retry after an accepted link waits for the person's decision, in ms. */
  timeoutMs: number;
  /** Journaled as `decidedBy` of the calls a retry decides. */
  decidedBy: string;
  signal: AbortSignal;
  /** Receives the program's console lines of the passes this request runs (sent to the client as log messages). */
  onProgress?: ProgressListener | undefined;
  /** The clock states expire by (ms). */
  now: () => number;
}

const NOTHING = "Nothing was approved, rejected or run.";

/** What the model is told about a state that changes nothing. */
function requestStateRefusal(problem: RequestStateProblem, hint: string, executionId = "?"): string {
  switch (problem) {
    case "malformed":
      return `The requestState is not one this server gave (cut, re-encoded or of another version). ${NOTHING} Call codemode without it to run the program anew.`;
    case "signature":
      return `The requestState's signature does not verify: it was forged or altered. ${NOTHING}`;
    case "owner":
      return `The requestState was given to another user. ${NOTHING}`;
    case "call":
      return `The requestState was given for a call of another program: send it only with the call that paused. ${NOTHING}`;
    case "expired":
      return (
        `The requestState expired. ${NOTHING} Execution ${executionId} stays paused. ${hint.replaceAll("{id}", executionId)} ` +
        `Once a person decided, ${OUTCOME_TOOL} with { "executionId": "${executionId}" } returns the result.`
      );
  }
}

/** The `input_required` answer asking about `pending` (paused calls of the execution of the call of `code`). */
async function askAbout(
  settings: InputRequiredSettings,
  code: string,
  nonce: string,
  output: Extract<CodemodeOutput, { status: "paused" }>,
): Promise<InputRequiredOutcome> {
  const { scope, links, secret } = settings;
  const { pending, executionId } = output;
  const inputRequests: Record<string, EmbeddedElicitation> = {};
  if (links !== undefined) {
    const link = await issueLink(links, pending, scope);
    inputRequests[APPROVAL_LINK_KEY] = {
      method: "elicitation/create",
      params: { mode: "url", url: link.url, message: link.message },
    };
  } else if (settings.form) {
    inputRequests[APPROVAL_FORM_KEY] = { method: "elicitation/create", params: { ...approvalElicitation(pending) } };
  } else {
    return {
      kind: "output",
      output,
      message: undecidedMessage(
        "No person can be asked through this client (it takes neither form nor URL elicitation)",
        executionId,
        settings.hint,
      ),
    };
  }
  const expiresAt = settings.now() + settings.ttlMs;
  const requestState = await mintApprovalRequestState({ secret, owner: scope, code, pending, nonce, expiresAt });
  return { kind: "input_required", inputRequests, requestState };
}

/** The outcome of `detail` for a 2026-07-28 client: paused again asks again (a new state for the new calls). */
function answerWith(
  settings: InputRequiredSettings,
  code: string,
  nonce: string,
  detail: ExecutionDetail,
): Promise<InputRequiredOutcome> {
  const read = outcomeOf(detail);
  if (read.kind === "output" && read.output.status === "paused") return askAbout(settings, code, nonce, read.output);
  return Promise.resolve(read);
}

/** Runs `code` as a new execution; asks for the person's input when it pauses. */
export async function runForInputRequired(
  settings: InputRequiredSettings & { code: string },
): Promise<InputRequiredOutcome> {
  const { runtime, scope, code, signal, onProgress } = settings;
  const nonce = retryNonce();
  const output = await runtime.execute(
    { code, ...(scope === undefined ? {} : { scope }) },
    { abortSignal: signal, toolCallId: retryToolCallId(nonce), ...(onProgress === undefined ? {} : { onProgress }) },
  );
  if (output.status === "paused") return askAbout(settings, code, nonce, output);
  return { kind: "output", output };
}

/** The execution once nobody decides it any more (or `timeoutMs` passed), then its outcome. */
async function settled(
  settings: InputRequiredSettings,
  code: string,
  state: ApprovalRequestState,
): Promise<InputRequiredOutcome> {
  const { runtime, scope, signal } = settings;
  const { executionId } = state;
  const seqs = state.calls.map((call) => call.seq);
  const detail =
    (await waitForDecision({ runtime, executionId, seqs, scope, timeoutMs: settings.timeoutMs, signal })) ??
    (await runtime.execution(executionId, scope === undefined ? {} : { scope }));
  if (detail === undefined) return { kind: "refused", message: `Execution ${executionId} is gone. ${NOTHING}` };
  return answerWith(settings, code, state.nonce, detail);
}

/** The person's answer to the paused calls `state` asks about (still pending in `found`). */
async function decideFromAnswer(
  settings: InputRequiredSettings,
  code: string,
  state: ApprovalRequestState,
  found: ExecutionDetail,
  inputResponses: Record<string, unknown>,
): Promise<InputRequiredOutcome> {
  const { runtime, scope, hint, signal } = settings;
  const { executionId } = found;
  const paused = outcomeOf(found);
  const undecided = (why: string): InputRequiredOutcome =>
    paused.kind === "output"
      ? { kind: "output", output: paused.output, message: undecidedMessage(why, executionId, hint) }
      : paused;
  const form = inputResponses[APPROVAL_FORM_KEY];
  const link = inputResponses[APPROVAL_LINK_KEY];
  if (form !== undefined) {
    const answer = readElicitationAnswer(found.pending, form);
    if (!answer.decided) return undecided(`The person ${answer.why}`);
    const next = await runtime.decide(
      {
        executionId,
        decisions: answer.decisions,
        decidedBy: settings.decidedBy,
        ...(scope === undefined ? {} : { scope }),
      },
      { abortSignal: signal, ...(settings.onProgress === undefined ? {} : { onProgress: settings.onProgress }) },
    );
    // Someone else decided or resumed it at the same time: their outcome is this retry's.
    if (next.status === "error" && (next.kind === "conflict" || next.kind === "stale"))
      return settled(settings, code, state);
    if (next.status === "paused") return askAbout(settings, code, state.nonce, next);
    return { kind: "output", output: next };
  }
  if (link !== undefined) {
    const action = (link as { action?: unknown } | null)?.action;
    if (action !== "accept")
      return undecided(
        action === "decline" ? "The person declined to open the approval link" : "The approval link was dismissed",
      );
    // The person opened the link: the decision is theirs to make there; read it from the journal.
    return settled(settings, code, state);
  }
  // A retry without an answer asks again.
  return askAbout(settings, code, state.nonce, { status: "paused", executionId, pending: found.pending });
}

/**
 * The retry of a call of `code` with `requestState` and `inputResponses`: decides the calls the state asks about
 * from the person's answer when they are still pending, else returns the outcome someone else's decision led to;
 * a state that is not this server's for this owner, program and (still existing) execution changes nothing.
 */
export async function retryForInputRequired(
  settings: InputRequiredSettings & { code: string; requestState: unknown; inputResponses: Record<string, unknown> },
): Promise<InputRequiredOutcome> {
  const { runtime, scope, secret, code } = settings;
  const reading = await readApprovalRequestState(settings.requestState, {
    secret,
    owner: scope,
    code,
    now: settings.now(),
  });
  if (!reading.ok)
    return { kind: "refused", message: requestStateRefusal(reading.problem, settings.hint, reading.executionId) };
  const { state } = reading;
  const found = await runtime.execution(state.executionId, scope === undefined ? {} : { scope });
  if (found === undefined || found.toolCallId !== retryToolCallId(state.nonce))
    return {
      kind: "refused",
      message: `No execution waits for this requestState here (it ended over a day ago and was removed). ${NOTHING}`,
    };
  if (found.status === "paused" && (await asksAbout(secret, state, found.pending)))
    return decideFromAnswer(settings, code, state, found, settings.inputResponses);
  return settled(settings, code, state);
}
