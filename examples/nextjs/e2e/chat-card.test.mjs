// End-to-end: the codemode card of the chat, as a person uses it. A program streams its calls live and pauses;
// Approve, approve with an edited argument, Reject, three calls decided at once, a decision made in the inspector
// while the card is open (the card updates without a click in the chat), and approval by keyboard alone: each with one effect read from the example's own
// database (the pretend GitHub's log, the payments log, the journal), a screenshot in light and dark, and an
// axe-core check of the card. A run of 200 calls streams without stalling the page (long tasks and frame gaps
// measured in the page). The app after `next build`, served by `next start`, in headless Chromium.
// Run: npm run e2e (or E2E_CARD_PORT=3431 node --test e2e/chat-card.test.mjs after next build).
// SAVE_README_FIGURES=1 copies the screenshots to docs/chat-card/; KEEP_SCREENSHOTS=1 keeps e2e/.tmp-card.
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, afterEach, before, test } from "node:test";
import { ask, launchBrowser, STEP_TIMEOUT_MS, startServer, stopServer } from "./support/app-server.mjs";
import { axeReport, card, expectAccessible, screenshotLightAndDark } from "./support/card.mjs";
import { openExampleStore } from "./support/example-store.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-card");
const port = Number(process.env.E2E_CARD_PORT ?? 3431);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
const INSPECTOR_TOKEN = "e2e-card-inspector-token";

let server;
let browser;
let store;
/** Script errors on any page; checked after each test. */
const pageErrors = [];

/**
 * Measures, from `__stall.start()` to `__stall.stop()`, what a person would feel as a stalled page: the long tasks
 * (main-thread work over 50 ms, PerformanceObserver) and the longest gap between two animation frames; and the
 * call counts the card showed meanwhile ("N calls"), which proves the calls arrived while it ran.
 */
