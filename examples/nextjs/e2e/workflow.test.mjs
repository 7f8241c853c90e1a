// End-to-end: the `/workflow` chat, whose agent runs as a Vercel Workflow (workflows/chat.ts, the local world),
// after `next build`, served by `next start`, driven in headless Chromium. A program pauses on a merge; the
// server is killed (SIGKILL) and started again on the same database and workflow data directory; the reloaded
// page shows the stored card; its Approve wakes the waiting workflow, which finishes the program (the merge runs
// exactly once, in the example's log) and the model answers. A Reject resumes the workflow with the rejection;
// the CLI in another process wakes it too. With OPENAI_API_KEY, the key stays out of the run's stored data.
// Run: npm run e2e (or E2E_WORKFLOW_PORT=3424 node --test e2e/workflow.test.mjs after next build).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { zstdDecompressSync } from "node:zlib";
import { after, before, test } from "node:test";
import {
  appDir,
  ask,
  launchBrowser,
  openChat,
  pendingExecutionId,
  STEP_TIMEOUT_MS,
  startServer,
} from "./support/app-server.mjs";
import { openExampleStore } from "./support/example-store.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-workflow");
const port = Number(process.env.E2E_WORKFLOW_PORT ?? 3424);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
// The local world keeps the runs, their events, hooks and streams here: the restarted server reads the same, and
// this process reads the runs' status from it.
// (withWorkflow puts it in .next/workflow-data unless a target world is named.)
const env = { WORKFLOW_TARGET_WORLD: "local", WORKFLOW_LOCAL_DATA_DIR: path.join(tmpDir, "workflow-data") };
process.env.WORKFLOW_LOCAL_DATA_DIR = env.WORKFLOW_LOCAL_DATA_DIR;

/** Polls the workflow run's status (the local world's data) until it is `expected`. */
async function expectRunStatus(runId, expected) {
  const { getRun } = await import("workflow/api");
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let status = await getRun(runId).status;
  while (status !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await getRun(runId).status;
  }
  assert.equal(status, expected, `workflow run ${runId}`);
}

let server;
let browser;

/** Kills the server the hard way (no shutdown of any kind) and waits until the process is gone. */
async function killServer() {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGKILL");
  await exited;
}

/** Screenshots the page; with UPDATE_SCREENSHOT=1 also into the example's folder (the README's figures). */
async function shot(page, name) {
  const file = path.join(tmpDir, name);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env.UPDATE_SCREENSHOT === "1") copyFileSync(file, path.join(appDir, name));
}

/** The merge card of the page's pending approval, once it shows `number`. */
async function mergeCard(page, number) {
  const approval = page.getByTestId("approval");
  await approval
    .getByTestId("approval-args")
    .filter({ hasText: `"number": ${number}` })
    .waitFor();
  assert.equal(await approval.getByTestId("approval-call").textContent(), "tools.merge_pull_request");
  return approval;
}

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({ port, databaseUrl, env });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (server !== undefined && server.child.exitCode === null) await killServer();
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

