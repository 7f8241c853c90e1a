import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { bankTools, chatRoute, Conversation, scriptedModel, type Ledger } from "./support/chat-harness.js";

const ONE_TRANSFER = `async () => bank.transfer({ to: "alice", amount: 10 })`;
const TWO_TRANSFERS = `async () => {
  await bank.transfer({ to: "alice", amount: 10 });
  return bank.transfer({ to: "bob", amount: 20 });
}`;

let directory: string;
let ledger: Ledger;
let runtime: ReturnType<typeof createCodemodeRuntime>;
const executor = new QuickJSExecutor({ isolation: "in-process" });

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "codemode-elsewhere-"));
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

describe("a chat approval answered after the call was approved elsewhere (the inspector)", () => {
  it("shows the stored outcome and continues the model, running nothing again", async () => {
    const model = scriptedModel(ONE_TRANSFER);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice");
    const executionId = String(chat.openApproval().approval?.descriptor?.["executionId"]);
    // The inspector approves through the runtime's public handle.
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);

    await chat.answer({ approved: true });
    const [part] = chat.codemodeParts();
    expect(part?.state).toBe("output-available");
    expect(part?.output).toMatchObject({
      status: "completed",
      executionId,
      result: { to: "alice", amount: 10, ok: true },
    });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it("approved elsewhere and paused again on the next call: the card shows that call's approval, nothing runs", async () => {
    const model = scriptedModel(TWO_TRANSFERS);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice and bob");
    const first = chat.openApproval();
    const executionId = String(first.approval?.descriptor?.["executionId"]);
    // Approved in the inspector (or by another device whose answer the chat never recorded): paused on bob.
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "paused" });

    await chat.answer({ approved: true });
    const next = chat.openApproval();
    expect(next.toolCallId).toBe(first.toolCallId);
    expect(next.approval?.id).not.toBe(first.approval?.id);
    expect(next.approval?.descriptor).toMatchObject({ executionId, args: { to: "bob", amount: 20 } });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    expect(model.doStreamCalls).toHaveLength(1);

    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]?.output).toMatchObject({ status: "completed" });
    expect(ledger.transfers).toHaveLength(2);
  });

  it("keeps refusing a denial, a forged id, and an execution rejected elsewhere", async () => {
    const model = scriptedModel(ONE_TRANSFER);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice");
    const approval = chat.openApproval().approval;
    const executionId = String(approval?.descriptor?.["executionId"]);
    const snapshot = structuredClone(chat.messages);
    await runtime.approve({ executionId });

    await chat.answer({ approved: false });
    expect(chat.codemodeParts()[0]).toMatchObject({
      state: "output-error",
      errorText: expect.stringMatching(/is stale/),
    });
    chat.messages = structuredClone(snapshot);
    await chat.answer({ approved: true, approvalId: `${(approval?.id ?? "").slice(0, -16)}0000000000000000` });
    expect(chat.codemodeParts()[0]).toMatchObject({
      state: "output-error",
      errorText: expect.stringMatching(/is stale/),
    });

    const other = new Conversation(chatRoute({ runtime, model: scriptedModel(ONE_TRANSFER) }));
    await other.say("pay alice");
    const rejectedId = String(other.openApproval().approval?.descriptor?.["executionId"]);
    await runtime.reject({ executionId: rejectedId });
    await other.answer({ approved: true });
    expect(other.codemodeParts()[0]).toMatchObject({
      state: "output-error",
      errorText: expect.stringMatching(/is stale: execution .* is rejected/),
    });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
  });
  it('the card lists the run\'s calls from the store (the "N calls" list) and says it was decided elsewhere', async () => {
    const model = scriptedModel(TWO_TRANSFERS);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice and bob");
    const executionId = String(chat.openApproval().approval?.descriptor?.["executionId"]);
    // The inspector approves both calls, one after the other; the chat watched none of it.
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "paused" });
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });

    await chat.answer({ approved: true });
    const [part] = chat.codemodeParts();
    expect(part?.output).toMatchObject({
      status: "completed",
      decidedElsewhere: true,
      progress: {
        status: "completed",
        executionId,
        totalCalls: 2,
        // As the last pass saw them: alice's transfer ran on the pass before (replayed), bob's on this one.
        counts: { applied: 1, replayed: 1, pending: 0 },
        calls: [
          { seq: 1, connector: "bank", method: "transfer", args: { to: "alice", amount: 10 }, state: "replayed" },
          { seq: 2, connector: "bank", method: "transfer", args: { to: "bob", amount: 20 }, state: "applied" },
        ],
      },
    });
    // The card's own fields: the model reads the outcome only.
    const prompt = JSON.stringify(model.doStreamCalls.at(-1)?.prompt);
    expect(prompt).not.toContain("decidedElsewhere");
    expect(prompt).not.toContain("totalCalls");
    expect(ledger.transfers).toHaveLength(2);
  });

  it("an answer after the run expired says it expired, and runs nothing", async () => {
    const model = scriptedModel(ONE_TRANSFER);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice");
    expect((await runtime.expirePaused({ maxAgeMs: 0 })).expired).toHaveLength(1);
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]).toMatchObject({
      state: "output-error",
      errorText: expect.stringMatching(/is stale: execution \S+ is rejected \(it expired: nobody decided in time\)\./),
    });
    expect(ledger.transfers).toEqual([]);
  });
});
