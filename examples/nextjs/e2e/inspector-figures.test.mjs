// End-to-end (issue 22): the web inspector as a person reads it, in headless Chromium, on executions
// made for it: the list with each run's summary, a paused execution whose calls wait together (its
// timeline and the per-call decisions), a program waiting for approval before it runs, Rollback only
// where it can undo something. `createCodemodeInspector` on a plain node:http server (no Next.js
// build needed), on a free port. UPDATE_SCREENSHOT=1 refreshes docs/inspector-list.png,
// docs/inspector-paused.png and docs/inspector-program.png.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { after, afterEach, before, test } from "node:test";
import { tool } from "ai";
import { connector, createCodemodeRuntime } from "ai-codemode";
import { createCodemodeInspector } from "ai-codemode/inspector";
import { z } from "zod";
import { launchBrowser, STEP_TIMEOUT_MS } from "./support/app-server.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-figures");
const docsDir = path.join(import.meta.dirname, "..", "..", "..", "docs");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const pullRequests = [
  { number: 42, title: "Fix the login redirect loop", author: "ana" },
  { number: 43, title: "Bump dependencies", author: "renovate" },
  { number: 44, title: "Add dark mode", author: "li" },
];
const labels = [];

/** The example's GitHub stand-in, plus a label that can be taken off again (a method with a revert). */
const github = connector(
  {
    list_pull_requests: tool({
      description: "List the open pull requests.",
      inputSchema: z.object({ repo: z.string() }),
      execute: async ({ repo }) => pullRequests.map((pr) => ({ ...pr, repo })),
    }),
    get_pull_request: tool({
      description: "Read one pull request.",
      inputSchema: z.object({ repo: z.string(), number: z.number().int() }),
      execute: async ({ repo, number }) => {
        await sleep(40);
        const pr = pullRequests.find((candidate) => candidate.number === number);
        if (pr === undefined) throw new Error(`${repo} has no open pull request #${number}`);
        return { ...pr, repo, checks: number % 2 === 0 ? "passing" : "failing" };
      },
    }),
    merge_pull_request: tool({
      description: "Merge a pull request. Needs approval.",
      inputSchema: z.object({ repo: z.string(), number: z.number().int() }),
      execute: async ({ repo, number }) => ({ repo, number, merged: true, sha: `c0ffee${number}` }),
    }),
    add_label: tool({
      description: "Label a pull request.",
      inputSchema: z.object({ repo: z.string(), number: z.number().int(), label: z.string() }),
      execute: async (args) => {
        labels.push(args);
        return { labeled: true };
      },
    }),
    close_pull_request: tool({
      description: "Close a pull request without merging it.",
      inputSchema: z.object({ repo: z.string(), number: z.number().int() }),
      execute: async ({ repo, number }) => ({ repo, number, closed: true }),
    }),
  },
  {
    methods: {
      merge_pull_request: { needsApproval: true },
      add_label: { revert: (args) => labels.splice(labels.indexOf(args), 1) },
    },
  },
);

const PROGRAMS = {
  review: `async () => {
  const open = await github.list_pull_requests({ repo: "acme/web" });
  const reviewed = [];
  for (const pr of open) reviewed.push(await github.get_pull_request({ repo: "acme/web", number: pr.number }));
  console.log(reviewed.map((pr) => "#" + pr.number + ": " + pr.checks).join(", "));
  return reviewed.map((pr) => ({ number: pr.number, checks: pr.checks }));
}`,
  merge42: `async () => {
  const open = await github.list_pull_requests({ repo: "acme/web" });
  console.log("open pull requests: " + open.map((pr) => "#" + pr.number).join(", "));
  const merged = await github.merge_pull_request({ repo: "acme/web", number: 42 });
  console.log("merged #42 as " + merged.sha);
  return merged;
}`,
  missing: `async () => {
  const pr = await github.get_pull_request({ repo: "acme/web", number: 99 });
  return pr.title;
}`,
  label: `async () => {
  await github.add_label({ repo: "acme/web", number: 43, label: "needs-review" });
  return "labeled #43";
}`,
  mergeAll: `async () => {
  const open = await github.list_pull_requests({ repo: "acme/web" });
  console.log("merging " + open.length + " pull requests at once");
  const settled = await Promise.allSettled(
    open.map((pr) => github.merge_pull_request({ repo: "acme/web", number: pr.number })),
  );
  return settled.map((outcome, i) => ({ number: open[i].number, status: outcome.status }));
}`,
  close: `async () => {
  const closed = await github.close_pull_request({ repo: "acme/web", number: 43 });
  return closed;
}`,
};