test("a program paused in the workflow survives a SIGKILL of the server; Approve on the reloaded card finishes it, the merge once", async () => {
  const page = await openChat(browser, server.baseUrl, { path: "/workflow" });
  assert.match(page.url(), /\/workflow\?chat=wf-/);
  await ask(page, "Merge pull request 42");
  // The program's read ran, and it paused on the merge: the card, from the run's stream.
  const approval = await mergeCard(page, 42);
  assert.match((await page.getByTestId("code").textContent()) ?? "", /tools\.merge_pull_request/);
  const executionId = await pendingExecutionId(page);
  assert.match(executionId, /^wf_/, "the execution of a workflow tool call");
  await page.getByTestId("status").filter({ hasText: "ready" }).waitFor();
  await shot(page, "workflow.png");

  const store = openExampleStore(databaseUrl);
  try {
    const paused = await store.execution(executionId);
    assert.equal(paused.status, "paused");
    assert.deepEqual(
      paused.calls.map((call) => [call.call, call.status]),
      [
        ["tools.list_pull_requests", "applied"],
        ["tools.merge_pull_request", "pending"],
      ],
    );
    assert.deepEqual(await store.merges(), []);
    // The workflow run the execution belongs to is still running: it waits on the pause's hook.
    const runId = await store.workflowRunId(executionId);
    assert.match(runId ?? "", /^wrun_/);
    await expectRunStatus(runId, "running");

    // The server dies while the workflow waits on the pause's hook; another starts on the same data.
    await killServer();
    server = await startServer({ port, databaseUrl, env });
    await page.reload();
    const restored = await mergeCard(page, 42);
    assert.equal(await pendingExecutionId(page), executionId, "the stored card of the same execution");
    assert.equal(await approval.count(), 1);

    await restored.getByTestId("approve").click();
    // The decision woke the workflow; its codemode step read the outcome, the model answered.
    await page.getByText("Done. Merged #42 (c0ffee42).").waitFor();
    const output = page.getByTestId("output");
    assert.equal(await output.getAttribute("data-status"), "completed");
    assert.match((await output.getByTestId("logs").textContent()) ?? "", /merged #42 as c0ffee42/);
    assert.equal(await page.getByTestId("approval").count(), 0);
    await shot(page, "workflow-completed.png");

    assert.deepEqual(await store.merges(), [42], "the merge ran exactly once");
    await expectRunStatus(runId, "completed");
    const completed = await store.execution(executionId);
    assert.equal(completed.status, "completed");
    assert.deepEqual(
      completed.calls.map((call) => [call.call, call.status]),
      [
        ["tools.list_pull_requests", "applied"],
        ["tools.merge_pull_request", "applied"],
      ],
    );
    const userId = await page.getByTestId("user-id").textContent();
    assert.deepEqual(await store.deciders(executionId), { "tools.merge_pull_request": userId });

    // Stored: a reload shows the outcome and the answer, no card.
    await page.reload();
    await page.getByText("Done. Merged #42 (c0ffee42).").waitFor();
    assert.equal(await page.getByTestId("approval").count(), 0);

    // The conversation is the workflow chat's: `/` does not open it, and `/`'s route does not answer it.
    const chatId = new URL(page.url()).searchParams.get("chat");
    const refused = await page.request.post(new URL("/api/chat", server.baseUrl).href, {
      data: {
        id: chatId,
        message: { id: "m-other", role: "user", parts: [{ type: "text", text: "Merge pull request 44" }] },
      },
    });
    assert.equal(refused.status(), 400);
    await page.goto(new URL("/", server.baseUrl).href);
    await page.getByTestId("user-id").waitFor();
    assert.notEqual(new URL(page.url()).searchParams.get("chat"), chatId);
  } finally {
    await store.close();
  }
  await page.close();
});

test("Reject on the card resumes the workflow with the rejection: nothing merged, the model is told", async () => {
  const page = await openChat(browser, server.baseUrl, { path: "/workflow" });
  await ask(page, "Merge pull request 43");
  const approval = await mergeCard(page, 43);
  const executionId = await pendingExecutionId(page);
  await approval.getByTestId("reject").click();
  await page
    .getByTestId("denied")
    .filter({ hasText: /The user rejected tools\.merge_pull_request/ })
    .waitFor();
  // The workflow's tool call ended with the rejection the step read from the journal; the model read it.
  await page.getByText("Nothing more was merged: Rejected by a human at call #2.").waitFor();
  const store = openExampleStore(databaseUrl);
  try {
    assert.equal((await store.execution(executionId)).status, "rejected");
    await expectRunStatus(await store.workflowRunId(executionId), "completed");
    assert.deepEqual(await store.merges(), [42], "no merge of #43");
  } finally {
    await store.close();
  }
  await page.close();
});

test("approved with the CLI in another process: the waiting workflow wakes and completes; the open card shows it", async () => {
  const page = await openChat(browser, server.baseUrl, { path: "/workflow" });
  await ask(page, "Merge pull request 44");
  await mergeCard(page, 44);
  const executionId = await pendingExecutionId(page);
  // The CLI loads lib/codemode.ts, whose wakeCodemodeWorkflows resumes the hook through the same local world.
  execFileSync("npm", ["run", "--silent", "codemode", "--", "approve", executionId], {
    cwd: appDir,
    env: { ...process.env, ...env, CODEMODE_DATABASE_URL: databaseUrl, WORKFLOW_LOCAL_BASE_URL: server.baseUrl },
    stdio: "pipe",
  });
  const store = openExampleStore(databaseUrl);
  try {
    await expectRunStatus(await store.workflowRunId(executionId), "completed");
    assert.deepEqual(await store.merges(), [42, 44], "#44 merged once, by the CLI's approved pass");
  } finally {
    await store.close();
  }
  // The card asks whether it was decided elsewhere, shows the outcome, and the run's answer follows.
  await page.getByText("Done. Merged #44 (c0ffee44).").waitFor();
  assert.equal(await page.getByTestId("approval").count(), 0);
  await page.close();
});

test("an answer with a forged signature decides nothing: the run still waits, the stored card too; the real Approve then works", async () => {
  const page = await openChat(browser, server.baseUrl, { path: "/workflow" });
  const chatId = new URL(page.url()).searchParams.get("chat");
  await ask(page, "Merge pull request 43");
  const approval = await mergeCard(page, 43);
  const executionId = await pendingExecutionId(page);
  await page.getByTestId("status").filter({ hasText: "ready" }).waitFor();
  const store = openExampleStore(databaseUrl);
  try {
    const before = await store.execution(executionId);
    const runId = await store.workflowRunId(executionId);
    const mergedBefore = await store.merges();
    const card = await store.openApprovals(chatId);
    assert.equal(card.length, 1);
    // The page's own answer, its signature changed on the way.
    await page.route("**/api/workflow", (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}");
      for (const part of body.message?.parts ?? []) {
        const signature = part.approval?.signature;
        if (typeof signature === "string") {
          part.approval.signature = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
        }
      }
      return route.continue({ postData: JSON.stringify(body) });
    });
    await approval.getByTestId("approve").click();
    const error = page.getByTestId("tool-error");
    await error.waitFor();
    assert.match((await error.textContent()) ?? "", /has an invalid signature .*Nothing was run\./);
    await page.unroute("**/api/workflow");
    await page.getByTestId("status").filter({ hasText: "ready" }).waitFor();

    assert.deepEqual(await store.execution(executionId), before, "the journal is unchanged");
    assert.deepEqual(await store.merges(), mergedBefore);
    assert.deepEqual(await store.openApprovals(chatId), card, "the stored card still waits");
    await expectRunStatus(runId, "running");

    await page.reload();
    await (await mergeCard(page, 43)).getByTestId("approve").click();
    await page.getByText("Done. Merged #43 (c0ffee43).").waitFor();
    assert.deepEqual(await store.merges(), [...mergedBefore, 43]);
    await expectRunStatus(runId, "completed");
  } finally {
    await store.close();
  }
  await page.close();
});

