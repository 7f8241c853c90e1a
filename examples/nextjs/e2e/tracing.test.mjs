// End-to-end: the example app's traces (instrumentation.ts: a tracer provider, @ai-sdk/otel registered), with
// every span appended to a JSON-lines file (OTEL_SPANS_FILE). A chat pauses on a merge; the server is restarted;
// the approval resumes the execution in the new process. Both passes are in the trace of the first request, under
// the AI SDK's tool-call span, with every connector call; the resumed pass links to the first pass and to the
// request that approved it. The trace is rendered as a waterfall in Chromium and screenshotted
// (UPDATE_SCREENSHOT=1 refreshes docs/tracing-trace.png). Run: npm run e2e
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  appDir,
  ask,
  launchBrowser,
  openChat,
  startServer,
  STEP_TIMEOUT_MS,
  stopServer,
} from "./support/app-server.mjs";

const tmpDir = mkdtempSync(path.join(tmpdir(), "codemode-e2e-tracing-"));
const port = Number(process.env.E2E_TRACING_PORT ?? process.env.E2E_PORT ?? 3419);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
const spansFile = path.join(tmpDir, "spans.jsonl");
// Read by instrumentation.ts in the servers this file starts (they inherit the environment).
process.env.OTEL_SPANS_FILE = spansFile;

let server;
let browser;

before(async () => {
  server = await startServer({ port, databaseUrl });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stopServer(server);
  rmSync(tmpDir, { recursive: true, force: true });
});

function readSpans() {
  if (!existsSync(spansFile)) return [];
  return readFileSync(spansFile, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

/** Polls the spans file until `ready(spans)` holds (the exporter writes as spans end). */
async function spansWhen(ready) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let spans = readSpans();
  while (!ready(spans) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    spans = readSpans();
  }
  assert.ok(ready(spans), `spans never got there:\n${spans.map((span) => span.name).join("\n")}`);
  return spans;
}

const children = (spans, parent) =>
  spans.filter((span) => span.parentSpanId === parent.spanId).sort((a, b) => a.start - b.start);

test("one execution, one trace: the pause, a server restart, the approval, every call", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull request 42");
  await page.getByTestId("approval").waitFor();
  const firstServer = server.child.pid;
  await spansWhen((spans) => spans.some((span) => span.name === "codemode pass 1"));

  await stopServer(server);
  server = await startServer({ port, databaseUrl });
  assert.notEqual(server.child.pid, firstServer);
  await page.getByTestId("approve").click();
  await page.getByText("Done. Merged #42 (c0ffee42).").waitFor();

  const spans = await spansWhen((all) => all.some((span) => span.name === "codemode pass 2"));
  const first = spans.find((span) => span.name === "codemode pass 1");
  const second = spans.find((span) => span.name === "codemode pass 2");
  const tool = spans.find((span) => span.spanId === first.parentSpanId);
  assert.equal(tool?.name, "execute_tool codemode", "the first pass runs under the AI SDK's tool-call span");
  assert.equal(second.traceId, first.traceId, "both passes are in one trace");
  assert.equal(second.parentSpanId, tool.spanId, "the resumed pass is a child of the same tool-call span");
  assert.deepEqual(
    children(spans, first).map((span) => [span.name, span.attributes["codemode.call.seq"]]),
    [
      ["execute_tool tools.list_pull_requests", 1],
      ["execute_tool tools.merge_pull_request", 2],
    ],
  );
  assert.equal(children(spans, first)[1].attributes["codemode.call.pending"], true);
  assert.deepEqual(
    first.events.map((event) => event.name),
    ["codemode.pause"],
  );
  assert.deepEqual(
    children(spans, second).map((span) => [
      span.name,
      span.attributes["codemode.call.replayed"],
      span.attributes["codemode.call.approved"] ?? false,
    ]),
    [
      ["execute_tool tools.list_pull_requests", true, false],
      ["execute_tool tools.merge_pull_request", false, true],
    ],
  );
  const links = Object.fromEntries(second.links.map((link) => [link["codemode.link"], link]));
  assert.equal(links["first pass"]?.spanId, first.spanId);
  const approver = spans.find((span) => span.spanId === links["resumed by"]?.spanId);
  assert.ok(approver, "the resumed pass links to the span of the request that approved it");
  assert.notEqual(approver.traceId, first.traceId, "that request has its own trace");
  assert.equal(approver.name, "executing api route (app) /api/chat", "Next.js's span of the approving request");
  // The AI SDK records the tool call's inputs and outputs by default: so do the call spans.
  assert.equal(children(spans, second)[1].attributes["gen_ai.tool.call.result"].includes("c0ffee42"), true);

  const screenshot = path.join(tmpDir, "tracing-trace.png");
  const waterfall = await browser.newPage({ viewport: { width: 1400, height: 400 } });
  await waterfall.setContent(
    renderWaterfall(
      spans.filter((span) => span.traceId === first.traceId),
      approver,
    ),
  );
  await waterfall.locator("main").screenshot({ path: screenshot });
  if (process.env.UPDATE_SCREENSHOT === "1")
    copyFileSync(screenshot, path.join(appDir, "../../docs/tracing-trace.png"));
  await waterfall.close();
  await page.close();
});

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Time ranges in which some span runs (a pause leaves a gap between them). */
function segmentsOf(spans) {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const segments = [];
  for (const span of sorted) {
    const last = segments.at(-1);
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else segments.push({ start: span.start, end: span.end });
  }
  return segments;
}

