// End-to-end (issue 24): the chat with its approval secret set (TOOL_APPROVAL_SECRET, given to streamText's
// experimental_toolApprovalSecret and to the bridge's toolApprovalSecret). Every approval request the browser
// gets is signed; answers a hostile client makes up are refused and run nothing: a forged approval id, a forged
// or dropped signature, an approval moved from another conversation, an old approval replayed. Each time the
// test reads the store itself — the execution (status, passes, every call) and the pretend GitHub's log of
// merges — not only the page. The app after `next build`, served by `next start`, in headless Chromium.
// Run: npm run e2e
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
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

const tmpDir = path.join(import.meta.dirname, ".tmp-signed");
const port = Number(process.env.E2E_SIGNED_PORT ?? 3420);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
const SECRET = "e2e-signed-approvals-secret-of-32-bytes-or-more"; // the secret rule: at least 32 bytes

let server;
let browser;
let store;

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({ port, databaseUrl, env: { TOOL_APPROVAL_SECRET: SECRET } });
  browser = await launchBrowser();
  // The same database, read directly: the pretend GitHub's log, the stored chats, and the journal.
  store = openExampleStore(databaseUrl);
});

after(async () => {
  await browser?.close();
  await stopServer(server);
  await store?.close();
  // KEEP_SCREENSHOTS=1 keeps the folder to look at the screenshots.
  if (process.env.KEEP_SCREENSHOTS !== "1") rmSync(tmpDir, { recursive: true, force: true });
});

const chatIdOf = (page) => new URL(page.url()).searchParams.get("chat");
const merges = () => store.merges();
const stored = (executionId) => store.execution(executionId);

/** The approval id on the open card. */
async function cardApprovalId(page) {
  return answeredPart(await captureAnswer(page, page.getByTestId("approve"), { deliver: false })).approval.id;
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(tmpDir, name), fullPage: true });
}

test("signed approval requests; Reject, and several calls decided in one answer, run exactly what was decided", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull request 42");
  const executionId = await pendingExecutionId(page);
  const part = answeredPart(await captureAnswer(page, page.getByTestId("approve"), { deliver: false }));
  // The bridge's own payload (src/ai/ui/approval-signature.ts): its tag, the approval id, the tool call, the tool.
  const payload = JSON.stringify(["ai-codemode-approval-v1", part.approval.id, part.toolCallId, "codemode"]);
  assert.equal(part.approval.signature, createHmac("sha256", SECRET).update(payload).digest("base64url"));

  // Reject: the execution ends rejected, nothing merged.
  const mergedBefore = await merges();
  await page.reload();
  await page.getByTestId("reject").click();
  await page.getByTestId("denied").waitFor();
  assert.equal((await stored(executionId)).status, "rejected");
  assert.deepEqual(await merges(), mergedBefore);

  // Three calls of a Promise.all, decided in one answer: #42 and #44 approved, #43 rejected.
  await ask(page, "Merge pull requests 42, 43 and 44 at once");
  await page.getByTestId("decisions").waitFor();
  const together = await pendingExecutionId(page);
  for (const [seq, decision] of [
    [1, "decide-approve"],
    [2, "decide-reject"],
    [3, "decide-approve"],
  ]) {
    await page.locator(`[data-testid="decision"][data-seq="${seq}"]`).getByTestId(decision).check();
  }
  await page.getByTestId("submit-decisions").click();
  await page.getByText("Done. Merged #42 (c0ffee42) and #44 (c0ffee44). Not merged (rejected): #43.").waitFor();
  await shot(page, "decided.png");
  const decided = await stored(together);
  assert.equal(decided.status, "completed");
  assert.deepEqual(
    decided.calls.map(({ call, status, approved }) => [call, status, approved]),
    [
      ["tools.merge_pull_request", "applied", true],
      ["tools.merge_pull_request", "error", false],
      ["tools.merge_pull_request", "applied", true],
    ],
  );
  assert.deepEqual(await merges(), [...mergedBefore, 42, 44]);
  await page.close();
});

