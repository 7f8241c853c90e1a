// End-to-end: the codemode components installed from the package's shadcn registry items (components/codemode-*.tsx)
// on the gallery page (/components), each state with a fixed part and decisions recorded on the page: a long argument
// folded with an expander that shows all of it (never cut), the edit form generated from the input schema (text,
// choice, switch, JSON, whole number; invalid input blocks approval and says why), approval by keyboard alone, the
// failed, expired and decided-elsewhere states, light and dark. The app after `next build`, in headless Chromium.
// Run: npm run e2e (or E2E_COMPONENTS_PORT=3423 node --test e2e/components.test.mjs after next build)
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { launchBrowser, STEP_TIMEOUT_MS, startServer, stopServer } from "./support/app-server.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-components");
const port = Number(process.env.E2E_COMPONENTS_PORT ?? 3423);

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
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

async function openGallery() {
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.goto(`${server.baseUrl}/components`);
  await page.getByTestId("gallery-elsewhere").waitFor();
  return page;
}

/** The decisions the page recorded, parsed. */
async function decisionsMade(page) {
  const text = (await page.getByTestId("decisions-log").textContent()) ?? "";
  return text === "" ? [] : text.split("\n").map((line) => JSON.parse(line));
}

test("a long argument is folded, says how much is hidden, and unfolds to all of it", async () => {
  const page = await openGallery();
  const card = page.getByTestId("gallery-long-args");
  const args = card.getByTestId("approval-args");
  assert.equal(await args.getAttribute("data-folded"), "true");
  // Folded is not cut: the whole value is in the page, and the fold says how long it is.
  const shown = JSON.parse((await args.textContent()) ?? "");
  assert.match(shown.body, /END-OF-BODY$/);
  const expander = card.getByRole("button", { name: /^Show all of the arguments \(\d+ lines?, [\d,]+ characters\)$/ });
  assert.equal(await expander.getAttribute("aria-expanded"), "false");
  const foldedHeight = (await args.boundingBox()).height;
  await expander.click();
  assert.equal(await args.getAttribute("data-folded"), "false");
  assert.ok((await args.boundingBox()).height > foldedHeight);
  await card.getByRole("button", { name: "Fold the arguments" }).waitFor();
  await page.close();
});

test("the edit form follows the input schema; invalid input blocks approval; the edit is what gets approved", async () => {
  const page = await openGallery();
  const card = page.getByTestId("gallery-edit-form");
  const field = (name) => card.getByTestId(`approval-field-${name}`);
  assert.deepEqual(
    await card.locator("[data-field]").evaluateAll((fields) => fields.map((f) => [f.dataset.field, f.dataset.kind])),
    [
      ["title", "string"],
      ["priority", "enum"],
      ["draft", "boolean"],
      ["labels", "json"],
      ["count", "integer"],
    ],
  );
  // Every field has an accessible name (its label).
  assert.equal(await card.getByLabel("priority").inputValue(), "low");
  assert.equal(await card.getByRole("checkbox", { name: "draft" }).isChecked(), false);
  await field("count").fill("2.5");
  await card.getByText("count is not a whole number").waitFor();
  assert.equal(await card.getByTestId("approve").isDisabled(), true);
  await field("count").fill("3");
  await field("labels").fill('["ci", "flaky"');
  await card.getByText(/^labels is not valid JSON/).waitFor();
  assert.equal(await card.getByTestId("approve").isDisabled(), true);
  await field("labels").fill('["ci", "flaky"]');
  await field("priority").selectOption("high");
  await card.getByRole("checkbox", { name: "draft" }).check();
  await card.getByTestId("approval-args-original").waitFor();
  assert.equal(await card.getByTestId("approve").textContent(), "Approve with these arguments");
  await card.getByTestId("approve").click();
  assert.deepEqual(await decisionsMade(page), [
    {
      approve: "ap_edit",
      args: { title: "Flaky test", priority: "high", draft: true, labels: ["ci", "flaky"], count: 3 },
    },
  ]);
  await page.close();
});

test("keyboard only: Tab reaches the program's Approve button and Enter approves it", async () => {
  const page = await openGallery();
  const approve = page.getByTestId("gallery-program").getByTestId("approve");
  let reached = false;
  for (let presses = 0; presses < 80 && !reached; presses++) {
    await page.keyboard.press("Tab");
    reached = await approve.evaluate((button) => document.activeElement === button);
  }
  assert.ok(reached, "Tab never reached the Approve button");
  assert.equal(await approve.getAttribute("type"), "button");
  await page.keyboard.press("Enter");
  assert.deepEqual(await decisionsMade(page), [{ approve: "ap_program" }]);
  // The approval card is a labelled region (its heading), found by role and name.
  await page.getByRole("region", { name: /Run the program above\? Nothing has run yet\./ }).waitFor();
  await page.close();
});

test("several calls: each decision is a labelled radio group, an editable one has its form; they travel together", async () => {
  const page = await openGallery();
  const card = page.getByTestId("gallery-several");
  await card.getByRole("radiogroup", { name: "Decision for call 2, github.merge_pull_request" }).waitFor();
  await card.locator('[data-testid="decision"][data-seq="1"]').getByTestId("decide-approve").check();
  await card.locator('[data-testid="decision"][data-seq="2"]').getByTestId("decide-reject").check();
  // Only the editable call offers an edit form; approved with changes, it travels with its arguments.
  assert.equal(await card.getByTestId("decision-edit").count(), 1);
  const third = card.locator('[data-testid="decision"][data-seq="3"]');
  await third.getByTestId("decision-edit").click();
  await third.getByTestId("approval-field-number").fill("4.5");
  await third.getByText("number is not a whole number").waitFor();
  await third.getByTestId("decide-approve").check();
  assert.equal(await card.getByTestId("submit-decisions").isDisabled(), true);
  await third.getByTestId("approval-field-number").fill("46");
  await card.getByTestId("submit-decisions").click();
  assert.deepEqual(await decisionsMade(page), [
    { decide: "ap_s1", choice: { ap_s1: true, ap_s2: false, ap_s3: { approved: true, args: { number: 46 } } } },
  ]);
  await page.close();
});

test("failed, expired and decided elsewhere read as such; light and dark", async () => {
  const page = await openGallery();
  const failed = page.getByTestId("gallery-failed").getByTestId("approval");
  assert.equal(await failed.getAttribute("data-state"), "failed");
  assert.match((await failed.getByRole("alert").textContent()) ?? "", /invalid signature/);
  // A failed answer may be tried again.
  assert.equal(await failed.getByTestId("approve").isDisabled(), false);
  const expired = page.getByTestId("gallery-expired").getByTestId("run-failure");
  assert.equal(await expired.getAttribute("data-kind"), "expired");
  assert.match((await expired.textContent()) ?? "", /^Expired: nobody decided in time/);
  const elsewhere = page.getByTestId("gallery-elsewhere");
  await elsewhere.getByTestId("decided-elsewhere").waitFor();
  assert.match((await elsewhere.getByTestId("result").textContent()) ?? "", /"sha": "c0ffee11"/);
  assert.equal(
    await elsewhere.locator('[data-testid="progress-call"][data-state="applied"]').count(),
    1,
    "the stored calls are listed",
  );
  await page.getByTestId("gallery-running").locator('[data-testid="progress"][data-running="true"]').waitFor();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.screenshot({ path: path.join(tmpDir, "gallery-light.png"), fullPage: true });
  await page.getByTestId("theme-toggle").click();
  assert.notEqual(await background(), light);
  await page.screenshot({ path: path.join(tmpDir, "gallery-dark.png"), fullPage: true });
  await page.close();
});