/** The runs in the local world's data. */
function runIds() {
  return readdirSync(path.join(env.WORKFLOW_LOCAL_DATA_DIR, "runs")).map((name) => name.replace(/\.json$/, ""));
}

/** Every payload the local world stored under `dir` (its JSON files; binary data is base64, maybe zstd-compressed). */
function storedPayloads(dir) {
  const texts = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    // A file being written is renamed into place when complete.
    if (name.includes(".tmp.")) continue;
    if (statSync(file).isDirectory()) {
      texts.push(...storedPayloads(file));
      continue;
    }
    const text = readFileSync(file, "latin1");
    texts.push(text);
    for (const [, data] of text.matchAll(/"data": ?"([A-Za-z0-9+/=]+)"/g)) {
      const bytes = Buffer.from(data, "base64");
      texts.push(
        (bytes.subarray(0, 4).toString() === "zstd" ? zstdDecompressSync(bytes.subarray(4)) : bytes).toString("latin1"),
      );
    }
  }
  return texts;
}

test("with OPENAI_API_KEY the model call is made in the step with the key from the environment; no stored payload holds the key", async () => {
  // A stand-in for OpenAI's Responses API: it records what it is sent and refuses it.
  const received = [];
  const openai = createServer((request, response) => {
    received.push({ path: request.url, authorization: request.headers.authorization });
    response.writeHead(400, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "refused by the test", type: "invalid_request_error" } }));
  });
  await new Promise((resolve) => openai.listen(0, "127.0.0.1", resolve));
  const key = `sk-e2e-${Date.now()}-not-a-real-key`;
  await killServer();
  server = await startServer({
    port,
    databaseUrl,
    env: { ...env, OPENAI_API_KEY: key, OPENAI_BASE_URL: `http://127.0.0.1:${openai.address().port}/v1` },
  });
  try {
    const page = await openChat(browser, server.baseUrl, { path: "/workflow" });
    const chatId = new URL(page.url()).searchParams.get("chat");
    const earlier = new Set(runIds());
    const response = await page.request.post(new URL("/api/workflow", server.baseUrl).href, {
      data: {
        id: chatId,
        message: { id: "m-openai", role: "user", parts: [{ type: "text", text: "Merge pull request 42" }] },
      },
    });
    assert.equal(response.status(), 200);
    await response.text();
    // The run ended (the model call was refused): the world has written all it will.
    const started = runIds().filter((runId) => !earlier.has(runId));
    assert.equal(started.length, 1);
    await expectRunStatus(started[0], "failed");
    // Made by the model step (a retried step would call again, each time with the key read in the step).
    assert.ok(received.length > 0, "the model step called OpenAI");
    for (const call of received) assert.deepEqual(call, { path: "/v1/responses", authorization: `Bearer ${key}` });
    const payloads = storedPayloads(env.WORKFLOW_LOCAL_DATA_DIR);
    assert.ok(
      payloads.some((text) => text.includes("gpt-5-mini")),
      "the model id is in the run's data",
    );
    assert.equal(payloads.filter((text) => text.includes(key)).length, 0, "the key is in no stored payload");
    await page.close();
  } finally {
    await new Promise((resolve) => openai.close(resolve));
  }
});