test("a forged approval id, a forged or dropped signature: refused, nothing runs; the real answer then works", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull request 43");
  const executionId = await pendingExecutionId(page);
  const before = await stored(executionId);
  const mergedBefore = await merges();
  assert.equal(before.status, "paused");
  const genuine = await captureAnswer(page, page.getByTestId("approve"), { deliver: false });
  const { approval } = answeredPart(genuine);

  // Approval ids the server never issued for this card: another hash, another execution.
  const otherHash = approval.id.replace(/.$/, (last) => (last === "0" ? "1" : "0"));
  const otherExecution = approval.id.replace(executionId, crypto.randomUUID());
  for (const id of [otherHash, otherExecution]) {
    const reply = await send(
      page,
      tampered(genuine, (part) => {
        part.approval.id = id;
      }),
    );
    assert.equal(reply.status, 409, `approval id ${id}`);
    assert.match(reply.text, /already answered/);
  }

  // The right id with a forged signature, sent by the page itself: the bridge refuses it before the store is read.
  await page.reload();
  const forged = tampered(genuine, (part) => {
    const { signature } = part.approval;
    part.approval.signature = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
  });
  await page.route("**/api/chat", (route) => route.continue({ postData: JSON.stringify(forged) }));
  await page.getByTestId("approve").click();
  const error = page.getByTestId("tool-error");
  await error.waitFor();
  assert.match((await error.textContent()) ?? "", /has an invalid signature .*Nothing was run\./);
  await page.unroute("**/api/chat");
  await shot(page, "forged-signature.png");

  // No signature at all.
  const unsigned = await send(
    page,
    tampered(genuine, (part) => {
      delete part.approval.signature;
    }),
  );
  assert.equal(unsigned.status, 200);
  assert.match(unsigned.text, /is not signed, and this route requires signed approvals\. Nothing was run\./);

  // Nothing ran, nothing changed in the journal, the stored card still waits.
  assert.deepEqual(await stored(executionId), before);
  assert.deepEqual(await merges(), mergedBefore);
  assert.deepEqual(await store.openApprovals(chatIdOf(page)), [
    { toolCallId: answeredPart(genuine).toolCallId, approvalId: approval.id },
  ]);

  // The person's own answer still works, and merges once.
  await page.reload();
  await page.getByTestId("approve").click();
  await page.getByText("Done. Merged #43 (c0ffee43).").waitFor();
  assert.equal((await stored(executionId)).status, "completed");
  assert.deepEqual(await merges(), [...mergedBefore, 43]);
  await page.close();
});

test("an approval moved from another conversation is refused; both executions stay paused, nothing runs", async () => {
  const user = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const first = await openChat(browser, server.baseUrl, { context: user });
  await ask(first, "Merge pull request 42");
  const firstExecution = await pendingExecutionId(first);
  const fromFirst = await captureAnswer(first, first.getByTestId("approve"), { deliver: false });

  // The same user's second conversation, waiting on its own approval.
  const second = await openChat(browser, server.baseUrl, { context: user, path: `/?chat=${crypto.randomUUID()}` });
  await ask(second, "Merge pull request 44");
  const secondExecution = await pendingExecutionId(second);
  const fromSecond = await captureAnswer(second, second.getByTestId("approve"), { deliver: false });
  const before = [await stored(firstExecution), await stored(secondExecution)];
  const mergedBefore = await merges();

  const moved = answeredPart(fromFirst);
  const attempts = [
    // The first chat's answer sent to the second chat.
    { ...fromFirst, id: fromSecond.id },
    // The second chat's message answering with the first chat's approval (its id and signature)…
    tampered(fromSecond, (part) => {
      part.approval = { ...moved.approval };
    }),
    // …also on the first chat's tool call.
    tampered(fromSecond, (part) => {
      part.toolCallId = moved.toolCallId;
      part.approval = { ...moved.approval };
    }),
  ];
  const replies = [];
  for (const attempt of attempts) replies.push(await send(second, attempt));
  assert.deepEqual(
    replies.map((reply) => reply.status),
    [409, 409, 409],
  );
  assert.match(replies[0].text, /This chat has no such message/);

  assert.deepEqual([await stored(firstExecution), await stored(secondExecution)], before);
  assert.deepEqual(await merges(), mergedBefore);
  assert.equal((await store.openApprovals(chatIdOf(first))).length, 1);
  assert.equal((await store.openApprovals(chatIdOf(second))).length, 1);

  // Each conversation's own answer works on its own execution.
  await second.reload();
  await second.getByTestId("approve").click();
  await second.getByText("Done. Merged #44 (c0ffee44).").waitFor();
  assert.equal((await stored(firstExecution)).status, "paused");
  assert.deepEqual(await merges(), [...mergedBefore, 44]);
  await first.reload();
  await first.getByTestId("approve").click();
  await first.getByText("Done. Merged #42 (c0ffee42).").waitFor();
  assert.deepEqual(await merges(), [...mergedBefore, 44, 42]);
  await user.close();
});

