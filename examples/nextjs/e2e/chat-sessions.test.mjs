// End-to-end (issue 22): the chat as people use it. An approval card left behind while the chat went on
// still works (or says why it cannot be answered right now); chats are stored, so a reload or another
// device shows a pending approval and it can be decided; another user's approval request is refused and
// runs nothing; no request of the page 404s (the favicon). The app after `next build`, served by
// `next start`, in headless Chromium. Run: npm run e2e
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  ask,
  launchBrowser,
  openChat,
  pendingExecutionId,
  STEP_TIMEOUT_MS,
  startServer,
  stopServer,
} from "./support/app-server.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-sessions");
const port = Number(process.env.E2E_SESSIONS_PORT ?? 3419);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
const TOKEN = "e2e-sessions-inspector-token";

let server;
let browser;

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  // Slow reads (3 × 1.5 s for "Review the pull requests"), so a reply is surely still streaming while a test looks.
  server = await startServer({
    port,
    databaseUrl,
    env: { CODEMODE_INSPECTOR_TOKEN: TOKEN, REVIEW_DELAY_MS: "1500" },
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stopServer(server);
  // KEEP_SCREENSHOTS=1 keeps the folder to look at the screenshots.
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

/** An execution as the inspector's JSON API shows it (the server's own view: every scope). */
async function execution(executionId) {
  const response = await fetch(`${server.baseUrl}/codemode/api/executions/${encodeURIComponent(executionId)}`, {
    headers: { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString("base64")}` },
  });
  assert.equal(response.status, 200);
  const body = await response.json();
  return body.execution ?? body;
}

/**
 * Reloads until `locator` shows: the server saves a response when its stream has ended, which may be a moment
 * after the browser read its last chunk.
 */
async function reloadUntilShown(page, locator) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    await page.reload();
    await page.getByTestId("user-id").waitFor();
    if ((await locator.count()) > 0) return;
    if (Date.now() > deadline) assert.fail(`not shown after reloads: ${locator}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(tmpDir, name), fullPage: true });
}

test("an approval card left behind while the chat went on: disabled with the reason while a reply runs, then Approve works on it", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull request 42");
  const card = page.getByTestId("approval");
  await card.getByTestId("approve").waitFor();
  const executionId = await pendingExecutionId(page);

  // A slow request (reading three pull requests) while the card waits: its buttons say why they wait.
  await ask(page, "Review the pull requests");
  await page.locator('[data-testid="progress"][data-running="true"]').waitFor();
  assert.equal(await card.getByTestId("approve").isDisabled(), true);
  assert.equal(await card.getByTestId("reject").isDisabled(), true);
  assert.equal(
    await card.getByTestId("approval-disabled-reason").textContent(),
    "Wait for the current reply to finish before answering.",
  );
  await shot(page, "stale-card-waiting.png");
  await page.getByText("Reviewed #42 (passing), #43 (failing), #44 (passing).").waitFor();
  await card.getByTestId("approval-disabled-reason").waitFor({ state: "detached" });

  // Now the older card's Approve is sent (with its own message's id) and resolved on that card.
  await card.getByTestId("approve").click();
  const first = page.getByTestId("codemode-call").first();
  await first.locator('[data-testid="output"][data-status="completed"]').waitFor();
  assert.match((await first.getByTestId("result").textContent()) ?? "", /"sha": "c0ffee42"/);
  assert.equal((await execution(executionId)).status, "completed");
  // The later turn is untouched, and the model was not asked to answer again in the middle of the chat.
  assert.equal(await page.getByTestId("message-assistant").count(), 2);
  assert.equal(await page.getByTestId("codemode-call").nth(1).getAttribute("data-state"), "output-available");
  await shot(page, "stale-card-approved.png");

  // Stored that way: a reload shows the outcome on the older card.
  await reloadUntilShown(
    page,
    page.getByTestId("codemode-call").first().locator('[data-testid="output"][data-status="completed"]'),
  );
  assert.equal(await page.getByTestId("approval").count(), 0);
  await page.close();
});

test("a reload shows the pending approval and it can be approved; another device of the same user too", async () => {
  const page = await openChat(browser, server.baseUrl);
  const userId = await page.getByTestId("user-id").textContent();
  await ask(page, "Merge pull requests 43 and 44");
  await page.getByTestId("approve").click();
  await page.locator('[data-testid="approval-args"]', { hasText: '"number": 44' }).waitFor();
  const chatUrl = page.url();

  const card = page.getByTestId("approval");
  await reloadUntilShown(page, card.locator('[data-testid="approval-args"]', { hasText: '"number": 44' }));
  assert.equal(page.url(), chatUrl);
  // What already ran is still said after the reload.
  assert.match((await card.getByTestId("already-ran").textContent()) ?? "", /already ran 2 calls/);
  await shot(page, "reloaded-pending.png");

  // Another device: a fresh browser signed in by the link this page offers, as the same user, into this chat.
  const link = await page.getByTestId("device-link").inputValue();
  assert.match(link, /\/session\?link=/);
  const device = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const other = await openChat(browser, server.baseUrl, { context: device, path: link });
  assert.equal(await other.getByTestId("user-id").textContent(), userId);
  assert.equal(other.url(), chatUrl);
  await other.getByTestId("approval").getByTestId("approve").click();
  await other.getByText("Done. Merged #43 (c0ffee43) and #44 (c0ffee44).").waitFor();
  await device.close();

  // The first device, reloaded, shows the outcome decided on the other one.
  await reloadUntilShown(page, page.getByText("Done. Merged #43 (c0ffee43) and #44 (c0ffee44)."));
  assert.equal(await page.getByTestId("approval").count(), 0);
  await page.close();
});

test("another user's approval request is refused and runs nothing; the owner's own still works", async () => {
  const owner = await openChat(browser, server.baseUrl);
  const ownerId = await owner.getByTestId("user-id").textContent();
  await ask(owner, "Merge pull request 44");
  const executionId = await pendingExecutionId(owner);
  const before = await execution(executionId);
  assert.equal(before.status, "paused");
  assert.equal(before.scope, ownerId, "the execution belongs to the signed-in user (runtime.tool({ scope }))");

  // The exact request the owner's Approve sends, captured and held back.
  let captured;
  await owner.route("**/api/chat", async (route) => {
    captured = route.request().postData();
    await route.abort();
  });
  await owner.getByTestId("approve").click();
  await owner.getByTestId("chat-error").waitFor();
  assert.ok(captured, "the Approve request was captured");
  assert.match(captured, /"state":"approval-responded"/);
  await owner.unroute("**/api/chat");

  // A second user (another browser profile: its own session cookie) replays it, to the owner's chat and into its own.
  const intruder = await openChat(browser, server.baseUrl);
  assert.notEqual(await intruder.getByTestId("user-id").textContent(), ownerId);
  const ownChatId = new URL(intruder.url()).searchParams.get("chat");
  const replies = await intruder.evaluate(
    async ({ body, ownChatId }) => {
      const send = async (text) => {
        const response = await fetch("/api/chat", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: text,
        });
        return { status: response.status, text: await response.text() };
      };
      return [await send(body), await send(JSON.stringify({ ...JSON.parse(body), id: ownChatId }))];
    },
    { body: captured, ownChatId },
  );
  assert.deepEqual(replies, [
    { status: 404, text: "No such chat." },
    { status: 409, text: "This chat has no such message: reload the page to see it as it is now." },
  ]);
  // Opening the owner's chat shows nothing either.
  const visit = await intruder.goto(new URL(owner.url()).href);
  assert.equal(visit?.status(), 404);

  // Nothing ran: still paused on the same pending call, no new pass.
  const after = await execution(executionId);
  assert.equal(after.status, "paused");
  assert.equal(after.passes, before.passes);
  assert.deepEqual(
    after.calls.map((call) => call.status),
    before.calls.map((call) => call.status),
  );
  await intruder.close();

  // The owner reloads (the held-back answer was never delivered) and approves for real.
  await owner.reload();
  await owner.getByTestId("approve").click();
  await owner.getByText("Done. Merged #44 (c0ffee44).").waitFor();
  assert.equal((await execution(executionId)).status, "completed");
  await owner.close();
});

test("no request of the page fails: the favicon is there", async () => {
  const page = await browser.newPage();
  const failed = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(server.baseUrl);
  await page.getByTestId("user-id").waitFor();
  await page.waitForLoadState("networkidle");
  assert.deepEqual(failed, []);
  const icon = await page.locator('link[rel="icon"]').getAttribute("href");
  assert.match(icon ?? "", /^\/icon\.svg/);
  const response = await fetch(new URL(icon ?? "", server.baseUrl));
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /image\/svg\+xml/);
  await page.close();
});
