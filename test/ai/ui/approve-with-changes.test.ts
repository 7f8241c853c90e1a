/**
 * Approve with changes through the chat wire: the decisions document carries `{ approved: true, args }` under the
 * approval id of the call it changes; the bridge verifies the id like any approval and the runtime checks the
 * method is `editable` and the arguments valid. The model reads that the call ran with changed arguments.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CodemodeApprovalCall } from "../../../src/ai/ui/approval-descriptor.js";
import {
  claimsCodemodeDecisions,
  encodeCodemodeDecisions,
  MAX_DECISIONS_CHARS,
  parseCodemodeDecisions,
} from "../../../src/ai/ui/codemode-decisions.js";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { connector } from "../../../src/connectors/connector.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { tempFolder } from "../../support/temp-folder.js";
import { bankTools, chatRoute, Conversation, scriptedModel, type Ledger } from "./support/chat-harness.js";

const executor = new QuickJSExecutor({ isolation: "in-process" });
afterAll(async () => {
  await executor.dispose();
});

async function bank({ editable }: { editable: boolean }) {
  const ledger: Ledger = { transfers: [] };
  const runtime = createCodemodeRuntime({
    connectors: { bank: connector(bankTools(ledger), { methods: { transfer: { editable } } }) },
    store: `file:${join(tempFolder("codemode-edits-"), "codemode.db")}`,
    executor,
  });
  return { ledger, runtime };
}

const ONE = `async () => { const sent = await bank.transfer({ to: "alice", amount: 500 }); return "sent " + sent.amount; }`;
const TWO = `async () => {
  const sent = await Promise.all([bank.transfer({ to: "alice", amount: 500 }), bank.transfer({ to: "bob", amount: 7 })]);
  return sent.map((s) => s.to + " " + s.amount);
}`;

describe("approve with changes in the chat", () => {
  it("a single pending call approved with other arguments runs with them; the model reads both sets", async () => {
    const { ledger, runtime } = await bank({ editable: true });
    try {
      const chat = new Conversation(chatRoute({ runtime, model: scriptedModel(ONE) }));
      await chat.say("pay alice");
      const part = chat.openApproval();
      expect(part.approval?.descriptor).toMatchObject({ method: "transfer", editable: true });
      const id = String(part.approval?.id);
      await chat.answer({
        approved: true,
        reason: encodeCodemodeDecisions({ [id]: { approved: true, args: { to: "alice", amount: 50 } } }),
      });
      expect(ledger.transfers).toEqual([{ to: "alice", amount: 50 }]);
      const text = chat.lastText();
      expect(text).toContain("sent 50");
      expect(text).toContain('"programArgs":{"to":"alice","amount":500}');
      expect(text).toContain('"ranWithArgs":{"to":"alice","amount":50}');
      expect(text).toContain("with changed arguments");
    } finally {
      await runtime.close();
    }
  });

  it("edits one call of two and approves the other; an edit under another execution's id is ignored", async () => {
    const { ledger, runtime } = await bank({ editable: true });
    try {
      const other = new Conversation(chatRoute({ runtime, model: scriptedModel(ONE) }));
      await other.say("pay alice elsewhere");
      const foreignId = String(other.openApproval().approval?.id);
      const chat = new Conversation(chatRoute({ runtime, model: scriptedModel(TWO) }));
      await chat.say("pay both");
      const calls = chat.openApproval().approval?.descriptor?.["calls"] as CodemodeApprovalCall[];
      expect(calls.map((call) => call.editable)).toEqual([true, true]);
      const [alice, bob] = calls;
      await chat.answer({
        approved: true,
        reason: encodeCodemodeDecisions({
          [alice!.approvalId]: { approved: true, args: { to: "alice", amount: 5 } },
          [bob!.approvalId]: true,
          [foreignId]: { approved: true, args: { to: "mallory", amount: 9999 } },
        }),
      });
      expect(ledger.transfers).toEqual([
        { to: "alice", amount: 5 },
        { to: "bob", amount: 7 },
      ]);
      expect(chat.lastText()).toContain("alice 5");
      // The other conversation's call is still pending with its own arguments.
      const executionId = String(other.openApproval().approval?.descriptor?.["executionId"]);
      expect(await runtime.pending(executionId)).toMatchObject([{ args: { to: "alice", amount: 500 } }]);
    } finally {
      await runtime.close();
    }
  });

  it("an edit of a method that is not editable runs nothing (a hostile client cannot choose the arguments)", async () => {
    const { ledger, runtime } = await bank({ editable: false });
    try {
      const chat = new Conversation(chatRoute({ runtime, model: scriptedModel(ONE) }));
      await chat.say("pay alice");
      const part = chat.openApproval();
      expect(part.approval?.descriptor).not.toHaveProperty("editable");
      const executionId = String(part.approval?.descriptor?.["executionId"]);
      await chat.answer({
        approved: true,
        reason: encodeCodemodeDecisions({
          [String(part.approval?.id)]: { approved: true, args: { to: "mallory", amount: 9999 } },
        }),
      });
      expect(ledger.transfers).toEqual([]);
      expect(chat.lastText()).toContain("is not editable");
      expect(await runtime.pending(executionId)).toHaveLength(1);
    } finally {
      await runtime.close();
    }
  });

  it("a decisions document too long to read refuses the approval: the call does not run with the program's arguments", async () => {
    const { ledger, runtime } = await bank({ editable: true });
    try {
      const chat = new Conversation(chatRoute({ runtime, model: scriptedModel(ONE) }));
      await chat.say("pay alice");
      const part = chat.openApproval();
      const executionId = String(part.approval?.descriptor?.["executionId"]);
      const edit = { to: "alice", amount: 50, memo: "x".repeat(MAX_DECISIONS_CHARS) };
      await chat.answer({
        approved: true,
        reason: encodeCodemodeDecisions({ [String(part.approval?.id)]: { approved: true, args: edit } }),
      });
      expect(ledger.transfers).toEqual([]);
      expect(chat.codemodeParts()[0]).toMatchObject({
        state: "output-error",
        errorText: expect.stringMatching(/could not be read .*nothing was approved, rejected or run/),
      });
      expect(await runtime.pending(executionId)).toHaveLength(1);
      // Cut off (as a client's length limit would cut it): refused the same way.
      expect(claimsCodemodeDecisions(encodeCodemodeDecisions({ a: true }).slice(0, 25))).toBe(true);
      expect(claimsCodemodeDecisions("please merge it")).toBe(false);
    } finally {
      await runtime.close();
    }
  });

  it("reads edits only in their exact shape", () => {
    expect(
      parseCodemodeDecisions(encodeCodemodeDecisions({ a: { approved: true, args: { n: 1 } }, b: false })),
    ).toEqual(
      new Map<string, unknown>([
        ["a", { approved: true, args: { n: 1 } }],
        ["b", false],
      ]),
    );
    const odd =
      '{"codemodeDecisions":{"a":{"approved":false,"args":1},"b":{"approved":true},"c":{"approved":true,"args":1,"x":1}}}';
    expect(parseCodemodeDecisions(odd)).toEqual(new Map());
  });
});