test("an old approval replayed is refused: after the next pause, after the end, after a rejection in the CLI", async () => {
  const page = await openChat(browser, server.baseUrl);
  await ask(page, "Merge pull requests 43 and 44");
  const executionId = await pendingExecutionId(page);
  const mergedBefore = await merges();

  // Approve #43 for real (the request is let through and kept); the program pauses again on #44.
  const approved43 = await captureAnswer(page, page.getByTestId("approve"), { deliver: true });
  await page.locator('[data-testid="approval-args"]', { hasText: '"number": 44' }).waitFor();
  await page.reload();
  const next = await cardApprovalId(page);
  assert.notEqual(next, answeredPart(approved43).approval.id);
  await store.waitForOpenApprovals(chatIdOf(page), [next]);
  await page.reload();
  const paused = await stored(executionId);
  assert.equal(paused.status, "paused");
  assert.deepEqual(await merges(), [...mergedBefore, 43]);

  // Replaying the #43 answer (a valid signature, an id that was real) changes nothing.
  const replay = await send(page, approved43);
  assert.equal(replay.status, 409);
  assert.deepEqual(await stored(executionId), paused);
  assert.deepEqual(await merges(), [...mergedBefore, 43]);

  // Approve #44; then both old answers replayed: the execution stays completed, nothing merges again.
  const approved44 = await captureAnswer(page, page.getByTestId("approve"), { deliver: true });
  await page.getByText("Done. Merged #43 (c0ffee43) and #44 (c0ffee44).").waitFor();
  await store.waitForOpenApprovals(chatIdOf(page), []);
  const completed = await stored(executionId);
  assert.equal(completed.status, "completed");
  for (const old of [approved43, approved44]) assert.equal((await send(page, old)).status, 409);
  assert.deepEqual(await stored(executionId), completed);
  assert.deepEqual(await merges(), [...mergedBefore, 43, 44]);

  // A card the chat still shows, whose execution was rejected meanwhile in another process (the CLI): its
  // answer is signed and matches the stored card, so it reaches the store binding, which refuses it as stale.
  await ask(page, "Merge pull request 42");
  await page.getByTestId("approve").waitFor();
  const rejectedId = await pendingExecutionId(page);
  execFileSync("npm", ["run", "--silent", "codemode", "--", "reject", rejectedId], {
    cwd: appDir,
    env: { ...process.env, CODEMODE_DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
  const rejected = await stored(rejectedId);
  assert.equal(rejected.status, "rejected");
  await page.getByTestId("approve").click();
  const error = page.getByTestId("tool-error");
  await error.waitFor();
  assert.match((await error.textContent()) ?? "", /is stale: execution \S+ is rejected\. Nothing was run\./);
  await shot(page, "stale-after-cli-reject.png");
  assert.deepEqual(await stored(rejectedId), rejected);
  assert.deepEqual(await merges(), [...mergedBefore, 43, 44]);
  await page.close();
});
