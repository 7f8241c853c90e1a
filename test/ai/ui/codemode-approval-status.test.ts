/**
 * `codemodeApprovalStatus`: the status check a card polls to learn that its pending call was decided elsewhere.
 * Reports only approvals the asking client could answer itself (its scope, its tool call, the id's own arguments,
 * the route's signature); a forged or foreign id, a pending call and a running one read the same: not listed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { signCodemodeApproval } from "../../../src/ai/ui/approval-signature.js";
import { codemodeApprovalStatus } from "../../../src/ai/ui/codemode-approval-status.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { bankTools, chatRoute, Conversation, type Ledger, scriptedModel } from "./support/chat-harness.js";

const ONE_TRANSFER = `async () => bank.transfer({ to: "alice", amount: 10 })`;
const SECRET = "status-check-approval-secret-0123456789abcdef";

let directory: string;
let ledger: Ledger;
let runtime: ReturnType<typeof createCodemodeRuntime>;
const executor = new QuickJSExecutor({ isolation: "in-process" });

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "codemode-status-"));
  ledger = { transfers: [] };
  runtime = createCodemodeRuntime({
    connectors: { bank: bankTools(ledger) },
    store: `file:${path.join(directory, "codemode.db")}`,
    executor,
  });
});
afterEach(async () => {
  await runtime.close();
  rmSync(directory, { recursive: true, force: true });
});
afterAll(() => executor.dispose());

/** A chat of `owner` whose program paused on one transfer: the card's approval, as the client holds it. */
async function pausedCard(owner = "alice") {
  const chat = new Conversation(chatRoute({ runtime, model: scriptedModel(ONE_TRANSFER), scope: owner }));
  await chat.say("pay alice");
  const part = chat.openApproval();
  const approvalId = String(part.approval?.id);
  const executionId = String(part.approval?.descriptor?.["executionId"]);
  return { chat, approvalId, toolCallId: part.toolCallId, executionId };
}

/** Posts `approvals` to the status check as a card does; the listed ids, or the HTTP status when refused. */
async function ask(
  approvals: unknown,
  options: { scope?: string; toolApprovalSecret?: string; init?: RequestInit } = {},
): Promise<string[] | number> {
  const { init, ...rest } = options;
  const request = new Request("http://app.test/api/chat/status", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ approvals }),
    ...init,
  });
  const response = await codemodeApprovalStatus({ runtime, request, ...rest });
  if (response.status !== 200) return response.status;
  expect(response.headers.get("cache-control")).toBe("no-store");
  return ((await response.json()) as { decided: string[] }).decided;
}