/**
 * The spans of one trace as a waterfall: one row per span (indented by depth), a bar on a time axis broken where
 * nothing ran (the pause: each part has its own scale, the gap is labelled).
 */
function renderWaterfall(spans, approver) {
  const ids = new Set(spans.map((span) => span.spanId));
  const rows = [];
  const visit = (span, depth) => {
    rows.push({ span, depth });
    for (const child of children(spans, span)) visit(child, depth + 1);
  };
  for (const root of spans.filter((span) => !ids.has(span.parentSpanId)).sort((a, b) => a.start - b.start))
    visit(root, 0);
  const segments = segmentsOf(spans);
  const GAP = 0.06;
  const part = (1 - GAP * (segments.length - 1)) / segments.length;
  const x = (time) => {
    const index = segments.findIndex((segment) => time <= segment.end);
    const segment = segments[index];
    return index * (part + GAP) + ((time - segment.start) / Math.max(segment.end - segment.start, 1)) * part;
  };
  const percent = (value) => `${(value * 100).toFixed(3)}%`;
  const note = (span) => {
    const a = span.attributes;
    const notes = [`${(span.end - span.start).toFixed(1)} ms`];
    if (a["codemode.pass.status"]) notes.push(a["codemode.pass.status"]);
    if (a["codemode.call.replayed"]) notes.push("replayed");
    if (a["codemode.call.pending"]) notes.push("waits for approval");
    if (a["codemode.call.approved"]) notes.push("approved: executed");
    if (span.status.code === 2) notes.push("error");
    for (const event of span.events) notes.push(`event ${event.name}`);
    const targets = span.links.map((link) =>
      link.spanId === approver.spanId ? "the approving request" : link["codemode.link"],
    );
    if (targets.length > 0) notes.push(`links → ${targets.join(", ")}`);
    return notes.join(" · ");
  };
  const gaps = segments.slice(1).map((segment, index) => {
    const left = (index + 1) * (part + GAP) - GAP;
    const seconds = ((segment.start - segments[index].end) / 1000).toFixed(1);
    return `<div class="gap" style="left:${percent(left)};width:${percent(GAP)}"><span>${seconds} s later</span></div>`;
  });
  const body = rows
    .map(({ span, depth }) => {
      const left = x(span.start);
      const size = Math.max(x(span.end) - left, 0.003);
      return `<div class="row${span.scope === "ai-codemode" ? " ours" : ""}">
        <div class="name" style="padding-left:${depth * 12 + 6}px">${escapeHtml(span.name)}</div>
        <div class="track"><div class="bar" style="left:${percent(left)};width:${percent(size)}"></div></div>
        <div class="note">${escapeHtml(note(span))}</div>
      </div>`;
    })
    .join("\n");
  return `<!doctype html><meta charset="utf-8"><style>
    body { margin: 0; font: 13px system-ui, sans-serif; background: #fff; color: #1f2328; }
    main { padding: 12px 16px; width: 1360px; }
    h1 { font-size: 14px; margin: 0 0 2px; }
    p { margin: 0 0 8px; color: #57606a; font-size: 12px; }
    .rows { position: relative; }
    .row { display: grid; grid-template-columns: 360px 1fr 520px; align-items: center; height: 24px; border-bottom: 1px solid #eef0f2; }
    .name { font-family: ui-monospace, monospace; font-size: 12px; white-space: nowrap; overflow: hidden; }
    .track { position: relative; height: 100%; }
    .bar { position: absolute; top: 7px; height: 10px; background: #8c959f; border-radius: 2px; }
    .ours .bar { background: #0969da; }
    .ours .name { color: #0550ae; }
    .note { padding-left: 10px; font-size: 11px; color: #57606a; white-space: nowrap; overflow: hidden; }
    .axis { position: absolute; top: 0; bottom: 0; left: 360px; right: 520px; pointer-events: none; }
    .gap { position: absolute; top: 0; bottom: 0; background: repeating-linear-gradient(135deg, #f6f8fa 0 6px, #eaeef2 6px 12px); }
    .gap span { position: absolute; bottom: 4px; width: 100%; text-align: center; font-size: 11px; color: #57606a; }
  </style><main>
    <h1>One trace: “Merge pull request 42”, paused, approved after a server restart</h1>
    <p>Trace ${escapeHtml(spans[0]?.traceId ?? "")} · blue: ai-codemode's spans · grey: Next.js's and the AI SDK's (@ai-sdk/otel) · the time axis is broken where nothing ran</p>
    <div class="rows"><div class="axis">${gaps.join("")}</div>${body}</div>
  </main>`;
}
