/**
 * The web inspector's one page: static HTML with its stylesheet and script inline
 * (no build step, no CDN), served under a strict Content-Security-Policy that allows
 * exactly that script and stylesheet by hash and connects only to its own origin.
 */
import { INSPECTOR_SCRIPT } from "./inspector-page-script.js";
import { INSPECTOR_STYLE } from "./inspector-page-style.js";

const STATUS_OPTIONS = ["", "running", "paused", "completed", "error", "rejected", "rolled_back"];

/** The page's HTML; `refreshMs` is how often the list refreshes itself. */
export function inspectorPageHtml({ refreshMs }: { refreshMs: number }): string {
  const options = STATUS_OPTIONS.map(
    (status) => `<option value="${status}">${status === "" ? "all" : status}</option>`,
  ).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>ai-codemode inspector</title>
<style>${INSPECTOR_STYLE}</style>
</head>
<body data-refresh-ms="${Math.trunc(refreshMs)}">
<header>
<h1>ai-codemode inspector</h1>
<span class="runtime" id="runtime-name"></span>
<label>Status <select id="status-filter" data-key="filter">${options}</select></label>
</header>
<main>
<section id="list-panel" aria-labelledby="list-title">
<h2 id="list-title">Executions</h2>
<p id="status-line" role="status" aria-live="polite"></p>
<div id="list"></div>
</section>
<section id="detail" tabindex="-1" aria-label="Execution"></section>
</main>
<script>${INSPECTOR_SCRIPT}</script>
</body>
</html>
`;
}

let policy: Promise<string> | undefined;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let binary = "";
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

/** The page's Content-Security-Policy: its own script and style by hash, requests to its own origin, nothing else. */
export function inspectorPagePolicy(): Promise<string> {
  policy ??= Promise.all([sha256(INSPECTOR_SCRIPT), sha256(INSPECTOR_STYLE)]).then(([script, style]) =>
    [
      "default-src 'none'",
      `script-src ${script}`,
      `style-src ${style}`,
      "connect-src 'self'",
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  return policy;
}
