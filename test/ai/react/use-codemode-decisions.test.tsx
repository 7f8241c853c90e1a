// @vitest-environment jsdom
/**
 * `useCodemodeDecisions` and `useCodemodeRun` with the real `useChat` against the codemode chat route (signed
 * approvals, a real runtime): approve, approve with changes, reject, decide several at once, answers while a reply
 * streams, and the statuses a card shows (deciding, decided, decided elsewhere, failed). Every effect once.
 */
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { readCodemodeRun } from "../../../src/ai/react/codemode-run-view.js";
import { useCodemodeDecisions } from "../../../src/ai/react/use-codemode-decisions.js";
import { connector } from "../../../src/connectors/connector.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { tempFolder } from "../../support/temp-folder.js";
import { bankTools, type Ledger, scriptedModel } from "../ui/support/chat-harness.js";
import { routeTransport, type SentRequest, useHarness } from "./support/chat-hooks-harness.js";

const ONE = `async () => { const sent = await bank.transfer({ to: "alice", amount: 500 }); return "sent " + sent.amount; }`;
const THREE = `async () => {
  console.log("paying three");
  await bank.balance({});
  const settled = await Promise.allSettled([
    bank.transfer({ to: "alice", amount: 1 }),
    bank.transfer({ to: "bob", amount: 2 }),
    bank.transfer({ to: "carol", amount: 3 }),
  ]);
  return settled.map((r) => (r.status === "fulfilled" ? "sent " + r.value.to : "refused"));
}`;

const executor = new QuickJSExecutor({ isolation: "in-process" });
afterEach(() => cleanup());
afterAll(async () => {
  await executor.dispose();
});

async function setup(
  code: string,
  {
    editable = true,
    failAnswers = false,
    approveProgram = false,
  }: { editable?: boolean; failAnswers?: boolean; approveProgram?: boolean } = {},
) {
  const ledger: Ledger = { transfers: [] };
  const runtime = createCodemodeRuntime({
    connectors: { bank: connector(bankTools(ledger), { methods: { transfer: { editable } } }) },
    store: `file:${join(tempFolder("codemode-react-"), "codemode.db")}`,
    executor,
    approveProgram,
  });
  const sent: SentRequest[] = [];
  const model = scriptedModel(code);
  const transport = routeTransport({ runtime, model, sent });
  if (failAnswers) {
    const send = transport.sendMessages.bind(transport);
    transport.sendMessages = async (options) => {
      if (sent.length > 0) throw new Error("network down: the answer was not delivered");
      return await send(options);
    };
  }
  const hook = renderHook(() => useHarness(transport));
  await act(async () => {
    await hook.result.current.chat.sendMessage({ text: "pay" });
  });
  await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("awaiting-approval"));
  return { ledger, runtime, sent, model, hook, close: () => runtime.close() };
}

