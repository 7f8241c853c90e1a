// End-to-end: the example app after `next build`, served by `next start`, driven in
// headless Chromium (Debian's `chromium`, via playwright-core). Run: npm run e2e
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  appDir,
  ask,
  launchBrowser,
  openChat as openPage,
  pendingExecutionId,
  startServer,
  stopServer,
  STEP_TIMEOUT_MS,
} from "./support/app-server.mjs";
import { openExampleStore } from "./support/example-store.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp");
const port = Number(process.env.E2E_PORT ?? 3417);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;

let server;
let browser;

const openChat = () => openPage(browser, server.baseUrl);

async function expectApproval(page, { method, args }) {
  // Polls: right after a click the previous request may still be on screen.
  const approval = page.getByTestId("approval");
  const expected = JSON.stringify({ method, args });
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let seen = "nothing";
  while (Date.now() < deadline) {
    if ((await approval.count()) === 1) {
      const shown = await approval.evaluate((element) => ({
        call: element.querySelector('[data-testid="approval-call"]')?.textContent ?? "",
        args: element.querySelector('[data-testid="approval-args"]')?.textContent ?? "",
      }));
      seen = JSON.stringify(shown);
      try {
        if (JSON.stringify({ method: shown.call, args: JSON.parse(shown.args) }) === expected) return approval;
      } catch {
        // arguments not rendered yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`expected an approval request for ${expected}, saw ${seen}`);
}

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({ port, databaseUrl });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stopServer(server);
});

test("prompt → approval with connector, method and arguments → Approve → final answer; the journal names who approved", async () => {
  const page = await openChat();
  await ask(page, "Merge pull request 42");
  const approval = await expectApproval(page, {
    method: "tools.merge_pull_request",
    args: { repo: "acme/web", number: 42 },
  });
  assert.match((await page.getByTestId("code").textContent()) ?? "", /tools\.merge_pull_request/);
  const screenshot = path.join(tmpDir, "approval.png");
  await page.screenshot({ path: screenshot, fullPage: true });
  if (process.env.UPDATE_SCREENSHOT === "1") copyFileSync(screenshot, path.join(appDir, "approval.png"));

  const executionId = await pendingExecutionId(page);
  const userId = await page.getByTestId("user-id").textContent();
  assert.ok(userId, "the page names its signed-in user");

  await approval.getByTestId("approve").click();
  await page.getByText("Done. Merged #42 (c0ffee42).").waitFor();
  // The journal records who approved: the chat route passes its signed-in user as decidedBy.
  const store = openExampleStore(databaseUrl);
  try {
    assert.deepEqual(await store.deciders(executionId), { "tools.merge_pull_request": userId });
  } finally {
    await store.close();
  }
  const output = page.getByTestId("output");
  assert.equal(await output.getAttribute("data-status"), "completed");
  assert.match((await output.getByTestId("logs").textContent()) ?? "", /merged #42 as c0ffee42/);
  assert.match((await output.getByTestId("result").textContent()) ?? "", /"merged": true/);
  assert.equal(await page.getByTestId("approval").count(), 0);
  await page.screenshot({ path: path.join(tmpDir, "completed.png"), fullPage: true });
  await page.close();
});

test("Reject: the execution stops and the model is told", async () => {
  const page = await openChat();
  await ask(page, "Merge pull request 43");
  const approval = await expectApproval(page, {
    method: "tools.merge_pull_request",
    args: { repo: "acme/web", number: 43 },
  });
  // One meaning of "reject" everywhere (docs/decisions/reject-stops-the-program.md), said on the button.
  assert.equal(await approval.getByTestId("reject").textContent(), "Reject and stop the program");
  await approval.getByTestId("reject").click();
  await page.getByTestId("denied").waitFor();
  await page.getByText(/^Nothing more was merged: The user rejected tools\.merge_pull_request/).waitFor();
  assert.equal(await page.getByTestId("output").count(), 0);
  await page.close();
});

test("the server restarts between the pause and the approval; two approvals in sequence", async () => {
  const page = await openChat();
  await ask(page, "Merge pull requests 43 and 44");
  await expectApproval(page, { method: "tools.merge_pull_request", args: { repo: "acme/web", number: 43 } });

  await stopServer(server);
  server = await startServer({ port, databaseUrl });

  await page.getByTestId("approve").click();
  const second = await expectApproval(page, {
    method: "tools.merge_pull_request",
    args: { repo: "acme/web", number: 44 },
  });
  await second.getByTestId("approve").click();
  await page.getByText("Done. Merged #43 (c0ffee43) and #44 (c0ffee44).").waitFor();
  assert.match((await page.getByTestId("logs").textContent()) ?? "", /merged #43 as c0ffee43\nmerged #44 as c0ffee44/);
  await page.close();
});

test("approve #43, reject #44: the second card says what already ran; the rejection and the answer name the merge", async () => {
  const page = await openChat();
  await ask(page, "Merge pull requests 43 and 44");
  await (await expectApproval(page, { method: "tools.merge_pull_request", args: { repo: "acme/web", number: 43 } }))
    .getByTestId("approve")
    .click();
  const second = await expectApproval(page, {
    method: "tools.merge_pull_request",
    args: { repo: "acme/web", number: 44 },
  });
  // The second card of the program: the calls before it are listed, and it says they already ran.
  assert.equal(
    await second.getByTestId("already-ran").textContent(),
    "This execution already ran 2 calls (listed above). Rejecting stops the program; it does not undo them.",
  );
  const calls = page.getByTestId("progress-call");
  assert.deepEqual(await calls.evaluateAll((items) => items.map((item) => item.getAttribute("data-state"))), [
    "replayed",
    "applied",
    "pending",
  ]);
  assert.match(
    (await calls.nth(1).textContent()) ?? "",
    /tools\.merge_pull_request\(\{"repo":"acme\/web","number":43\}\)/,
  );
  await page.screenshot({ path: path.join(tmpDir, "second-card.png"), fullPage: true });

  await second.getByTestId("reject").click();
  const denied = page.getByTestId("denied");
  await denied.waitFor();
  assert.match(
    (await denied.textContent()) ?? "",
    /Calls that had already run stay applied \(they were not undone\): .*tools\.merge_pull_request\(\{"repo":"acme\/web","number":43\}\) \(call 2\)/,
  );
  // The model read the same text and its answer names the merge that happened.
  await page
    .getByText(
      /^Merged before the rejection: #43\. Nothing more was merged: The user rejected tools\.merge_pull_request/,
    )
    .waitFor();
  await page.screenshot({ path: path.join(tmpDir, "mixed-decision.png"), fullPage: true });
  await page.close();
});