let runtime;
let server;
let baseUrl;
let browser;
const ids = {};
const pageErrors = [];

/** The inspector on node:http, as `ai-codemode inspect --web` serves it. */
async function serve(handler) {
  const httpServer = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.concat(chunks);
    const answer = await handler(
      new Request(new URL(request.url ?? "/", `http://${request.headers.host}`), {
        method: request.method,
        headers: Object.entries(request.headers).flatMap(([name, value]) =>
          typeof value === "string" ? [[name, value]] : [],
        ),
        ...(body === undefined ? {} : { body }),
      }),
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return httpServer;
}

/** The journal the figures show, written by the runtime as the app's would. */
async function writeExecutions() {
  ids.review = (await runtime.execute({ code: PROGRAMS.review })).executionId;
  const merge = await runtime.execute({ code: PROGRAMS.merge42 });
  await sleep(1500);
  await runtime.approve({ executionId: merge.executionId, decidedBy: "ana@example.com" });
  ids.merged = merge.executionId;
  ids.missing = (await runtime.execute({ code: PROGRAMS.missing })).executionId;
  ids.label = (await runtime.execute({ code: PROGRAMS.label })).executionId;
  const rejected = await runtime.execute({ code: PROGRAMS.merge42 });
  await sleep(400);
  await runtime.reject({ executionId: rejected.executionId, reason: "not before the release" });
  ids.rejected = rejected.executionId;
  // Three merges of one Promise.allSettled pause together; #42 is approved within milliseconds, the
  // other two still wait: the paused timeline (overlapping waits, one of a few ms).
  const all = await runtime.execute({ code: PROGRAMS.mergeAll });
  await runtime.decide({ executionId: all.executionId, decisions: [{ seq: 2, approved: true }] });
  ids.paused = all.executionId;
  ids.single = (await runtime.execute({ code: PROGRAMS.merge42 })).executionId;
  ids.program = (await runtime.execute({ code: PROGRAMS.close })).executionId;
  await sleep(2500);
}

async function openInspector(hash = "") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/codemode${hash}`);
  await page.locator('[data-testid="execution-row"]').first().waitFor();
  return page;
}

async function openExecution(executionId) {
  const page = await openInspector(`#/e/${encodeURIComponent(executionId)}`);
  await page.getByTestId("timeline").waitFor();
  return page;
}

async function screenshot(page, name) {
  const file = path.join(tmpDir, name);
  await page.screenshot({ path: file });
  if (process.env.UPDATE_SCREENSHOT !== "1") return;
  copyFileSync(file, path.join(docsDir, name));
  // The package ships docs/: a third of the size, looking the same (Debian's pngquant, when installed).
  try {
    execFileSync("pngquant", [
      "--quality",
      "70-95",
      "--speed",
      "1",
      "--force",
      "--output",
      path.join(docsDir, name),
      file,
    ]);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
}

/** Bounding boxes of the timeline's axis labels, left to right. */
function tickBoxes(page) {
  return page.locator(".tl-axis .tick").evaluateAll((ticks) =>
    ticks.map((tick) => {
      const box = tick.getBoundingClientRect();
      return { text: tick.textContent, left: box.left, right: box.right };
    }),
  );
}

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  runtime = createCodemodeRuntime({
    connectors: { github },
    store: `file:${path.join(tmpDir, "figures.db")}`,
    approveProgram: (code) => code.includes("close_pull_request"),
  });
  await writeExecutions();
  server = await serve(
    createCodemodeInspector({ runtime, authorize: () => ({ unscoped: true }), decidedBy: () => "ops@example.com" }),
  );
  baseUrl = `http://127.0.0.1:${server.address().port}`;
  browser = await launchBrowser();
});