describe("useCodemodeDecisions with useChat", () => {
  it("approve: the signed answer resumes the run once; the status goes deciding → decided", async () => {
    const { ledger, sent, hook, close } = await setup(ONE, { editable: false });
    try {
      const run = hook.result.current.run;
      expect(run.pending).toEqual([
        expect.objectContaining({ connector: "bank", method: "transfer", editable: false, program: false }),
      ]);
      const approvalId = String(run.approvalId);
      expect(hook.result.current.decisions.statusOf(approvalId)).toEqual({ state: "idle" });
      await act(async () => {
        await hook.result.current.decisions.approve(run);
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("completed"));
      expect(hook.result.current.run.outcome).toMatchObject({ result: "sent 500", decidedElsewhere: false });
      expect(hook.result.current.decisions.statusOf(approvalId)).toEqual({
        state: "decided",
        approved: true,
        elsewhere: false,
      });
      expect(ledger.transfers).toEqual([{ to: "alice", amount: 500 }]);
      // The answer carried the signature the server issued with the request (the route refuses it otherwise).
      const answered = sent[1]?.messages.flatMap((m) => m.parts).find((p) => p.type === "tool-codemode") as
        | { approval?: { approved?: boolean; signature?: string } }
        | undefined;
      expect(answered?.approval?.approved).toBe(true);
      expect(answered?.approval?.signature).toMatch(/^[\w-]{43}$/);
    } finally {
      await close();
    }
  });

  it("a program waiting before it runs: one pending call, the program; approving it runs it, then its call asks", async () => {
    const { ledger, hook, close } = await setup(ONE, { approveProgram: true });
    try {
      const run = hook.result.current.run;
      expect(run.pending).toEqual([expect.objectContaining({ program: true, seq: 0, args: { code: ONE } })]);
      expect(run.calls).toEqual([]);
      await act(async () => {
        await hook.result.current.decisions.approve(run);
      });
      await waitFor(() => expect(hook.result.current.run.approvalId).not.toBe(run.approvalId));
      expect(hook.result.current.decisions.statusOf(String(run.approvalId))).toMatchObject({ state: "decided" });
      expect(hook.result.current.run.pending).toEqual([
        expect.objectContaining({ program: false, method: "transfer", args: { to: "alice", amount: 500 } }),
      ]);
      expect(ledger.transfers).toEqual([]);
    } finally {
      await close();
    }
  });

  it("approve with changes: an editable call runs with the person's arguments and its input schema is read", async () => {
    const { ledger, hook, close } = await setup(ONE);
    try {
      const run = hook.result.current.run;
      const [call] = run.pending;
      expect(call?.editable).toBe(true);
      expect(call?.inputSchema).toMatchObject({ type: "object", properties: { to: {}, amount: {} } });
      await act(async () => {
        await hook.result.current.decisions.approve(run, {
          approvalId: String(call?.approvalId),
          args: { to: "alice", amount: 50 },
        });
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("completed"));
      expect(hook.result.current.run.outcome).toMatchObject({ result: "sent 50" });
      expect(ledger.transfers).toEqual([{ to: "alice", amount: 50 }]);
    } finally {
      await close();
    }
  });

  it("approve with changes on a call that is not editable fails on the card, sends nothing", async () => {
    const { ledger, sent, hook, close } = await setup(ONE, { editable: false });
    try {
      const run = hook.result.current.run;
      const approvalId = String(run.approvalId);
      await act(async () => {
        await hook.result.current.decisions.approve(run, { args: { to: "mallory", amount: 1 } });
      });
      expect(hook.result.current.decisions.statusOf(approvalId)).toMatchObject({
        state: "failed",
        message: expect.stringContaining("bank.transfer is not editable"),
      });
      expect(sent).toHaveLength(1);
      expect(hook.result.current.run.outcome.status).toBe("awaiting-approval");
      expect(ledger.transfers).toEqual([]);
    } finally {
      await close();
    }
  });

  it("reject: the program stops, nothing runs, the pending call reads rejected", async () => {
    const { ledger, hook, close } = await setup(ONE);
    try {
      const run = hook.result.current.run;
      await act(async () => {
        await hook.result.current.decisions.reject(run, { reason: "not today" });
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("rejected"));
      expect(hook.result.current.decisions.statusOf(String(run.approvalId))).toMatchObject({
        state: "decided",
        approved: false,
      });
      expect(ledger.transfers).toEqual([]);
    } finally {
      await close();
    }
  });

  it("decides three calls of one pause in one answer: two approved, one refused; the run shows its calls", async () => {
    const { ledger, sent, hook, close } = await setup(THREE);
    try {
      const run = hook.result.current.run;
      expect(run.pending.map((call) => call.args)).toEqual([
        { to: "alice", amount: 1 },
        { to: "bob", amount: 2 },
        { to: "carol", amount: 3 },
      ]);
      // What already ran before the pause, and the console line.
      expect(run.calls.map((call) => `${call.method}:${call.state}`)).toEqual([
        "balance:applied",
        "transfer:pending",
        "transfer:pending",
        "transfer:pending",
      ]);
      expect(run.logs).toEqual(["paying three"]);
      const [alice, bob, carol] = run.pending.map((call) => call.approvalId);
      await act(async () => {
        await hook.result.current.decisions.decide(run, {
          [String(alice)]: true,
          [String(bob)]: false,
          [String(carol)]: { approved: true, args: { to: "carol", amount: 30 } },
        });
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("completed"));
      expect(hook.result.current.run.outcome).toMatchObject({ result: ["sent alice", "refused", "sent carol"] });
      expect(ledger.transfers).toEqual([
        { to: "alice", amount: 1 },
        { to: "carol", amount: 30 },
      ]);
      for (const [id, approved] of [
        [alice, true],
        [bob, false],
        [carol, true],
      ] as const)
        expect(hook.result.current.decisions.statusOf(String(id))).toEqual({
          state: "decided",
          approved,
          elsewhere: false,
        });
      // One request carried all three decisions.
      expect(sent).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it("approved in the inspector first: the card's answer gets the stored outcome, decided elsewhere, with its calls", async () => {
    const { ledger, runtime, hook, close } = await setup(THREE);
    try {
      const run = hook.result.current.run;
      await runtime.decide({
        executionId: String(run.executionId),
        decisions: run.pending.map((call) => ({ seq: call.seq, approved: true })),
      });
      expect(ledger.transfers).toHaveLength(3);
      await act(async () => {
        await hook.result.current.decisions.approve(run);
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("completed"));
      expect(hook.result.current.run.outcome).toMatchObject({ decidedElsewhere: true });
      expect(hook.result.current.decisions.statusOf(String(run.approvalId))).toEqual({
        state: "decided",
        approved: true,
        elsewhere: true,
      });
      // The card still lists the run's calls (the "N calls" list), from the stored execution.
      const after = hook.result.current.run;
      expect(after.totalCalls).toBe(4);
      expect(after.calls.map((call) => `${call.method}:${call.state}`)).toEqual([
        "balance:replayed",
        "transfer:applied",
        "transfer:applied",
        "transfer:applied",
      ]);
      expect(ledger.transfers).toHaveLength(3);
    } finally {
      await close();
    }
  });

  it("rejected in the inspector first: the card's approval is decided elsewhere and runs nothing", async () => {
    const { ledger, runtime, hook, close } = await setup(ONE);
    try {
      const run = hook.result.current.run;
      await runtime.reject({ executionId: String(run.executionId) });
      await act(async () => {
        await hook.result.current.decisions.approve(run);
      });
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("decided-elsewhere"));
      expect(hook.result.current.decisions.statusOf(String(run.approvalId))).toEqual({
        state: "decided",
        approved: true,
        elsewhere: true,
      });
      expect(ledger.transfers).toEqual([]);
    } finally {
      await close();
    }
  });
  it("an older card (the chat went on while it waited) is sent with its own message and resolved there", async () => {
    const { ledger, sent, hook, close } = await setup(ONE, { editable: false });
    try {
      const older = hook.result.current.run;
      // The conversation goes on: the model writes another program, which pauses too.
      await act(async () => {
        await hook.result.current.chat.sendMessage({ text: "and again" });
      });
      await waitFor(() => expect(hook.result.current.run.toolCallId).not.toBe(older.toolCallId));
      await waitFor(() => expect(hook.result.current.run.outcome.status).toBe("awaiting-approval"));
      await act(async () => {
        await hook.result.current.decisions.approve(hook.result.current.firstRun);
      });
      await waitFor(() => expect(hook.result.current.firstRun.outcome.status).toBe("completed"));
      const olderMessage = sent[2]?.messages.find((message) =>
        message.parts.some((part) => "toolCallId" in part && part.toolCallId === older.toolCallId),
      );
      expect(sent[2]?.messageId).toBe(olderMessage?.id);
      expect(hook.result.current.run.outcome.status).toBe("awaiting-approval");
      expect(ledger.transfers).toEqual([{ to: "alice", amount: 500 }]);
    } finally {
      await close();
    }
  });
  it("an answer the chat could not deliver fails on the card with the chat's error; nothing ran", async () => {
    const { ledger, hook, close } = await setup(ONE, { failAnswers: true });
    try {
      const run = hook.result.current.run;
      await act(async () => {
        await hook.result.current.decisions.approve(run);
      });
      await waitFor(() =>
        expect(hook.result.current.decisions.statusOf(String(run.approvalId))).toEqual({
          state: "failed",
          approved: true,
          message: "network down: the answer was not delivered",
          expired: false,
        }),
      );
      expect(ledger.transfers).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("useCodemodeDecisions refuses on the card what it must not send", () => {
  const part = {
    type: "tool-codemode",
    toolCallId: "call_1",
    state: "approval-requested",
    input: { code: ONE },
    approval: {
      id: "cm_ex1_1_aaaaaaaaaaaaaaaa",
      descriptor: { connector: "bank", method: "transfer", args: { to: "alice" }, executionId: "ex1", seq: 1 },
    },
  };
  const view = readCodemodeRun(part);

  /** A chat holding `part` whose answers are recorded and, like useChat's, mark the part answered. */
  function fakeChat(status: string) {
    const answers: unknown[] = [];
    const held: Record<string, unknown> = structuredClone(part);
    return {
      answers,
      chat: {
        messages: [{ id: "m1", role: "assistant", parts: [held] }],
        status,
        error: undefined,
        addToolApprovalResponse: (answer: { id: string; approved: boolean; reason?: string }) => {
          answers.push(answer);
          held["state"] = "approval-responded";
          held["approval"] = { ...(held["approval"] as object), ...answer };
        },
        sendMessage: () => undefined,
      },
    };
  }

  it("keeps its functions across renders; an approval answered a moment ago is not answered again", async () => {
    const { chat, answers } = fakeChat("ready");
    const { result, rerender } = renderHook(({ value }) => useCodemodeDecisions(value), {
      initialProps: { value: chat },
    });
    const first = result.current;
    rerender({ value: { ...chat } });
    expect(result.current).toBe(first);
    await act(async () => {
      await result.current.approve(view);
    });
    // A second click with the card's stale view (a double click, or reject right after approve) sends nothing.
    await act(async () => {
      await result.current.reject(view);
    });
    expect(answers).toEqual([{ id: "cm_ex1_1_aaaaaaaaaaaaaaaa", approved: true }]);
    expect(result.current.statusOf("cm_ex1_1_aaaaaaaaaaaaaaaa")).toEqual({ state: "deciding", approved: true });
  });

  it("while a reply streams: busy, with the reason, and an answer fails without being sent", async () => {
    const { chat, answers } = fakeChat("streaming");
    const { result } = renderHook(() => useCodemodeDecisions(chat));
    expect(result.current.busy).toBe(true);
    expect(result.current.waitReason).toMatch(/Wait for the current reply/);
    await act(async () => {
      await result.current.approve(view);
    });
    expect(result.current.statusOf("cm_ex1_1_aaaaaaaaaaaaaaaa")).toMatchObject({
      state: "failed",
      message: expect.stringMatching(/Wait for the current reply/),
    });
    expect(answers).toEqual([]);
  });

  it("a call that is not pending on this run fails; a ready chat sends the answer with useChat's own function", async () => {
    const { chat, answers } = fakeChat("ready");
    const { result } = renderHook(() => useCodemodeDecisions(chat));
    expect(result.current.waitReason).toBeUndefined();
    await act(async () => {
      await result.current.decide(view, { cm_other_1_bbbbbbbbbbbbbbbb: true });
    });
    expect(result.current.statusOf("cm_other_1_bbbbbbbbbbbbbbbb")).toMatchObject({
      state: "failed",
      message: expect.stringMatching(/Not a pending call of this run/),
    });
    expect(answers).toEqual([]);
    await act(async () => {
      await result.current.reject(view, { reason: "no" });
    });
    expect(answers).toEqual([{ id: "cm_ex1_1_aaaaaaaaaaaaaaaa", approved: false, reason: "no" }]);
    expect(result.current.statusOf("cm_ex1_1_aaaaaaaaaaaaaaaa")).toEqual({ state: "deciding", approved: false });
    // An edit larger than one answer may carry is refused on the card (the server would refuse it, deciding nothing).
    const editable = readCodemodeRun({
      ...part,
      toolCallId: "call_2",
      approval: { ...part.approval, descriptor: { ...part.approval.descriptor, editable: true } },
    });
    await act(async () => {
      await result.current.approve(editable, { args: { to: "x".repeat(70_000) } });
    });
    expect(result.current.statusOf("cm_ex1_1_aaaaaaaaaaaaaaaa")).toMatchObject({
      state: "failed",
      message: expect.stringMatching(/^Too much in one answer/),
    });
    // A run whose part is not in this chat is refused on the card.
    await act(async () => {
      await result.current.approve({ ...view, toolCallId: "call_elsewhere" });
    });
    expect(result.current.statusOf("cm_ex1_1_aaaaaaaaaaaaaaaa")).toMatchObject({
      state: "failed",
      message: "Tool call call_elsewhere is not in this chat's messages.",
    });
  });
});
