/**
 * The approval card in MCP Apps hosts. To a client that declared the MCP Apps extension
 * (`io.modelcontextprotocol/ui` with the `text/html;profile=mcp-app` MIME type) a server with `approvalLinks`
 * offers the UI resource `ui://ai-codemode/approval`, names it in the `codemode` tool's `_meta.ui.resourceUri`, and
 * answers a paused call at once with the card's payload in the result's `_meta` (the pending calls whole and a
 * signed approval-link token, never shown to the model). The host renders the card in a sandboxed iframe and
 * hands it the result; the card decides by asking the host to call `codemode_approval_card`, a tool listed to MCP
 * Apps clients only and visible to the app only (`_meta.ui.visibility: ["app"]`), with the token. The token is an
 * approval link's (`approvalLinks.secret`, `ttlMs`): it must verify, be unexpired, be owned by this server's
 * scope, and name calls still pending with the arguments it was issued for, so it decides once; a reused or
 * forged one changes nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import { linkedPendingCalls } from "../runtime/approval-link-calls.js";
import { readApprovalLinkToken } from "../runtime/approval-link-token.js";
import type { CallDecision, CodemodeOutput, PendingAction } from "../runtime/types.js";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import { isRecord } from "../shared/is-record.js";
import { APPROVAL_CARD_SOURCE } from "./approval-card-source.js";
import { type ApprovalLinks, issueLink } from "./approval-links.js";
import { type McpToolDefinition, OUTCOME_TOOL } from "./mcp-tools.js";
import { errorResult, type ToolResult } from "./tool-result.js";

/** The card's resource. */
export const APPROVAL_CARD_URI = "ui://ai-codemode/approval";
/** The MCP Apps extension a client declares in `capabilities.extensions`. */
const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML. */
const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The `_meta` key of a paused result that carries the card's payload (the card reads it). */
const CARD_PAYLOAD_KEY = "ai-codemode/approval";
/** The app-only tool the card decides with. */
export const CARD_DECIDE_TOOL = "codemode_approval_card";
/** Who decided, in the journal. */
const CARD_DECIDER = "approval card";
/** Longest rejection reason kept (as the link page). */
const MAX_REASON_CHARS = 500;

let processSecret: Buffer | undefined;

/** The secret a server without approval links signs its cards' tokens with: one per process, made when first asked. */
export function processCardSecret(): Buffer {
  processSecret ??= randomBytes(32);
  return processSecret;
}

/** Where a 2026-07-28 request carries its client's capabilities (`params._meta`). */
const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";

/** The capabilities a request's client declared: in the request (2026-07-28), else at `initialize` (`session`). */
export function declaredCapabilities(params: { _meta?: unknown } | undefined, session: unknown): unknown {
  const meta = params?._meta;
  return (isRecord(meta) ? meta[CLIENT_CAPABILITIES_META_KEY] : undefined) ?? session;
}

/** Whether a client's capabilities declare MCP Apps with the HTML MIME type. */
export function clientShowsCards(capabilities: unknown): boolean {
  const extensions = isRecord(capabilities) ? capabilities["extensions"] : undefined;
  const apps = isRecord(extensions) ? extensions[MCP_APPS_EXTENSION] : undefined;
  const mimeTypes = isRecord(apps) ? apps["mimeTypes"] : undefined;
  return Array.isArray(mimeTypes) && mimeTypes.includes(MCP_APP_MIME_TYPE);
}

/** The look of the approval link page, in light and dark. */
const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --accent: #0b5cad;
  --bad: #cf222e; --bad-bg: #ffebe9; --ok: #1a7f37; --ok-bg: #dafbe1; --bg: #ffffff; }
