/**
 * An approval answered on an older card, after the conversation went on (issue 22, point 1): the
 * request names that message (useChat's `messageId`), the bridge resolves it there, the model is not
 * called, and `onFinish` gets the whole conversation with that message updated.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { answeredMessageIndex } from "../../../src/ai/ui/answered-message.js";
import { bankRuntimes } from "./support/bank-runtimes.js";
import { chatRoute, Conversation, scriptedModel } from "./support/chat-harness.js";

const PAY = `async () => bank.transfer({ to: "alice", amount: 10 })`;

const { ledger, open: openRuntime } = bankRuntimes("codemode-earlier-");

/** A conversation with two codemode calls, each paused on its own approval, in two assistant messages. */
async function twoPausedTurns() {
  const runtime = openRuntime();
  const model = scriptedModel(PAY);
  const finished: Array<{ messages: UIMessage[]; responseMessage: UIMessage; isContinuation: boolean }> = [];
  const chat = new Conversation(chatRoute({ runtime, model, onFinish: (event) => void finished.push(event) }));
  await chat.say("pay alice");
  const older = chat.openApproval();
  await chat.say("and now something else");
  const newer = chat.codemodeParts()[1];
  expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(newer?.state).toBe("approval-requested");
  finished.length = 0;
  return { runtime, model, chat, older, newer, finished };
}

describe("an approval answered on an earlier message than the last", () => {
  it("is resolved on its own card: the call runs once, the model is not called, the later turn is untouched", async () => {
    const { model, chat, older, newer, finished } = await twoPausedTurns();
    const calls = model.doStreamCalls.length;
    const olderMessage = chat.messages[1];

    await chat.answer({ approved: true, toolCallId: older.toolCallId });

    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    expect(model.doStreamCalls).toHaveLength(calls);
    // The response continued the older message (its id in the start chunk), and the client updated it in place.
    expect(chat.chunks.find((chunk) => chunk.type === "start")).toEqual({ type: "start", messageId: olderMessage?.id });
    const [first, second] = chat.codemodeParts();
    expect(first?.state).toBe("output-available");
    expect(first?.output).toMatchObject({ status: "completed", result: { to: "alice", amount: 10, ok: true } });
    expect(second).toEqual(newer);
    expect(chat.messages).toHaveLength(4);
    // What the route persists: the whole conversation, the older message updated, the later turn kept.
    expect(finished).toHaveLength(1);
    expect(finished[0]?.isContinuation).toBe(true);
    expect(finished[0]?.responseMessage.id).toBe(olderMessage?.id);
    expect(finished[0]?.messages.map((message) => message.id)).toEqual(chat.messages.map((message) => message.id));
    expect(finished[0]?.messages[1]).toEqual(chat.messages[1]);
    expect(finished[0]?.messages[3]).toEqual(chat.messages[3]);

    // The newer approval is still answered the ordinary way, and the model then continues.
    await chat.answer({ approved: true, toolCallId: newer?.toolCallId ?? "" });
    expect(ledger.transfers).toHaveLength(2);
    expect(model.doStreamCalls).toHaveLength(calls + 1);
    expect(chat.lastText()).toContain('"status":"completed"');
  });

  it("a rejection on the earlier card rejects that execution only, without a model call", async () => {
    const { runtime, model, chat, older, newer } = await twoPausedTurns();
    const calls = model.doStreamCalls.length;
    const executionOf = (part: typeof older | undefined) => String(part?.approval?.descriptor?.["executionId"]);

    await chat.answer({ approved: false, toolCallId: older.toolCallId });

    expect(chat.codemodeParts()[0]?.state).toBe("output-denied");
    expect((await runtime.execution(executionOf(older)))?.status).toBe("rejected");
    expect((await runtime.execution(executionOf(newer)))?.status).toBe("paused");
    expect(model.doStreamCalls).toHaveLength(calls);
    expect(ledger.transfers).toEqual([]);
  });
});

describe("answeredMessageIndex", () => {
  const user = (id: string): UIMessage => ({ id, role: "user", parts: [] });
  const assistant = (id: string): UIMessage => ({ id, role: "assistant", parts: [] });

  it("takes the assistant message the id names, else the last message when it is an assistant's", () => {
    const messages = [user("u1"), assistant("a1"), user("u2"), assistant("a2")];
    expect(answeredMessageIndex(messages, "a1")).toBe(1);
    expect(answeredMessageIndex(messages, undefined)).toBe(3);
    expect(answeredMessageIndex(messages, "u2")).toBe(3);
    expect(answeredMessageIndex(messages, "unknown")).toBe(3);
    expect(answeredMessageIndex([user("u1")], undefined)).toBe(-1);
    expect(answeredMessageIndex([user("u1")], "u1")).toBe(-1);
    expect(answeredMessageIndex([], undefined)).toBe(-1);
  });
});