describe("codemodeApprovalStatus", () => {
  it("undecided → not listed; approved in the inspector → listed, and the card's answer gets the stored outcome", async () => {
    const { chat, approvalId, toolCallId, executionId } = await pausedCard();
    const card = [{ approvalId, toolCallId }];
    expect(await ask(card, { scope: "alice" })).toEqual([]);

    expect(await runtime.approve({ executionId, scope: "alice" })).toMatchObject({ status: "completed" });
    expect(await ask(card, { scope: "alice" })).toEqual([approvalId]);
    // Reading changed nothing: asked again, the same; nothing ran twice.
    expect(await ask(card, { scope: "alice" })).toEqual([approvalId]);
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);

    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]?.output).toMatchObject({ status: "completed", decidedElsewhere: true });
    expect(ledger.transfers).toHaveLength(1);
  });

  it("owner scoping: another user (or no user) learns nothing about alice's decided execution", async () => {
    const { approvalId, toolCallId, executionId } = await pausedCard("alice");
    await runtime.approve({ executionId, scope: "alice" });
    const card = [{ approvalId, toolCallId }];
    expect(await ask(card, { scope: "mallory" })).toEqual([]);
    expect(await ask(card, { scope: "alice" })).toEqual([approvalId]);
  });

  it("a forged, foreign, malformed or unknown id reveals nothing: it reads like a call that still waits", async () => {
    const { approvalId, toolCallId, executionId } = await pausedCard();
    await runtime.approve({ executionId, scope: "alice" });
    const forgedHash = approvalId.replace(/_[0-9a-f]{16}$/, "_0123456789abcdef");
    const otherSeq = approvalId.replace(/_(\d+)_([0-9a-f]{16})$/, (_match, _seq, hash) => `_7_${hash}`);
    const unknownExecution = approvalId.replace(executionId, "no-such-execution");
    const asked = [
      { approvalId: forgedHash, toolCallId },
      { approvalId: otherSeq, toolCallId },
      { approvalId: unknownExecution, toolCallId },
      { approvalId: "not-a-codemode-id", toolCallId },
      // The real id, carried by another tool call (copied from another conversation).
      { approvalId, toolCallId: "call-of-another-chat" },
    ];
    expect(forgedHash).not.toBe(approvalId);
    expect(otherSeq).not.toBe(approvalId);
    expect(await ask(asked, { scope: "alice" })).toEqual([]);
    expect(await ask([...asked, { approvalId, toolCallId }], { scope: "alice" })).toEqual([approvalId]);
  });

  it("rejected elsewhere and expired are decided too (answering shows what the store holds)", async () => {
    const rejected = await pausedCard();
    await runtime.reject({ executionId: rejected.executionId, scope: "alice" });
    const expired = await pausedCard();
    expect((await runtime.expirePaused({ maxAgeMs: 0 })).expired).toHaveLength(1);
    const asked = [rejected, expired].map(({ approvalId, toolCallId }) => ({ approvalId, toolCallId }));
    expect(await ask(asked, { scope: "alice" })).toEqual([rejected.approvalId, expired.approvalId]);
    expect(ledger.transfers).toEqual([]);
  });

  it("with an approval secret: only an approval whose signature verifies is looked up", async () => {
    const { approvalId, toolCallId, executionId } = await pausedCard();
    await runtime.approve({ executionId, scope: "alice" });
    const signature = await signCodemodeApproval(SECRET, { approvalId, toolCallId, toolName: "codemode" });
    const signed = { scope: "alice", toolApprovalSecret: SECRET };
    expect(await ask([{ approvalId, toolCallId }], signed)).toEqual([]);
    expect(await ask([{ approvalId, toolCallId, signature: `${signature.slice(0, -2)}AA` }], signed)).toEqual([]);
    // A signature for another tool call does not carry over.
    const other = await signCodemodeApproval(SECRET, { approvalId, toolCallId: "other-call", toolName: "codemode" });
    expect(await ask([{ approvalId, toolCallId, signature: other }], signed)).toEqual([]);
    expect(await ask([{ approvalId, toolCallId, signature }], signed)).toEqual([approvalId]);
    // Without a secret, a signed approval is not looked up (the route that issued it had one).
    expect(await ask([{ approvalId, toolCallId, signature }], { scope: "alice" })).toEqual([]);
  });

  it("refuses requests that are not a small JSON list of approvals, and a short secret at once", async () => {
    const one = { approvalId: "cm_x_1_0123456789abcdef", toolCallId: "call" };
    expect(await ask([one], { init: { method: "GET", body: null } })).toBe(405);
    expect(await ask([one], { init: { body: "{not json" } })).toBe(400);
    expect(await ask("not a list")).toBe(400);
    expect(await ask([{ approvalId: 42, toolCallId: "call" }])).toBe(400);
    expect(await ask(Array.from({ length: 101 }, () => one))).toBe(400);
    expect(await ask([{ ...one, toolCallId: "x".repeat(70_000) }])).toBe(413);
    await expect(
      codemodeApprovalStatus({
        runtime,
        request: new Request("http://app.test/", { method: "POST", body: "{}" }),
        toolApprovalSecret: "short",
      }),
    ).rejects.toThrow(/toolApprovalSecret/);
  });
});
