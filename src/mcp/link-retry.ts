/**
 * Approvals by link without a session (serverless, many instances). A `codemode` call that pauses fails with
 * `-32042` (URL elicitation required) carrying the link; its elicitation id is the call's retry id (also in the
 * message, for a model that retries itself). Once the person decided, the client calls `codemode` again with the
 * same code and `retry` set to that id: the retry reads the one execution the id names, waits for the decision,
 * and returns the outcome. A retry never runs the program, so retries arriving together, on any instances, all get
 * the result and nothing runs twice; a call without `retry` is always a new run, whoever sent the same code before.
 */
import { UrlElicitationRequiredError } from "@modelcontextprotocol/server";
import type { ExecutionDetail, PendingAction } from "../runtime/types.js";
import { issueLink, waitForDecision } from "./approval-links.js";
import { formatRetryId, readRetryId, retryNonce, retryToolCallId } from "./retry-id.js";
import { type LinkOutcome, type LinkSettings, outcomeOf } from "./settle-by-link.js";

/** The error asking the client for the person's decision through `pending`'s link, then to retry with `retryId`. */
async function linkRequired(
  settings: LinkSettings,
  pending: PendingAction[],
  retryId: string,
): Promise<UrlElicitationRequiredError> {
  const executionId = pending[0]?.executionId ?? "?";
  return new UrlElicitationRequiredError(
    [await issueLink(settings.links, pending, settings.scope, retryId)],
    `Execution ${executionId} paused before a call a person must approve; the model cannot. The client was given a ` +
      "link for the person; once they decided, call codemode again with the same code and " +
      `"retry": ${JSON.stringify(retryId)} to get the result (without "retry" the program runs again, as a new ` +
      `execution). ${settings.hint.replaceAll("{id}", executionId)}`,
  );
}

/** Runs `code` as a new execution; throws the `-32042` error, with the call's retry id, when it pauses. */
export async function runForLink(settings: LinkSettings & { code: string }): Promise<LinkOutcome> {
  const { runtime, scope, code, signal, onProgress } = settings;
  const nonce = retryNonce();
  const output = await runtime.execute(
    { code, ...(scope === undefined ? {} : { scope }) },
    { abortSignal: signal, toolCallId: retryToolCallId(nonce), ...(onProgress === undefined ? {} : { onProgress }) },
  );
  if (output.status === "paused")
    throw await linkRequired(settings, output.pending, formatRetryId({ executionId: output.executionId, nonce }));
  return { kind: "output", output };
}

/**
 * The retry `retry` of a call of `code`: the outcome of the execution it names, once no decision is awaited (up to
 * `timeoutMs`); the `-32042` error again while it still waits for a person; a refusal when the id names nothing this
 * caller may read. Runs nothing.
 */
export async function retryForLink(settings: LinkSettings & { code: string; retry: string }): Promise<LinkOutcome> {
  const { runtime, scope, code, retry, signal } = settings;
  const scoped = scope === undefined ? {} : { scope };
  const id = readRetryId(retry);
  const quoted = JSON.stringify(retry.slice(0, 300));
  const gone: LinkOutcome = {
    kind: "refused",
    message:
      `No execution waits for the retry id ${quoted} here: it was not given to this user, or its execution ended ` +
      'over a day ago and was removed. Nothing ran. Call codemode without "retry" to run the program anew.',
  };
  const found = id === undefined ? undefined : await runtime.execution(id.executionId, scoped);
  if (found === undefined || id === undefined || found.toolCallId !== retryToolCallId(id.nonce)) return gone;
  if (found.code !== code)
    return {
      kind: "refused",
      message:
        `The retry id ${quoted} was given for another program. Nothing ran. Send it with the code of the call that ` +
        'paused, or call codemode without "retry" to run this program.',
    };
  let detail: ExecutionDetail | undefined = found;
  if (found.status === "paused" || found.status === "running") {
    // The person may be deciding now: wait for the journal to say so before asking again.
    const seqs = found.pending.map((call) => call.seq);
    const { executionId } = found;
    detail =
      (await waitForDecision({ runtime, executionId, seqs, scope, timeoutMs: settings.timeoutMs, signal })) ??
      (await runtime.execution(executionId, scoped));
  }
  if (detail === undefined) return gone;
  if (detail.status === "paused") throw await linkRequired(settings, detail.pending, retry);
  return outcomeOf(detail);
}