function installStallMeter() {
  const meter = {
    running: false,
    startedAt: 0,
    longTasks: [],
    frames: 0,
    maxFrameGap: 0,
    counts: [],
    start() {
      meter.running = true;
      meter.startedAt = performance.now();
      let last = meter.startedAt;
      const tick = (now) => {
        if (!meter.running) return;
        meter.maxFrameGap = Math.max(meter.maxFrameGap, now - last);
        last = now;
        meter.frames += 1;
        const cards = document.querySelectorAll('[data-testid="codemode-call"]');
        const shown = /\b(\d+) calls/.exec(cards[cards.length - 1]?.textContent ?? "");
        if (shown !== null && Number(shown[1]) !== meter.counts.at(-1)?.[1])
          meter.counts.push([Math.round(now - meter.startedAt), Number(shown[1])]);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    stop() {
      meter.running = false;
      const tasks = meter.longTasks.filter((task) => task.startTime >= meter.startedAt).map((task) => task.duration);
      return {
        durationMs: Math.round(performance.now() - meter.startedAt),
        frames: meter.frames,
        maxFrameGapMs: Math.round(meter.maxFrameGap),
        longTasks: tasks.length,
        longestTaskMs: Math.round(Math.max(0, ...tasks)),
        // Total blocking time: the part of each long task over 50 ms.
        blockingMs: Math.round(tasks.reduce((sum, duration) => sum + Math.max(0, duration - 50), 0)),
        counts: meter.counts,
      };
    },
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      meter.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  window.__stall = meter;
}

/** A new user's chat page (its own context), 720 px wide so the card's screenshots stay small. */
async function openChat({ measure = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 720, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  if (measure) await page.addInitScript(installStallMeter);
  await page.goto(server.baseUrl);
  await page.getByTestId("user-id").waitFor();
  return page;
}

/** The card's Approve button (one call or the program waiting). */
const approveButton = (locator) => locator.getByRole("button", { name: /^Approve\b/ });
/** The card's Reject button. */
const rejectButton = (locator) => locator.getByRole("button", { name: /^Reject\b/ });

/** The card waiting for `call` (e.g. `tools.merge_pull_request`) with the arguments `args`. */
async function pausedOn(page, call, args) {
  const open = card(page);
  await approveButton(open).waitFor();
  const text = (await open.textContent()) ?? "";
  assert.ok(text.includes(call), `the card names ${call}: ${text}`);
  for (const [name, value] of Object.entries(args))
    assert.match(text, new RegExp(`"?${name}"?:\\s*"?${String(value).replace("/", "\\/")}`), `the card shows ${name}`);
  return open;
}

/** Changes one argument of the pending call on the card: its form field, else the JSON editor. */
async function editArgument(open, name, value) {
  // A generated form labels the field by its name (maybe with "(required)").
  const field = open.getByLabel(new RegExp(`^${name}(\\s*\\(required\\))?$`));
  if ((await field.count()) === 1) {
    await field.fill(String(value));
    return;
  }
  const editor = open.getByRole("textbox", { name: /arguments/i });
  const args = JSON.parse(await editor.inputValue());
  await editor.fill(JSON.stringify({ ...args, [name]: value }, null, 2));
}

/** Moves the focus by Tab until it is on `target` (at most 40 presses); fails if it never gets there. */
async function tabTo(page, target) {
  const handle = await target.elementHandle();
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press("Tab");
    if (await handle.evaluate((element) => element === document.activeElement)) return;
  }
  assert.fail(`Tab never reached ${await target.textContent()}`);
}

const shoot = (page, name, options = {}) => screenshotLightAndDark(page, card(page), { dir: tmpDir, name, ...options });

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({
    port,
    databaseUrl,
    // Slow reads: the card is seen (and photographed) while a call runs; 200 listings last a few seconds.
    env: { CODEMODE_INSPECTOR_TOKEN: INSPECTOR_TOKEN, REVIEW_DELAY_MS: "2500", LIST_DELAY_MS: "15" },
  });
  browser = await launchBrowser();
  store = openExampleStore(databaseUrl);
});

afterEach(() => {
  assert.deepEqual(pageErrors.splice(0), [], "no script errors in the pages");
});

after(async () => {
  await browser?.close();
  await stopServer(server);
  await store?.close();
  for (const { state, scheme, passes, violations } of axeReport)
    console.log(`axe ${state} (${scheme}): ${passes} rules pass; violations: ${violations.join(", ") || "none"}`);
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

test("the calls stream in live, the program pauses on a merge; Approve merges #42 once", async () => {
  const page = await openChat();
  await ask(page, "Review the pull requests and merge 42");
  // Mid-run: a read has finished, the next one is running, and nothing asks for a decision yet.
  const open = card(page);
  await open.locator('[data-testid="progress-call"][data-state="applied"]').first().waitFor();
  await open.locator('[data-testid="progress-call"][data-state="executing"]').first().waitFor();
  assert.equal(await approveButton(open).count(), 0);
  await shoot(page, "streaming");
  await expectAccessible(page, open, "streaming");

  await pausedOn(page, "tools.merge_pull_request", { repo: "acme/web", number: 42 });
  assert.deepEqual(await store.merges(), [], "nothing is merged before the approval");
  await shoot(page, "paused");
  await expectAccessible(page, open, "paused");

  await approveButton(open).click();
  await page.getByText("Done. Merged #42 (c0ffee42).").waitFor();
  assert.deepEqual(await store.merges(), [42]);
  await shoot(page, "approved");
  await expectAccessible(page, open, "approved");
  await page.context().close();
});

test("approve with an edited argument: the program asks $500, the person makes it $50, $50 is paid", async () => {
  const page = await openChat();
  await ask(page, "Sponsor ana with $500");
  const open = await pausedOn(page, "sponsors.sponsor_contributor", { login: "ana", amount: 500 });
  await editArgument(open, "amount", 50);
  await shoot(page, "edited");
  await expectAccessible(page, open, "edited");
  await approveButton(open).click();
  await page
    .getByText("Sponsored ana with $50. The approver changed the amount: the program asked for $500, it ran with $50.")
    .waitFor();
  assert.deepEqual(await store.sponsorships(), [{ login: "ana", amount: 50 }]);
  await page.context().close();
});

test("Reject: the program stops and #43 is not merged", async () => {
  const page = await openChat();
  await ask(page, "Merge pull request 43");
  const open = await pausedOn(page, "tools.merge_pull_request", { repo: "acme/web", number: 43 });
  const mergedBefore = await store.merges();
  await rejectButton(open).click();
  await page.getByText(/^Nothing more was merged: The user rejected tools\.merge_pull_request/).waitFor();
  const executionId = await store.latestExecutionId("for (const number of [43])");
  assert.equal((await store.execution(executionId)).status, "rejected");
  assert.deepEqual(await store.merges(), mergedBefore);
  await shoot(page, "rejected");
  await expectAccessible(page, open, "rejected");
  await page.context().close();
});

test("three calls decided at once: approve #42, reject #43, approve #44 in one answer", async () => {
  const page = await openChat();
  await ask(page, "Merge pull requests 42, 43 and 44 at once");
  const open = card(page);
  await open.getByTestId("decisions").waitFor();
  const decision = (seq) => open.locator(`[data-testid="decision"][data-seq="${seq}"]`);
  assert.equal(await open.getByTestId("decision").count(), 3);
  const mergedBefore = await store.merges();
  await decision(1).getByTestId("decide-approve").check();
  await decision(2).getByTestId("decide-reject").check();
  await decision(3).getByTestId("decide-approve").check();
  await shoot(page, "three-at-once");
  await expectAccessible(page, open, "three at once");
  await open.getByTestId("submit-decisions").click();
  await page.getByText("Done. Merged #42 (c0ffee42) and #44 (c0ffee44). Not merged (rejected): #43.").waitFor();
  assert.deepEqual((await store.merges()).slice(mergedBefore.length), [42, 44]);
  await page.context().close();
});

test("decided in the inspector while the card is open: the card updates by itself, #44 merges once, its calls are listed", async () => {
  const page = await openChat();
  await ask(page, "Merge pull request 44");
  const open = await pausedOn(page, "tools.merge_pull_request", { repo: "acme/web", number: 44 });
  const executionId = await store.latestExecutionId("for (const number of [44])");
  const mergedBefore = await store.merges();

  const inspectorContext = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    httpCredentials: { username: "admin", password: INSPECTOR_TOKEN },
  });
  const inspector = await inspectorContext.newPage();
  inspector.setDefaultTimeout(STEP_TIMEOUT_MS);
  inspector.on("pageerror", (error) => pageErrors.push(error.message));
  await inspector.goto(`${server.baseUrl}/codemode#/e/${encodeURIComponent(executionId)}`);
  await inspector.getByRole("button", { name: /^Approve #\d+ tools\.merge_pull_request$/ }).click();
  await inspector
    .locator("#status-line")
    .getByText(/: completed$/)
    .waitFor();
  await inspectorContext.close();
  assert.deepEqual((await store.merges()).slice(mergedBefore.length), [44]);

  // No click in the chat: the open card learns by itself (app/api/chat/status) that its call was decided, answers,
  // and shows what the store holds; nothing runs again.
  await page.getByText("Done. Merged #44 (c0ffee44).").waitFor();
  assert.deepEqual((await store.merges()).slice(mergedBefore.length), [44], "merged once");
  await open.locator('[data-testid="progress-call"]').first().waitFor();
  const shown = (await open.textContent()) ?? "";
  assert.match(shown, /\b2 calls/i, "the card lists the calls that ran");
  assert.match(shown, /decided elsewhere/i, "the card says the decision was made elsewhere");
  await shoot(page, "decided-in-inspector");
  await expectAccessible(page, open, "decided in the inspector");
  await page.context().close();
});

test("keyboard only: Tab to Approve, Enter merges #43; Tab to the next Approve, Space merges #44", async () => {
  const page = await openChat();
  await ask(page, "Merge pull requests 43 and 44");
  const mergedBefore = await store.merges();
  const first = await pausedOn(page, "tools.merge_pull_request", { repo: "acme/web", number: 43 });
  await page.locator("body").focus();
  await tabTo(page, approveButton(first));
  assert.equal(
    await page.evaluate(() => document.activeElement?.matches(":focus-visible")),
    true,
    "the focus is visible",
  );
  // Not a docs figure: the paused card of the first test, with the focus ring on Approve.
  await shoot(page, "keyboard-focus", { figure: false });
  await page.keyboard.press("Enter");
  const second = await pausedOn(page, "tools.merge_pull_request", { repo: "acme/web", number: 44 });
  await tabTo(page, approveButton(second));
  await page.keyboard.press("Space");
  await page.getByText("Done. Merged #43 (c0ffee43) and #44 (c0ffee44).").waitFor();
  assert.deepEqual((await store.merges()).slice(mergedBefore.length), [43, 44]);
  await page.context().close();
});

test("200 calls stream into the card without stalling the page", async (t) => {
  const page = await openChat({ measure: true });
  await page.getByTestId("prompt").fill("Count the open pull requests of 200 repositories");
  await page.evaluate(() => window.__stall.start());
  await page.getByTestId("prompt").press("Enter");
  await page.getByText("Counted 600 open pull requests in 200 repositories.").waitFor();
  const measured = await page.evaluate(() => window.__stall.stop());
  // [ms after the prompt, calls shown] each time the card's count changed.
  const counts = measured.counts.map(([, count]) => count);
  t.diagnostic(`200 calls: ${JSON.stringify(measured)}`);
  // Generous bounds a stalled page breaks: no main-thread task, and no wait between two frames, of a second.
  assert.ok(measured.longestTaskMs < 1_000, `the longest task took ${measured.longestTaskMs} ms`);
  assert.ok(measured.maxFrameGapMs < 1_000, `two frames were ${measured.maxFrameGapMs} ms apart`);
  // Live: the card showed counts between the first call and the last (not only the end).
  assert.ok(
    counts.some((count) => count > 0 && count < 200),
    `the card showed calls while the run went on: ${counts}`,
  );
  assert.equal(counts.at(-1), 200);
  const executionId = await store.latestExecutionId("acme/repo-");
  const stored = await store.execution(executionId);
  assert.equal(stored.calls.filter((call) => call.status === "applied").length, 200);
  await expectAccessible(page, card(page), "200 calls");
  await page.context().close();
});
