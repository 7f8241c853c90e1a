// End-to-end: the web inspector mounted at /codemode in the example app (after `next build`),
// next to the chat, driven in headless Chromium (Debian's `chromium`, via playwright-core).
// Run: npm run e2e. The inspector's screenshots in docs/ come from e2e/inspector-figures.test.mjs.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, afterEach, before, test } from "node:test";
import { createCodemodeRuntime } from "ai-codemode";
import { chromium } from "playwright-core";

const appDir = path.join(import.meta.dirname, "..");
const tmpDir = path.join(import.meta.dirname, ".tmp-inspector");
const port = Number(process.env.E2E_INSPECTOR_PORT ?? 3418);
const baseUrl = `http://127.0.0.1:${port}`;
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
const TOKEN = "e2e-inspector-token";
const CREDENTIALS = { username: "admin", password: TOKEN };
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];
const STEP_TIMEOUT_MS = 30_000;

let server;
let browser;
/** Script errors on any page; checked after each test. */
const pageErrors = [];

function chromiumPath() {
  return process.env.CHROMIUM_PATH || execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
}

async function startServer() {
  const { OPENAI_API_KEY: _ignored, ...env } = process.env;
  const child = spawn(
    process.execPath,
    [path.join(appDir, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: appDir,
      env: { ...env, CODEMODE_DATABASE_URL: databaseUrl, CODEMODE_INSPECTOR_TOKEN: TOKEN, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      // A visitor without a session is redirected to /session: up is any answer.
      if ((await fetch(baseUrl, { redirect: "manual" })).status < 500) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`next start did not answer within ${STEP_TIMEOUT_MS} ms:\n${output}`);
}

async function newPage({ credentials, width = 1280, height = 860 } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    ...(credentials ? { httpCredentials: credentials } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return page;
}

/** Starts a paused execution from the chat and returns the chat page showing its approval. */
async function pauseFromChat(number) {
  const chat = await newPage({ width: 900, height: 900 });
  await chat.goto(baseUrl);
  await chat.getByTestId("prompt").fill(`Merge pull request ${number}`);
  await chat.getByTestId("prompt").press("Enter");
  await chat.getByTestId("approval").waitFor();
  assert.match((await chat.getByTestId("approval-args").textContent()) ?? "", new RegExp(`"number":\\s*${number}`));
  return chat;
}

async function openInspector() {
  const page = await newPage({ credentials: CREDENTIALS });
  await page.goto(`${baseUrl}/codemode`);
  return page;
}

function pausedRow(page) {
  return page.locator('[data-testid="execution-row"][data-status="paused"]');
}

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer();
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
});

afterEach(() => {
  assert.deepEqual(pageErrors.splice(0), [], "no script errors in the pages");
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  // KEEP_SCREENSHOTS=1 keeps the folder to look at the screenshots.
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

test("the list shows a paused execution from the chat; its timeline; Approve in the inspector; the chat shows the result", async () => {
  const chat = await pauseFromChat(42);
  const inspector = await openInspector();
  await pausedRow(inspector).waitFor(); // the list refreshes by itself
  assert.equal(await pausedRow(inspector).count(), 1);
  assert.match((await pausedRow(inspector).textContent()) ?? "", /paused \(1\)/);

  await pausedRow(inspector).getByRole("link").click();
  const timeline = inspector.getByTestId("timeline");
  await timeline.waitFor();
  assert.equal(await timeline.locator(".bar.pass").count(), 1);
  assert.equal(await timeline.locator(".bar.wait").count(), 1);
  assert.match((await inspector.getByTestId("program").textContent()) ?? "", /tools\.merge_pull_request/);
  const approve = inspector.getByRole("button", { name: /^Approve #\d+ tools\.merge_pull_request$/ });
  await approve.click();
  await inspector
    .locator("#status-line")
    .getByText(/: completed$/)
    .waitFor();
  await inspector.locator("#detail .badge.s-completed").waitFor();
  assert.equal(await timeline.locator(".bar.pass").count(), 2);
  assert.ok((await timeline.locator(".mark.replay").count()) >= 1, "replayed calls are marked in pass 2");
  assert.match((await inspector.getByTestId("logs").textContent()) ?? "", /merged #42 as c0ffee42/);

  // The open chat learns of the decision by itself (useCodemodeDecisions' statusApi) and shows the stored outcome,
  // without a click on its own card (it asks with backoff, at most every 30 s).
  await chat.getByText("Done. Merged #42 (c0ffee42).").waitFor({ timeout: 60_000 });
  assert.equal(await chat.getByTestId("output").getAttribute("data-status"), "completed");
  assert.match((await chat.getByTestId("result").textContent()) ?? "", /"merged": true/);
  await chat.context().close();
  await inspector.context().close();
});

test("an unauthorised request is refused", async () => {
  const page = await fetch(`${baseUrl}/codemode`, { headers: { accept: "text/html" } });
  assert.equal(page.status, 401);
  assert.match(page.headers.get("www-authenticate") ?? "", /^Basic /, "a page load asks for credentials");
  for (const url of [`${baseUrl}/codemode`, `${baseUrl}/codemode/api/executions`, `${baseUrl}/codemode/api/pending`]) {
    const anonymous = await fetch(url);
    assert.equal(anonymous.status, 401, url);
    assert.deepEqual(await anonymous.json(), { error: "Not authorized: sign in with the inspector token." });
    const wrong = await fetch(url, {
      headers: { authorization: `Basic ${Buffer.from("admin:guess").toString("base64")}` },
    });
    assert.equal(wrong.status, 401, url);
  }
  const approve = await fetch(`${baseUrl}/codemode/api/executions/x/approve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  assert.equal(approve.status, 401);
  // A signed-out browser on the app's own origin gets nothing from the API either.
  const browserPage = await newPage();
  await browserPage.goto(baseUrl);
  const statuses = await browserPage.evaluate(async () => [
    (await fetch("/codemode/api/executions")).status,
    (
      await fetch("/codemode/api/executions/x/approve", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
    ).status,
  ]);
  assert.deepEqual(statuses, [401, 401]);
  await browserPage.context().close();
});

test("keyboard only: focus order, the row link opens by Enter, Approve and Reject reachable by Tab, Reject and stop by Space", async () => {
  const chat = await pauseFromChat(43);
  const inspector = await openInspector();
  await pausedRow(inspector).waitFor();
  const focused = () =>
    inspector.evaluate(() => {
      const element = document.activeElement;
      return {
        tag: element?.tagName.toLowerCase(),
        text: (element?.textContent ?? "").trim(),
        id: element?.id,
        label: element?.getAttribute("aria-label"),
      };
    });
  await inspector.keyboard.press("Tab");
  assert.deepEqual(
    await focused().then(({ tag, id }) => ({ tag, id })),
    { tag: "select", id: "status-filter" },
    "the status filter comes first",
  );
  const pausedLabel = await pausedRow(inspector).getByRole("link").getAttribute("aria-label");
  const labels = await inspector
    .locator('[data-testid="execution-row"] a')
    .evaluateAll((links) => links.map((link) => link.getAttribute("aria-label")));
  for (const label of labels) {
    await inspector.keyboard.press("Tab");
    assert.deepEqual(
      await focused().then(({ tag, label: name }) => ({ tag, name })),
      { tag: "a", name: label },
      "rows are reached in list order",
    );
    if (label === pausedLabel) break;
  }
  await inspector.keyboard.press("Enter");
  await inspector.getByTestId("timeline").waitFor();
  await inspector.keyboard.press("Tab");
  const approve = await focused();
  assert.equal(approve.tag, "button");
  assert.match(approve.text, /^Approve #\d+ tools\.merge_pull_request$/);
  assert.equal(
    await inspector.evaluate(() => document.activeElement.matches(":focus-visible")),
    true,
    "focus is visible",
  );
  await inspector.keyboard.press("Tab");
  assert.deepEqual(await focused(), {
    tag: "input",
    text: "",
    id: "reject-reason",
    label: "Reason for rejecting (optional)",
  });
  await inspector.keyboard.type("not this one");
  await inspector.keyboard.press("Tab");
  assert.equal((await focused()).text, "Reject and stop the program");
  await inspector.keyboard.press("Space");
  await inspector.locator("#status-line").getByText("Reject and stop the program: rejected").waitFor();
  await inspector.locator("#detail .badge.s-rejected").waitFor();
  assert.match((await inspector.locator("#detail").textContent()) ?? "", /Rejected by a human: not this one\./);
  await chat.context().close();
  await inspector.context().close();
});

test("hostile program text, logs and results are shown as text, never as markup", async () => {
  const runtime = createCodemodeRuntime({ store: databaseUrl });
  const code =
    "async () => { console.log('<img src=x onerror=\"window.__pwned=1\">'); return { html: '</pre><script>window.__pwned=2</script>' }; }";
  const out = await runtime.execute({ code });
  await runtime.close();
  assert.equal(out.status, "completed");
  const inspector = await openInspector();
  await inspector.goto(`${baseUrl}/codemode#/e/${encodeURIComponent(out.executionId)}`);
  await inspector.getByTestId("result").waitFor();
  assert.equal(await inspector.evaluate(() => window.__pwned), undefined);
  assert.equal(await inspector.locator("#detail img, #detail script").count(), 0);
  assert.match((await inspector.getByTestId("program").textContent()) ?? "", /<img src=x onerror=/);
  assert.match((await inspector.getByTestId("logs").textContent()) ?? "", /<img src=x onerror="window.__pwned=1">/);
  assert.match(
    (await inspector.getByTestId("result").textContent()) ?? "",
    /<\/pre><script>window.__pwned=2<\/script>/,
  );
  await inspector.context().close();
});

test("approve with changes in the inspector: the arguments edited as JSON, the call runs with them, both sets shown", async () => {
  const chat = await newPage({ width: 900, height: 900 });
  await chat.goto(baseUrl);
  await chat.getByTestId("prompt").fill("Sponsor li with $300");
  await chat.getByTestId("prompt").press("Enter");
  await chat.getByTestId("approval-args-form").waitFor();
  const footer =
    (await chat
      .getByTestId("approval")
      .getByText(/^execution /)
      .textContent()) ?? "";
  const executionId = /^execution (\S+) ·/.exec(footer)?.[1];
  assert.ok(executionId, footer);
  const inspector = await openInspector();
  await inspector.goto(`${baseUrl}/codemode#/e/${encodeURIComponent(executionId)}`);
  const editor = inspector.getByTestId("args-edit");
  await editor.waitFor();
  assert.deepEqual(JSON.parse(await editor.inputValue()), { login: "li", amount: 300 });
  // Not JSON: nothing is sent, the status line says why.
  await editor.fill("{ amount: 30");
  await inspector.getByRole("button", { name: /^Approve #1 sponsors\.sponsor_contributor$/ }).click();
  await inspector
    .locator("#status-line")
    .getByText(/not valid JSON/)
    .waitFor();
  await editor.fill(JSON.stringify({ login: "li", amount: 30 }, null, 2));
  // The page refreshes itself while the person types: the edit stays.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  assert.deepEqual(JSON.parse(await inspector.getByTestId("args-edit").inputValue()), { login: "li", amount: 30 });
  if (process.env.KEEP_SCREENSHOTS === "1")
    await inspector.screenshot({ path: path.join(tmpDir, "inspector-edit.png"), fullPage: true });
  await inspector.getByRole("button", { name: /^Approve #1 sponsors\.sponsor_contributor$/ }).click();
  await inspector
    .locator("#status-line")
    .getByText(/with changed arguments: completed$/)
    .waitFor();
  assert.deepEqual(JSON.parse((await inspector.getByTestId("approved-args").textContent()) ?? ""), {
    login: "li",
    amount: 30,
  });
  const journal = createCodemodeRuntime({ store: databaseUrl });
  const detail = await journal.execution(executionId);
  await journal.close();
  assert.deepEqual(
    detail?.calls.map(({ args, approvedArgs, result }) => ({ args, approvedArgs, result })),
    [
      {
        args: { login: "li", amount: 300 },
        approvedArgs: { login: "li", amount: 30 },
        result: { login: "li", amount: 30, receipt: "sp_li_30" },
      },
    ],
  );
  await chat.context().close();
  await inspector.context().close();
});