afterEach(() => {
  assert.deepEqual(pageErrors.splice(0), [], "no script errors in the pages");
});

after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  await runtime?.close();
  rmSync(tmpDir, { recursive: true, force: true });
});

test("the list says what each execution did: its first calls, what it waits for, its result's first words", async () => {
  const page = await openExecution(ids.merged);
  const summary = (executionId) =>
    page.locator(`[data-testid="execution-row"]:has(a[aria-label="Execution ${executionId}"]) [data-testid="summary"]`);
  assert.equal(
    await summary(ids.review).textContent(),
    'github.list_pull_requests, github.get_pull_request ×3 → [{"number":42,"checks":"passing"},{"number":43,"checks":"fa…',
  );
  assert.equal(
    await summary(ids.paused).textContent(),
    "github.list_pull_requests, github.merge_pull_request ×3 — waiting: github.merge_pull_request",
  );
  assert.equal(await summary(ids.program).textContent(), "the program waits for approval (nothing ran yet)");
  assert.match(
    (await summary(ids.missing).textContent()) ?? "",
    /^github\.get_pull_request — ✗ .*no open pull request #99/,
  );
  assert.match((await summary(ids.rejected).textContent()) ?? "", /✗ Rejected by a human: not before the release\./);
  // The merge has no revert: no Rollback button, and the reason is said.
  assert.equal(await page.getByRole("button", { name: /^Rollback/ }).count(), 0);
  assert.equal(
    await page.getByTestId("no-rollback").textContent(),
    "Nothing to roll back: no applied call has a revert (#1 github.list_pull_requests, #2 github.merge_pull_request).",
  );
  assert.equal(await page.locator("#detail .timeline .bar.pass").count(), 2);
  await screenshot(page, "inspector-list.png");
  await page.context().close();
});

test("a paused execution: calls that waited together are drawn once on the axis, labels apart; each is decided", async () => {
  const page = await openExecution(ids.paused);
  const ticks = await tickBoxes(page);
  assert.ok(ticks.length >= 2, JSON.stringify(ticks));
  for (let index = 1; index < ticks.length; index++)
    assert.ok(ticks[index].left >= ticks[index - 1].right, `axis labels overlap: ${JSON.stringify(ticks)}`);
  assert.equal(ticks[0].text, "+0 ms");
  // Each bar where it happened: #2's short wait between pass 1 and pass 2 (it started pass 2), the open
  // waits of #3 and #4 from pass 2's end to the axis's end, once each on one compressed stretch.
  const boxes = (selector) =>
    page.locator(selector).evaluateAll((bars) =>
      bars.map((bar) => {
        const box = bar.getBoundingClientRect();
        return { left: box.left, right: box.right, end: bar.parentElement.getBoundingClientRect().right };
      }),
    );
  const [pass1, pass2] = await boxes("#detail .bar.pass");
  const waits = await boxes("#detail .bar.wait");
  const near = (a, b, what) =>
    assert.ok(Math.abs(a - b) < 4, `${what}: ${a} vs ${b} (${JSON.stringify({ pass1, pass2, waits })})`);
  assert.equal(waits.length, 3);
  near(waits[0].left, pass1.right, "#2's wait starts where pass 1 paused");
  near(waits[0].right, pass2.left, "#2's wait ends where its approval started pass 2");
  for (const open of waits.slice(1)) {
    near(open.left, pass2.right, "an open wait starts where pass 2 paused");
    near(open.right, open.end, "an open wait lasts to the end of the axis");
  }

  const decisions = page.getByTestId("decisions");
  assert.equal(await decisions.getByTestId("decision").count(), 2);
  assert.match(
    (await decisions.locator("legend").textContent()) ?? "",
    /a call rejected here fails inside the program, which may go on/,
  );
  assert.equal(await page.getByRole("button", { name: "Stop the program" }).count(), 1);
  assert.equal(await page.getByRole("button", { name: "Approve all 2" }).count(), 1);
  assert.equal(await page.getByRole("button", { name: "Submit decisions" }).isDisabled(), true);
  await screenshot(page, "inspector-paused.png");

  // Approve #3, reject #4 inside the program: the Promise.allSettled program goes on and completes.
  await page.getByRole("radio", { name: "Approve #3 github.merge_pull_request" }).check();
  await page.getByRole("radio", { name: "Reject inside the program #4 github.merge_pull_request" }).check();
  await page.getByRole("button", { name: "Submit decisions" }).click();
  await page.locator("#status-line").getByText("Decide 2 calls: completed").waitFor();
  await page.locator("#detail .badge.s-completed").waitFor();
  assert.deepEqual(JSON.parse((await page.getByTestId("result").textContent()) ?? "null"), [
    { number: 42, status: "fulfilled" },
    { number: 43, status: "fulfilled" },
    { number: 44, status: "rejected" },
  ]);
  await page.context().close();
});