:root[data-theme=dark] { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --code: #151b23; --accent: #4493f8;
  --bad: #f85149; --bad-bg: #25171c; --ok: #3fb950; --ok-bg: #12261e; --bg: #0d1117; }
@media (prefers-color-scheme: dark) { :root:not([data-theme=light]) { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d;
  --code: #151b23; --accent: #4493f8; --bad: #f85149; --bad-bg: #25171c; --ok: #3fb950; --ok-bg: #12261e; --bg: #0d1117; } }
body { margin: 0; padding: 14px 18px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 19px; margin: 0 0 4px; }
p.lead { color: var(--muted); margin: 0 0 14px; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 14px; padding: 10px 14px 12px; }
legend { font-weight: 600; padding: 0 6px; }
pre, textarea, code, summary { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.args { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 6px 0 10px; overflow-wrap: anywhere; }
.tree { margin: 0; padding-left: 18px; }
dl.tree { display: grid; grid-template-columns: max-content 1fr; align-items: baseline; gap: 2px 10px; padding-left: 0; }
dl.tree dl.tree, dd > ol.tree { margin-left: 4px; }
dt { font: 600 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
dd { margin: 0; min-width: 0; }
details.fold summary { cursor: pointer; color: var(--muted); }
details.fold pre { white-space: pre-wrap; margin: 4px 0; }
details.program summary { cursor: pointer; font: inherit; color: var(--muted); }
details.program pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
textarea { width: 100%; min-height: 90px; box-sizing: border-box; color: inherit; background: var(--bg); }
label { margin-right: 16px; }
.choices { margin: 6px 0; }
input[type=text] { width: 100%; box-sizing: border-box; padding: 4px 6px; color: inherit; background: var(--bg); border: 1px solid var(--line); }
button { font: inherit; padding: 6px 18px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button:disabled { opacity: 0.6; cursor: progress; }
.problem { color: var(--bad); margin: 0; }
.problem:empty { display: none; }
.notice { padding: 10px 14px; border-radius: 8px; border: 1px solid var(--line); background: var(--code); }
.notice.bad { border-color: var(--bad); background: var(--bad-bg); }
.notice.ok { border-color: var(--ok); background: var(--ok-bg); }
`;

const SCRIPT = `${APPROVAL_CARD_SOURCE}();`;

const sha256 = (text: string): string => createHash("sha256").update(text).digest("base64");

/**
 * The card's HTML: self-contained (its style and script inline, allowed by hash), and a CSP of its own that lets it
 * load and connect to nothing, whatever the host's.
 */
function approvalCardHtml(): string {
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${sha256(SCRIPT)}'`,
    `style-src 'sha256-${sha256(STYLE)}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Approve a codemode call</title>
<style>${STYLE}</style>
</head>
<body>
<main id="card" aria-live="polite"><p class="lead">Waiting for the tool result…</p></main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The card as `resources/list` lists it. */
export const APPROVAL_CARD_RESOURCE = {
  uri: APPROVAL_CARD_URI,
  name: "codemode-approval-card",
  title: "Codemode approval card",
  description: "Shows a paused codemode program's pending calls with every argument and decides them once.",
  mimeType: MCP_APP_MIME_TYPE,
  _meta: { ui: { prefersBorder: true } },
};

/** `resources/read` of the card. */
export function readApprovalCard(): {
  contents: Array<{ uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }>;
} {
  return {
    contents: [
      {
        uri: APPROVAL_CARD_URI,
        mimeType: MCP_APP_MIME_TYPE,
        text: approvalCardHtml(),
        // No network at all: no connect, resource or frame domains.
        _meta: { ui: { csp: {}, prefersBorder: true } },
      },
    ],
  };
}

/** `definition` naming the card (the `codemode` tool, for a client that shows cards). */
export function withApprovalCard(definition: McpToolDefinition): McpToolDefinition {
  return { ...definition, _meta: { ui: { resourceUri: APPROVAL_CARD_URI }, "ui/resourceUri": APPROVAL_CARD_URI } };
}

/** The app-only tool the card decides with. */
export const CARD_DECIDE_TOOL_DEFINITION: McpToolDefinition = {
  name: CARD_DECIDE_TOOL,
  title: "Decide from the approval card",
  description:
    "Called by the approval card only (the person's decision, with the card's signed token). Models: never call it.",
  inputSchema: {
    type: "object",
    properties: {
      token: { type: "string" },
      decisions: {
        type: "array",
        items: {
          type: "object",
          properties: { seq: { type: "integer" }, choice: { enum: ["approve", "reject", "edit"] }, args: {} },
          required: ["seq", "choice"],
        },
      },
      reason: { type: "string" },
    },
    required: ["token", "decisions"],
    additionalProperties: false,
  },
  _meta: { ui: { resourceUri: APPROVAL_CARD_URI, visibility: ["app"] } },
};

/** What the model is told beside a paused result the card shows. */
export function cardMessage(executionId: string): string {
  return (
    `Execution ${executionId} paused for a person's approval: the host shows them the approval card with this ` +
    "result. Nothing was approved, rejected or run. Do not call codemode again for this; tell the user what awaits " +
    `approval. Once they decided, ${OUTCOME_TOOL} with { "executionId": "${executionId}" } returns the outcome.`
  );
}

/** `result` with the card's payload for the paused `output` of `code` in its `_meta` (a token owned by `scope`). */
export async function withCardPayload(
  result: ToolResult,
  links: ApprovalLinks,
  output: Extract<CodemodeOutput, { status: "paused" }>,
  scope: string | undefined,
  code: string,
): Promise<ToolResult> {
  const issued = await issueLink(links, output.pending, scope);
  const token = issued.url.slice(issued.url.lastIndexOf("/") + 1);
  const calls = output.pending.map((call: PendingAction) => ({
    seq: call.seq,
    connector: call.connector,
    method: call.method,
    args: call.args,
    ...(call.editable === true ? { editable: true } : {}),
    ...(call.request === undefined ? {} : { request: call.request }),
  }));
  const payload = { token, executionId: output.executionId, expiresAt: Date.now() + links.ttlMs, calls, code };
  return { ...result, _meta: { ...(isRecord(result["_meta"]) ? result["_meta"] : {}), [CARD_PAYLOAD_KEY]: payload } };
}

/** The card's decisions, or what is wrong with them. */
function readDecisions(value: unknown, calls: PendingAction[], reason: string | undefined): CallDecision[] | string {
  if (!Array.isArray(value)) return "decisions must be a list of { seq, choice }.";
  const bySeq = new Map<number, Record<string, unknown>>();
  for (const entry of value as unknown[])
    if (isRecord(entry) && typeof entry["seq"] === "number") bySeq.set(entry["seq"], entry);
  const decisions: CallDecision[] = [];
  for (const call of calls) {
    const entry = bySeq.get(call.seq);
    const choice = entry?.["choice"];
    if (choice === "approve") decisions.push({ seq: call.seq, approved: true });
    else if (choice === "reject")
      decisions.push({ seq: call.seq, approved: false, ...(reason === undefined ? {} : { reason }) });
    else if (choice === "edit" && call.editable === true && entry !== undefined && "args" in entry)
      decisions.push({ seq: call.seq, approved: true, args: entry["args"] });
    else return `Choose approve${call.editable === true ? ", edit" : ""} or reject for call #${call.seq}.`;
  }
  return decisions;
}

/**
 * `codemode_approval_card`: the person's decisions from the card, checked as the approval link page checks a
 * link (signature, expiry, owner, calls still pending as issued), then made once through `runtime.decide`.
 */
export async function decideByCard({
  runtime,
  links,
  scope,
  args,
  signal,
}: {
  runtime: Pick<CodemodeRuntime, "execution" | "decide">;
  links: ApprovalLinks;
  scope: string | undefined;
  args: unknown;
  signal: AbortSignal;
}): Promise<ToolResult> {
  const refuse = (why: string) => errorResult(`${why} Nothing was changed.`);
  const token = isRecord(args) ? args["token"] : undefined;
  if (typeof token !== "string") return refuse("The card's token is missing.");
  const link = await readApprovalLinkToken(links.secret, token);
  if (link === undefined) return refuse("This approval card's token is not valid: it was altered, or forged.");
  if (Date.now() >= link.expiresAt)
    return refuse("This approval card expired. Decide the call in the inspector, or run the program again.");
  if (link.owner !== scope) return refuse("This approval card belongs to another user.");
  const scoped = scope === undefined ? {} : { scope };
  const detail = await runtime.execution(link.executionId, scoped);
  if (detail === undefined) return refuse(`Execution ${link.executionId} no longer exists.`);
  const linked = linkedPendingCalls(detail, link);
  if ("refusal" in linked) return refuse(linked.refusal.replace("Each link works once.", "A card decides once."));
  const reasonText = isRecord(args) && typeof args["reason"] === "string" ? args["reason"].trim() : "";
  const reason = reasonText === "" ? undefined : reasonText.slice(0, MAX_REASON_CHARS);
  const decisions = readDecisions(isRecord(args) ? args["decisions"] : undefined, linked.calls, reason);
  if (typeof decisions === "string") return refuse(decisions);
  const output = await runtime.decide(
    { executionId: link.executionId, decisions, decidedBy: CARD_DECIDER, ...scoped },
    { abortSignal: signal },
  );
  if (output.status === "error" && ["conflict", "stale", "not-found", "validation"].includes(output.kind))
    return refuse(output.error);
  const approved = decisions.filter((decision) => decision.approved).length;
  const outcome =
    output.status === "completed"
      ? "The program continued and completed."
      : output.status === "paused"
        ? "The program continued and paused again before another call needing approval."
        : `The program continued and ended with an error: ${output.error}`;
  return {
    content: [{ type: "text", text: `${approved} of ${decisions.length} call(s) approved. ${outcome}` }],
    structuredContent: { status: output.status, executionId: link.executionId },
  };
}
