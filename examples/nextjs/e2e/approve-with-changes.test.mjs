// End-to-end (issue 26): approve with changes in the chat. A program asks to pay a contributor $500; the person
// edits the pending call's arguments on the card (JSON) to $50 and approves; the payment that ran is $50 (read from
// the example's own log of payments), the journal keeps both argument sets, and the model's answer says the amount
// was changed. A hostile client that edits a call whose method is not editable (a merge) runs nothing. The app after
// `next build`, served by `next start`, with its approval secret set, in headless Chromium.
// Run: npm run e2e (or E2E_EDIT_PORT=3412 node --test e2e/approve-with-changes.test.mjs after next build)
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  appDir,
  ask,
  launchBrowser,
  openChat,
  pendingExecutionId,
  startServer,
  stopServer,
} from "./support/app-server.mjs";
import { answeredPart, captureAnswer, send, tampered } from "./support/answers.mjs";
import { openExampleStore } from "./support/example-store.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-edits");
const port = Number(process.env.E2E_EDIT_PORT ?? 3421);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;

let server;
let browser;
let store;

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({
    port,
    databaseUrl,
    env: { TOOL_APPROVAL_SECRET: "e2e-approve-with-changes-secret-of-32-bytes-or-more" },
  });
  browser = await launchBrowser();
  store = openExampleStore(databaseUrl);
});

after(async () => {
  await browser?.close();
  await stopServer(server);
  await store?.close();
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

test("the person edits the amount of a pending payment, approves, and $50 is paid; the model says so", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Sponsor ana with $500");
  const executionId = await pendingExecutionId(page);
  // The card's edit form has a field per argument, filled with what the program passed; the person edits as JSON.
  assert.equal(await page.getByTestId("approval-field-login").inputValue(), "ana");
  assert.equal(await page.getByTestId("approval-field-amount").inputValue(), "500");
  await page.getByTestId("approval-args-mode").click();
  const editor = page.getByTestId("approval-args-edit");
  assert.deepEqual(JSON.parse(await editor.inputValue()), { login: "ana", amount: 500 });
  // Not valid JSON: the approve button is disabled and says why.
  await editor.fill('{ "login": "ana", "amount": ');
  await page.getByTestId("approval-args-error").waitFor();
  assert.equal(await page.getByTestId("approve").isDisabled(), true);
  await editor.fill(JSON.stringify({ login: "ana", amount: 50 }, null, 2));
  await page.getByText("Approve with these arguments").waitFor();
  const shot = path.join(tmpDir, "approve-with-changes.png");
  await page.getByTestId("approval").screenshot({ path: shot });
  if (process.env.SAVE_README_FIGURES === "1")
    copyFileSync(shot, path.join(appDir, "..", "..", "docs", "approve-with-changes.png"));
  assert.deepEqual(await store.sponsorships(), []);
  await page.getByTestId("approve").click();
  await page
    .getByText("Sponsored ana with $50. The approver changed the amount: the program asked for $500, it ran with $50.")
    .waitFor();
  assert.deepEqual(await store.sponsorships(), [{ login: "ana", amount: 50 }]);
  const stored = await store.execution(executionId);
  assert.equal(stored.status, "completed");
  assert.deepEqual(stored.calls, [
    {
      seq: 1,
      call: "sponsors.sponsor_contributor",
      status: "applied",
      approved: true,
      replayed: 0,
      args: { login: "ana", amount: 500 },
      approvedArgs: { login: "ana", amount: 50 },
    },
  ]);
  await page.close();
});

test("a hostile client editing a merge (not editable) runs nothing; the execution still waits", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull request 42");
  const executionId = await pendingExecutionId(page);
  // The merge card has no editor: merge_pull_request is not editable.
  assert.equal(await page.getByTestId("approval-args-edit").count(), 0);
  assert.equal(await page.getByTestId("approval-args-form").count(), 0);
  const mergedBefore = await store.merges();
  const genuine = await captureAnswer(page, page.getByTestId("approve"), { deliver: false });
  const approvalId = answeredPart(genuine).approval.id;
  // The signature binds the approval id and tool call, not the reason: the edit is checked by the runtime.
  const forged = tampered(genuine, (part) => {
    part.approval.reason = JSON.stringify({
      codemodeDecisions: { [approvalId]: { approved: true, args: { repo: "acme/web", number: 44 } } },
    });
  });
  const response = await send(page, forged);
  assert.equal(response.status, 200);
  assert.match(response.text, /is not editable/);
  assert.deepEqual(await store.merges(), mergedBefore);
  // Refused before anything was claimed: the execution still waits, with the program's own arguments.
  const stored = await store.execution(executionId);
  assert.equal(stored.status, "paused");
  assert.deepEqual(
    stored.calls.map(({ call, status, approved }) => [call, status, approved]),
    [
      ["tools.list_pull_requests", "applied", false],
      ["tools.merge_pull_request", "pending", false],
    ],
  );
  await page.close();
});