test("one waiting call: Approve, or Reject and stop the program, as the button says", async () => {
  const page = await openExecution(ids.single);
  assert.equal(await page.getByRole("button", { name: "Approve #2 github.merge_pull_request" }).count(), 1);
  await page.getByLabel("Reason for rejecting (optional)").fill("wrong branch");
  await page.getByRole("button", { name: "Reject and stop the program" }).click();
  await page.locator("#detail .badge.s-rejected").waitFor();
  assert.match((await page.locator("#detail").textContent()) ?? "", /Rejected by a human: wrong branch\./);
  // The inspector's signed-in user (its decidedBy option) is journaled with the rejection, and shown.
  await page.locator("#detail", { hasText: "by ops@example.com" }).waitFor();
  await page.context().close();
});

test("who decided: an approval given with decidedBy is shown on the execution", async () => {
  const page = await openExecution(ids.merged);
  await page.locator("#detail", { hasText: "by ana@example.com" }).waitFor();
  assert.doesNotMatch((await page.locator("#detail").textContent()) ?? "", /by ops@example\.com/);
  await page.context().close();
});

test("a program waiting for approval: its code as code, its wait before any pass, Approve runs it", async () => {
  const page = await openExecution(ids.program);
  assert.equal(await page.getByRole("button", { name: "Approve and run the program" }).count(), 1);
  assert.equal(await page.getByRole("button", { name: "Reject the program" }).count(), 1);
  assert.match((await page.locator("#detail .meta").textContent()) ?? "", / · 0 passes · 0 calls · /);
  assert.match(
    (await page.locator("#detail h3").allTextContents()).join("|"),
    /Program — waiting for approval: nothing has run yet/,
  );
  const lines = await page.getByTestId("program").locator("li").allTextContents();
  assert.equal(lines[1], '  const closed = await github.close_pull_request({ repo: "acme/web", number: 43 });');
  assert.doesNotMatch((await page.locator("#detail").textContent()) ?? "", /\\n|\\"/);
  assert.equal(await page.locator("#detail .timeline .bar.pass").count(), 0);
  assert.equal(await page.locator("#detail .tl-label", { hasText: "Program approval" }).count(), 1);
  assert.equal(await page.locator("#detail .bar.wait").count(), 1);
  assert.equal(await page.getByText("No calls.").count(), 1);
  await screenshot(page, "inspector-program.png");

  await page.getByRole("button", { name: "Approve and run the program" }).click();
  await page.locator("#detail .badge.s-completed").waitFor();
  assert.equal(await page.locator("#detail .timeline .bar.pass").count(), 1);
  assert.match((await page.locator("#detail").textContent()) ?? "", /approved the program by ops@example\.com at/);
  await page.context().close();
});

test("Rollback is offered where a call can be undone, and says how many", async () => {
  const page = await openExecution(ids.label);
  page.on("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Rollback (undo 1 call)" }).click();
  await page.locator("#detail .badge.s-rolled_back").waitFor();
  assert.deepEqual(labels, []);
  await page.context().close();
});
