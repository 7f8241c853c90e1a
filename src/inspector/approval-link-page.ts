/**
 * The approval link's page: plain HTML and one form, no script. It shows every pending call the link names
 * whole (arguments through the one display of values) with approve, edit (for an `editable` method) and reject,
 * and after a decision what became of it. Served under a CSP allowing its stylesheet by hash and form posts to
 * its own origin, nothing else.
 */
import { createHash } from "node:crypto";
import type { PendingAction } from "../runtime/types.js";
import { inspectorJson } from "./inspector-json.js";

const STYLE = `
body { margin: 0 auto; max-width: 860px; padding: 18px 22px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; }
h1 { font-size: 20px; margin: 0 0 4px; }
p.lead { color: #59636e; margin: 0 0 16px; }
fieldset { border: 1px solid #d1d9e0; border-radius: 8px; margin: 0 0 14px; padding: 10px 14px 12px; }
legend { font-weight: 600; padding: 0 6px; }
pre, textarea, code { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f6f8fa; border: 1px solid #d1d9e0; border-radius: 6px; padding: 8px 10px; margin: 6px 0 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
textarea { width: 100%; min-height: 90px; box-sizing: border-box; }
label { margin-right: 16px; }
.choices { margin: 6px 0; }
input[type=text] { width: 100%; box-sizing: border-box; padding: 4px 6px; }
button { font: inherit; padding: 6px 18px; border-radius: 6px; border: 1px solid #0b5cad; background: #0b5cad; color: #fff; cursor: pointer; }
.notice { padding: 10px 14px; border-radius: 8px; border: 1px solid #d1d9e0; background: #f6f8fa; }
.notice.bad { border-color: #cf222e; background: #ffebe9; }
.notice.ok { border-color: #1a7f37; background: #dafbe1; }
`;

/**
 * Headers of every link page: no cache, no framing, and the referrer (the URL carries the token) only to the page's
 * own origin, so that the form's POST carries its `Origin` (under `no-referrer` a browser sends `Origin: null`,
 * which the cross-site check refuses).
 */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": [
    "default-src 'none'",
    `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; "),
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function callFields(call: PendingAction): string {
  const shown = inspectorJson(call.args, 2);
  const request =
    call.request === undefined
      ? ""
      : `<p>Request: <code>${escapeHtml(`${call.request.method} ${call.request.url}`)}</code></p>`;
  const edit = call.editable
    ? `<label><input type="radio" name="choice-${call.seq}" value="edit"> Approve with these arguments:</label>
<textarea name="args-${call.seq}" aria-label="Arguments for call #${call.seq} (JSON)">${escapeHtml(shown)}</textarea>`
    : "";
  return `<fieldset>
<legend>#${call.seq} ${escapeHtml(`${call.connector}.${call.method}`)}</legend>
${request}<pre aria-label="Arguments of call #${call.seq}">${escapeHtml(shown)}</pre>
<div class="choices">
<label><input type="radio" name="choice-${call.seq}" value="approve" required> Approve</label>
<label><input type="radio" name="choice-${call.seq}" value="reject"> Reject</label>
${edit}
</div>
</fieldset>`;
}

/** The form deciding `pending` (the calls of execution `executionId` the link names), posted back to the link. */
export function linkFormHtml({
  executionId,
  code,
  pending,
}: {
  executionId: string;
  code: string;
  pending: PendingAction[];
}): string {
  const count = pending.length === 1 ? "a call" : `${pending.length} calls`;
  return document(
    "Approve a codemode call",
    `<h1>A program waits for your approval</h1>
<p class="lead">Execution <code>${escapeHtml(executionId)}</code> paused before ${count}. Nothing runs until you decide.</p>
<form method="post">
${pending.map(callFields).join("\n")}
<p><label for="reason">Reason (told to the program with a rejection)</label>
<input type="text" id="reason" name="reason" maxlength="500"></p>
<p><button type="submit">Decide</button></p>
</form>
<details><summary>The whole program</summary><pre>${escapeHtml(code)}</pre></details>`,
  );
}

/** A page saying what happened (`tone`: a refusal, or the decision's outcome). */
export function linkNoticeHtml({
  title,
  message,
  tone,
}: {
  title: string;
  message: string;
  tone: "ok" | "bad";
}): string {
  return document(
    title,
    `<h1>${escapeHtml(title)}</h1>\n<p class="notice ${tone}" role="status">${escapeHtml(message)}</p>`,
  );
}
