// End-to-end (issue 16): calls appear in the chat while the program runs; a program shown for
// approval before it runs; three calls of one Promise.all decided in one request.
// The app after `next build`, served by `next start`, in headless Chromium. Run: npm run e2e
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { appDir, ask, launchBrowser, openChat, startServer, stopServer } from "./support/app-server.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-progress");
const port = Number(process.env.E2E_PROGRESS_PORT ?? 3418);

let server;
let browser;

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({ port, databaseUrl: `file:${path.join(tmpDir, "e2e.db")}` });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stopServer(server);
  // KEEP_SCREENSHOTS=1 keeps the folder to look at the screenshots.
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

test("connector calls appear on the tool part while the program runs, then the result", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Review the pull requests");
  // Mid-run: the part shows a running call while the program has not finished.
  const running = page.locator('[data-testid="progress"][data-running="true"]');
  await running.locator('[data-testid="progress-call"][data-state="applied"]').first().waitFor();
  await running.locator('[data-testid="progress-call"][data-state="executing"]').first().waitFor();
  assert.equal(await page.getByText(/^Reviewed /).count(), 0, "the answer must not be there yet");
  assert.equal(await page.getByTestId("output").count(), 0);
  const screenshot = path.join(tmpDir, "chat-progress.png");
  await page.screenshot({ path: screenshot, fullPage: true });
  if (process.env.UPDATE_SCREENSHOT === "1")
    copyFileSync(screenshot, path.join(appDir, "..", "..", "docs", "chat-progress.png"));

  await page.getByText("Reviewed #42 (passing), #43 (failing), #44 (passing).").waitFor();
  const kept = page.locator('[data-testid="progress"][data-running="false"]');
  assert.equal(await kept.locator('[data-testid="progress-call"][data-state="applied"]').count(), 4);
  assert.equal(await page.getByTestId("output").getAttribute("data-status"), "completed");
  // The console lines once: with the output, not again under the calls.
  assert.equal(await page.getByTestId("progress-logs").count(), 0);
  assert.equal(await page.getByTestId("logs").count(), 1);
  assert.match((await page.getByTestId("logs").textContent()) ?? "", /#43: checks failing/);
  await page.close();
});

test("program approval: the code is shown once before anything runs; Approve runs it", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Close pull request 43");
  const approval = page.getByTestId("approval");
  await approval.getByTestId("approve").waitFor();
  assert.equal(await approval.getByTestId("approval-call").textContent(), "codemode.program");
  assert.match((await approval.textContent()) ?? "", /^Run the program above\? Nothing has run yet\./);
  // The code once (the program above is the one approved), and no "call 0".
  assert.match((await page.getByTestId("code").textContent()) ?? "", /tools\.close_pull_request/);
  assert.equal(await approval.getByTestId("approval-program").count(), 0);
  assert.match((await approval.textContent()) ?? "", / · the whole program, before it runs/);
  assert.doesNotMatch((await approval.textContent()) ?? "", /call 0/);
  assert.equal(await page.getByTestId("progress").count(), 0, "nothing ran before the approval");
  await page.screenshot({ path: path.join(tmpDir, "program-approval.png"), fullPage: true });
  await approval.getByTestId("approve").click();
  await page.getByText("Closed #43.").waitFor();
  // The approved program ran in the next request; its calls were streamed there and stay on the part.
  const kept = page.locator('[data-testid="progress"][data-running="false"]');
  assert.equal(await kept.locator('[data-testid="progress-call"][data-state="applied"]').count(), 1);
  assert.match((await kept.textContent()) ?? "", /tools\.close_pull_request/);
  await page.close();
});

test("program approval: Reject ends it with nothing run", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Close pull request 44");
  const approval = page.getByTestId("approval");
  await approval.getByTestId("approve").waitFor();
  assert.equal(await approval.getByTestId("approve").textContent(), "Approve and run the program");
  assert.equal(await approval.getByTestId("reject").textContent(), "Reject the program");
  await approval.getByTestId("reject").click();
  await page.getByTestId("denied").waitFor();
  await page
    .getByText(/^Nothing more was merged: The user rejected the program \(execution \S+\) before it ran: nothing ran\./)
    .waitFor();
  assert.equal(await page.getByTestId("progress").count(), 0);
  await page.close();
});

test("three calls of one Promise.all: approve / reject / approve in one request", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull requests 42, 43 and 44 at once");
  const decisions = page.getByTestId("decision");
  await page.getByTestId("decisions").waitFor();
  assert.equal(await decisions.count(), 3);
  // Nothing ran before them: the card lists them once (no progress list above it), and names all three.
  assert.equal(await page.getByTestId("progress").count(), 0);
  assert.match((await page.getByTestId("approval").textContent()) ?? "", / · calls 1, 2, 3/);
  // A decision's reject happens inside the program; ending it is another button (reject-stops-the-program.md).
  assert.match((await decisions.first().textContent()) ?? "", /reject \(the program gets an error\)/);
  assert.equal(await page.getByTestId("approve-all").textContent(), "Approve all 3");
  assert.equal(await page.getByTestId("reject").textContent(), "Stop the program");
  await page.locator('[data-testid="decision"][data-seq="1"]').getByTestId("decide-approve").check();
  await page.locator('[data-testid="decision"][data-seq="2"]').getByTestId("decide-reject").check();
  await page.locator('[data-testid="decision"][data-seq="3"]').getByTestId("decide-approve").check();
  await page.screenshot({ path: path.join(tmpDir, "decisions.png"), fullPage: true });
  await page.getByTestId("submit-decisions").click();
  await page.getByText("Done. Merged #42 (c0ffee42) and #44 (c0ffee44). Not merged (rejected): #43.").waitFor();
  assert.equal(await page.getByTestId("approval").count(), 0);
  await page.close();
});
