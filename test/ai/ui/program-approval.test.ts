import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../src/errors.js";
import { bankRuntimes } from "./support/bank-runtimes.js";
import { chatRoute, Conversation, scriptedModel } from "./support/chat-harness.js";

const READ_ONLY = `async () => ({ balance: await bank.balance({}) })`;
const PAYING = `async () => {
  const sent = await bank.transfer({ to: "alice", amount: 10 });
  return { sent, balance: await bank.balance({}) };
}`;

const { ledger, open: openRuntime } = bankRuntimes("codemode-program-approval-");

describe("program approval through useChat-style requests", () => {
  it("pauses before the first pass with one item for the whole program; approving runs it, its calls follow their own policy", async () => {
    const runtime = openRuntime(true);
    const model = scriptedModel(PAYING);
    const chat = new Conversation(chatRoute({ runtime, model }));

    await chat.say("pay alice");
    const part = chat.openApproval();
    expect(part.approval?.descriptor).toMatchObject({
      connector: "codemode",
      method: "program",
      args: { code: PAYING },
      seq: 0,
    });
    const executionId = String(part.approval?.descriptor?.["executionId"]);
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "paused",
      passes: 0,
      calls: [{ seq: 0, status: "pending" }],
    });
    expect(ledger.transfers).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);

    await chat.answer({ approved: true });
    // The program ran and paused on the transfer, which needs its own approval.
    const transfer = chat.openApproval();
    expect(transfer.approval?.descriptor).toMatchObject({ connector: "bank", method: "transfer", seq: 1, executionId });
    expect(ledger.transfers).toEqual([]);

    await chat.answer({ approved: true });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    expect(chat.lastText()).toContain('"status":"completed"');
    const detail = await runtime.execution(executionId);
    expect(detail).toMatchObject({ status: "completed", passes: 2 });
    expect(detail?.calls.map((call) => [call.seq, call.connector, call.method, call.status])).toEqual([
      [0, "codemode", "program", "applied"],
      [1, "bank", "transfer", "applied"],
      [2, "bank", "balance", "applied"],
    ]);
  });

  it("an approved program that needs nothing else completes in the approving request", async () => {
    const runtime = openRuntime(true);
    const chat = new Conversation(chatRoute({ runtime, model: scriptedModel(READ_ONLY) }));
    await chat.say("balance?");
    expect(chat.openApproval().approval?.descriptor).toMatchObject({ method: "program" });
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]?.state).toBe("output-available");
    expect(chat.lastText()).toContain('"balance":100');
  });

  it("rejecting the program ends the execution rejected with nothing run", async () => {
    const runtime = openRuntime(true);
    const model = scriptedModel(PAYING);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice");
    const executionId = String(chat.openApproval().approval?.descriptor?.["executionId"]);
    await chat.answer({ approved: false, reason: "no" });
    expect(chat.codemodeParts()[0]?.state).toBe("output-denied");
    const detail = await runtime.execution(executionId);
    expect(detail).toMatchObject({ status: "rejected", passes: 0 });
    expect(detail?.calls.map((call) => [call.seq, call.status])).toEqual([[0, "error"]]);
    expect(ledger.transfers).toEqual([]);
    // The program is named, not quoted back as escaped JSON.
    expect(chat.lastText()).toContain(
      `The user rejected the program before it ran (execution ${executionId}): nothing ran. Reason given: no`,
    );
    expect(chat.lastText()).not.toContain('{"code"');
  });

  it("a function approves only some programs: the others run at once", async () => {
    const asked: string[] = [];
    const runtime = openRuntime(async (code) => {
      asked.push(code);
      return code.includes("transfer");
    });
    const reading = new Conversation(chatRoute({ runtime, model: scriptedModel(READ_ONLY) }));
    await reading.say("balance?");
    expect(reading.codemodeParts()[0]?.state).toBe("output-available");
    expect(reading.lastText()).toContain('"balance":100');

    const paying = new Conversation(chatRoute({ runtime, model: scriptedModel(PAYING) }));
    await paying.say("pay alice");
    expect(paying.openApproval().approval?.descriptor).toMatchObject({ connector: "codemode", method: "program" });
    expect(asked).toEqual([READ_ONLY, PAYING]);
  });

  it("a policy that throws fails the execution without running it; a wrong option type is refused at construction", async () => {
    const runtime = openRuntime(() => {
      throw new Error("policy down");
    });
    const output = await runtime.execute({ code: PAYING });
    expect(output).toMatchObject({ status: "error", kind: "validation" });
    expect((output as { error: string }).error).toContain("policy down");
    expect(() => openRuntime("yes" as unknown as boolean)).toThrow(InvalidOptionError);
    expect(() => openRuntime("yes" as unknown as boolean)).toThrow(/approveProgram/);
  });
});
