import { describe, expect, it } from "vitest";
import type { CodemodeApprovalCall } from "../../../src/ai/ui/approval-descriptor.js";
import { encodeCodemodeDecisions, parseCodemodeDecisions } from "../../../src/ai/ui/codemode-decisions.js";
import { bankRuntimes } from "./support/bank-runtimes.js";
import { chatRoute, Conversation, scriptedModel } from "./support/chat-harness.js";

const THREE = `async () => {
  const settled = await Promise.allSettled([
    bank.transfer({ to: "alice", amount: 1 }),
    bank.transfer({ to: "bob", amount: 2 }),
    bank.transfer({ to: "carol", amount: 3 }),
  ]);
  return settled.map((r) => (r.status === "fulfilled" ? "sent " + r.value.to : "refused: " + r.reason.message));
}`;

const { ledger, open: openRuntime } = bankRuntimes("codemode-decide-");

async function pausedOnThree() {
  const runtime = openRuntime();
  const model = scriptedModel(THREE);
  const chat = new Conversation(chatRoute({ runtime, model }));
  await chat.say("pay all three");
  const calls = chat.openApproval().approval?.descriptor?.["calls"] as CodemodeApprovalCall[] | undefined;
  return { runtime, model, chat, calls: calls ?? [] };
}

describe("several pending calls decided together, through the SSE wire", () => {
  it("shows the three calls of a Promise.all on the one part; approve / reject / approve in one request runs exactly the two", async () => {
    const { runtime, model, chat, calls } = await pausedOnThree();
    expect(calls.map((call) => [call.seq, call.method, call.args])).toEqual([
      [1, "transfer", { to: "alice", amount: 1 }],
      [2, "transfer", { to: "bob", amount: 2 }],
      [3, "transfer", { to: "carol", amount: 3 }],
    ]);
    const [alice, bob, carol] = calls;
    const executionId = String(chat.openApproval().approval?.descriptor?.["executionId"]);

    await chat.answer({
      approved: true,
      reason: encodeCodemodeDecisions({
        [alice!.approvalId]: true,
        [bob!.approvalId]: false,
        [carol!.approvalId]: true,
      }),
    });
    expect(ledger.transfers).toEqual([
      { to: "alice", amount: 1 },
      { to: "carol", amount: 3 },
    ]);
    expect(chat.codemodeParts()[0]?.state).toBe("output-available");
    expect(model.doStreamCalls).toHaveLength(2); // one round trip: resumed once, then the model continued
    expect(chat.lastText()).toContain("sent alice");
    expect(chat.lastText()).toContain("refused: Rejected by a human (bank.transfer, call #2)");
    expect(chat.lastText()).toContain("sent carol");
    const detail = await runtime.execution(executionId);
    expect(detail).toMatchObject({ status: "completed", passes: 2 });
    expect(detail?.calls.map((call) => [call.seq, call.status])).toEqual([
      [1, "applied"],
      [2, "error"],
      [3, "applied"],
    ]);
  });

  it("a request that decides only some leaves the rest pending, asked again on the same part", async () => {
    const { model, chat, calls } = await pausedOnThree();
    const [alice, bob, carol] = calls;
    await chat.answer({ approved: true, reason: encodeCodemodeDecisions({ [bob!.approvalId]: true }) });
    expect(ledger.transfers).toEqual([{ to: "bob", amount: 2 }]);
    const again = chat.openApproval();
    expect(model.doStreamCalls).toHaveLength(1);
    const remaining = again.approval?.descriptor?.["calls"] as CodemodeApprovalCall[];
    expect(remaining.map((call) => call.seq)).toEqual([1, 3]);
    expect(remaining.map((call) => call.approvalId)).toEqual([alice!.approvalId, carol!.approvalId]);

    await chat.answer({
      approved: true,
      reason: encodeCodemodeDecisions({ [alice!.approvalId]: false, [carol!.approvalId]: true }),
    });
    expect(ledger.transfers).toEqual([
      { to: "bob", amount: 2 },
      { to: "carol", amount: 3 },
    ]);
    expect(chat.lastText()).toContain("refused: Rejected by a human (bank.transfer, call #1)");
  });

  it("forged decisions (another hash, another execution, a call not in the set) change nothing; the pause is asked again", async () => {
    const { runtime, model, chat, calls } = await pausedOnThree();
    const [alice] = calls;
    const executionId = String(chat.openApproval().approval?.descriptor?.["executionId"]);
    const forgedHash = `${alice!.approvalId.slice(0, -16)}0000000000000000`;
    const otherExecution = alice!.approvalId.replace(executionId, "00000000-0000-0000-0000-000000000000");
    const notInSet = alice!.approvalId.replace(`_1_`, "_9_");
    await chat.answer({
      approved: true,
      reason: encodeCodemodeDecisions({ [forgedHash]: true, [otherExecution]: true, [notInSet]: false, garbage: true }),
    });
    expect(ledger.transfers).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(chat.openApproval().approval?.descriptor?.["calls"]).toEqual(calls);
    expect(await runtime.pending(executionId)).toHaveLength(3);
  });

  it("reads only exactly-shaped documents as decisions", () => {
    expect(parseCodemodeDecisions(encodeCodemodeDecisions({ a: true, b: false }))).toEqual(
      new Map([
        ["a", true],
        ["b", false],
      ]),
    );
    expect(parseCodemodeDecisions("not today")).toBeUndefined();
    expect(parseCodemodeDecisions('{"codemodeDecisions":{"a":true},"x":1}')).toBeUndefined();
    expect(parseCodemodeDecisions('{"codemodeDecisions":[true]}')).toBeUndefined();
    expect(parseCodemodeDecisions('{"codemodeDecisions":{"a":"yes","b":true}}')).toEqual(new Map([["b", true]]));
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, index) => [`k${index}`, true]));
    expect(parseCodemodeDecisions(encodeCodemodeDecisions(many))).toBeUndefined();
  });
});
