/**
 * `GET|POST <mount>/link/<token>`: an approval link opened in a browser, by its holder. The token must verify and
 * be unexpired; the person must be the one it was minted for (`approvalLinks.scope` names the link's owner; a link
 * without an owner needs an `{ unscoped: true }` grant of the inspector's `authorize`); every call it names must
 * still be pending with the arguments it was issued for. GET shows those calls and nothing else of the journal;
 * POST decides them once through `runtime.decide`, journaled with `decidedBy`. Anything else changes nothing and
 * the page says why.
 */
import type { HmacSecret } from "../shared/hmac.js";
import { linkedPendingCalls } from "../runtime/approval-link-calls.js";
import { readApprovalLinkToken, type ApprovalLinkPayload } from "../runtime/approval-link-token.js";
import type { CallDecision, ExecutionDetail, PendingAction } from "../runtime/types.js";
import { LINK_PAGE_HEADERS, linkFormHtml, linkNoticeHtml } from "./approval-link-page.js";
import type { InspectorGrant } from "./inspector-api.js";
import type { InspectorRuntime } from "./inspector-runtime.js";

/** Who decided, when the inspector's `decidedBy` names no one. */
const LINK_DECIDER = "approval link";
/** Largest form body read (one choice, and perhaps edited arguments, per call). */
const MAX_FORM_CHARS = 256_000;
/** Longest rejection reason kept. */
const MAX_REASON_CHARS = 500;

/** What the link route needs from the inspector. */
export interface ApprovalLinkContext {
  runtime: InspectorRuntime;
  secret: HmacSecret;
  /** The owner (scope) of the signed-in person, compared with the link's. */
  scope: ((request: Request) => string | undefined | Promise<string | undefined>) | undefined;
  /** The inspector's grant of a request (`authorize`), asked only for a link without an owner. */
  grantOf: (request: Request) => Promise<InspectorGrant | Response>;
  decidedBy: ((request: Request) => string | undefined | Promise<string | undefined>) | undefined;
  now: () => number;
}

function page(status: number, html: string): Response {
  return new Response(html, { status, headers: LINK_PAGE_HEADERS });
}

function refusal(status: number, message: string): Response {
  return page(status, linkNoticeHtml({ title: "Nothing was changed", message, tone: "bad" }));
}

/** The refusal when the person of `request` is not the one `link` was minted for, else undefined. */
async function mayOpen(
  context: ApprovalLinkContext,
  request: Request,
  link: ApprovalLinkPayload,
): Promise<Response | undefined> {
  if (link.owner === undefined) {
    // No owner to compare with: only whoever may decide every execution in the inspector.
    const grant = await context.grantOf(request);
    if (grant instanceof Response) return grant;
    return grant.scope === undefined
      ? undefined
      : refusal(403, "This approval link is for an execution without an owner: only an inspector admin may open it.");
  }
  if (context.scope === undefined)
    return refusal(403, "This inspector cannot tell who is signed in (its approvalLinks.scope option is not set).");
  const person = await context.scope(request);
  if (person === undefined)
    return refusal(401, "Sign in as the user who ran the program, then open this approval link again.");
  if (person !== link.owner)
    return refusal(403, "This approval link belongs to another user: sign in as the user who ran the program.");
  return undefined;
}

/** The link's execution and the pending calls it names, or the refusal to send. */
async function openLink(
  context: ApprovalLinkContext,
  request: Request,
  token: string,
): Promise<{ link: ApprovalLinkPayload; detail: ExecutionDetail; calls: PendingAction[] } | Response> {
  const link = await readApprovalLinkToken(context.secret, token);
  if (link === undefined)
    return refusal(400, "This approval link is not valid: it was altered, or issued with another secret.");
  if (context.now() >= link.expiresAt)
    return refusal(410, "This approval link expired. Ask for a new one, or decide the call in the inspector.");
  const holder = await mayOpen(context, request, link);
  if (holder !== undefined) return holder;
  const scoped = link.owner === undefined ? {} : { scope: link.owner };
  const detail = await context.runtime.execution(link.executionId, scoped);
  if (detail === undefined) return refusal(404, `Execution ${link.executionId} no longer exists.`);
  const linked = linkedPendingCalls(detail, link);
  if ("refusal" in linked) return refusal(409, linked.refusal);
  const { calls } = linked;
  return { link, detail, calls };
}

/** The decisions the posted form makes for `calls`, or what is wrong with it. */
function readForm(form: URLSearchParams, calls: PendingAction[]): CallDecision[] | string {
  const reasonText = form.get("reason")?.trim().slice(0, MAX_REASON_CHARS);
  const reason = reasonText === undefined || reasonText === "" ? undefined : reasonText;
  const decisions: CallDecision[] = [];
  for (const call of calls) {
    const choice = form.get(`choice-${call.seq}`);
    if (choice === "approve") decisions.push({ seq: call.seq, approved: true });
    else if (choice === "reject")
      decisions.push({ seq: call.seq, approved: false, ...(reason === undefined ? {} : { reason }) });
    else if (choice === "edit" && call.editable === true) {
      try {
        decisions.push({ seq: call.seq, approved: true, args: JSON.parse(form.get(`args-${call.seq}`) ?? "") });
      } catch {
        return `The arguments given for call #${call.seq} are not JSON.`;
      }
    } else return `Choose approve${call.editable === true ? ", edit" : ""} or reject for call #${call.seq}.`;
  }
  return decisions;
}

async function decide(
  context: ApprovalLinkContext,
  request: Request,
  opened: { link: ApprovalLinkPayload; calls: PendingAction[] },
): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded"))
    return refusal(415, "The decision is posted by the link's own form.");
  const text = await request.text();
  if (text.length > MAX_FORM_CHARS) return refusal(413, "The form is too large.");
  const decisions = readForm(new URLSearchParams(text), opened.calls);
  if (typeof decisions === "string") return refusal(400, decisions);
  const { link } = opened;
  const decidedBy = (await context.decidedBy?.(request)) ?? LINK_DECIDER;
  const output = await context.runtime.decide({
    executionId: link.executionId,
    decisions,
    decidedBy,
    ...(link.owner === undefined ? {} : { scope: link.owner }),
  });
  if (output.status === "error" && ["conflict", "stale", "not-found", "validation"].includes(output.kind))
    return refusal(409, output.error);
  const approved = decisions.filter((decision) => decision.approved).length;
  const outcome =
    output.status === "completed"
      ? "The program continued and completed."
      : output.status === "paused"
        ? "The program continued and paused again before another call needing approval."
        : `The program continued and ended with an error: ${output.error}`;
  return page(
    200,
    linkNoticeHtml({
      title: "Decided",
      message: `${approved} of ${decisions.length} call(s) approved, as ${decidedBy}. ${outcome} You can close this page.`,
      tone: "ok",
    }),
  );
}

/** Answers a GET or POST of the link `token` (the page's form posts back to the same URL). */
export async function handleApprovalLink(
  context: ApprovalLinkContext,
  request: Request,
  token: string,
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "POST") return refusal(405, "Use GET or POST.");
  const opened = await openLink(context, request, token);
  if (opened instanceof Response) return opened;
  if (request.method === "POST") return decide(context, request, opened);
  return page(
    200,
    linkFormHtml({ executionId: opened.detail.executionId, code: opened.detail.code, pending: opened.calls }),
  );
}
