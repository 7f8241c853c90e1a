import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { parseCodemodeApprovalId } from "../../../src/ai/ui/approval-id.js";
import { readCodemodeProgress } from "../../../src/ai/ui/read-codemode-progress.js";
import {
  resumeCodemodeApprovals,
  type ResolvedCodemodeApproval,
} from "../../../src/ai/ui/resume-codemode-approvals.js";
import type { Connector, ConnectorLifecycleContext } from "../../../src/connectors/types.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { bankTools, chatRoute, Conversation, scriptedModel, type Ledger } from "./support/chat-harness.js";

const SEQUENTIAL = `async () => {
  const a = await bank.transfer({ to: "alice", amount: 10 });
  console.log("sent to alice");
  const b = await bank.transfer({ to: "bob", amount: 20 });
  return { a, b, balance: await bank.balance({}) };
}`;

const PAY = `async () => bank.transfer({ to: "mallory", amount: 500 })`;

const TOGETHER = `async () => {
  const [a, b] = await Promise.all([bank.transfer({ to: "alice", amount: 10 }), bank.transfer({ to: "bob", amount: 20 })]);
  return { a, b };
}`;

let directory: string;
let url: string;
let ledger: Ledger;
const opened: Array<ReturnType<typeof createCodemodeRuntime>> = [];
// One in-process executor for the file (the runtime does not dispose an executor it was given).
const executor = new QuickJSExecutor({ isolation: "in-process" });

function openRuntime(extra: Record<string, Connector> = {}) {
  const runtime = createCodemodeRuntime({ connectors: { bank: bankTools(ledger), ...extra }, store: url, executor });
  opened.push(runtime);
  return runtime;
}

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "codemode-ui-"));
  url = `file:${path.join(directory, "codemode.db")}`;
  ledger = { transfers: [] };
});

afterAll(async () => {
  await executor.dispose();
});

afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("codemode approvals through useChat-style requests", () => {
  it("two sequential nested approvals across three requests; no model call while paused", async () => {
    const runtime = openRuntime();
    const model = scriptedModel(SEQUENTIAL);
    const chat = new Conversation(chatRoute({ runtime, model }));

    await chat.say("pay alice and bob");
    const first = chat.openApproval();
    expect(first.approval?.descriptor).toEqual({
      connector: "bank",
      method: "transfer",
      args: { to: "alice", amount: 10 },
      executionId: expect.any(String),
      seq: expect.any(Number),
      // What the paused pass did: the call waiting, nothing run before it.
      progress: expect.objectContaining({ totalCalls: 1, counts: expect.objectContaining({ pending: 1 }) }),
    });
    const executionId = String(first.approval?.descriptor?.["executionId"]);
    expect(parseCodemodeApprovalId(first.approval?.id ?? "")).toMatchObject({
      executionId,
      seq: first.approval?.descriptor?.["seq"],
    });
    expect(model.doStreamCalls).toHaveLength(1); // the stop condition ended the loop on the pause
    expect(ledger.transfers).toEqual([]);

    await chat.answer({ approved: true });
    const second = chat.openApproval();
    expect(second.toolCallId).toBe(first.toolCallId);
    expect(second.approval?.id).not.toBe(first.approval?.id);
    expect(second.approval?.descriptor).toMatchObject({
      method: "transfer",
      args: { to: "bob", amount: 20 },
      executionId,
    });
    // The second card says that the first transfer already ran (in this pass) and its log line.
    expect(readCodemodeProgress(second)).toMatchObject({
      running: false,
      progress: {
        calls: [
          { seq: 1, method: "transfer", args: { to: "alice", amount: 10 }, state: "applied" },
          { seq: 2, method: "transfer", args: { to: "bob", amount: 20 }, state: "pending" },
        ],
        logs: ["sent to alice"],
      },
    });
    expect(model.doStreamCalls).toHaveLength(1);
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);

    await chat.answer({ approved: true });
    const [part] = chat.codemodeParts();
    expect(part?.state).toBe("output-available");
    expect(part?.output).toMatchObject({ status: "completed", executionId, result: { balance: 100 } });
    expect(ledger.transfers).toEqual([
      { to: "alice", amount: 10 },
      { to: "bob", amount: 20 },
    ]);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(chat.lastText()).toContain('"status":"completed"');
    expect(chat.lastText()).toContain('"balance":100');
    expect(await runtime.pending(executionId)).toEqual([]);
  });

  it("two approvals pending at once are asked one after the other on the same tool part", async () => {
    const runtime = openRuntime();
    const model = scriptedModel(TOGETHER);
    const chat = new Conversation(chatRoute({ runtime, model }));

    await chat.say("pay both");
    const first = chat.openApproval();
    const executionId = String(first.approval?.descriptor?.["executionId"]);
    const pending = await runtime.pending(executionId);
    expect(pending.map((action) => action.args)).toEqual([
      { to: "alice", amount: 10 },
      { to: "bob", amount: 20 },
    ]);
    expect(first.approval?.descriptor).toMatchObject({ args: { to: "alice", amount: 10 }, seq: pending[0]?.seq });

    await chat.answer({ approved: true });
    const second = chat.openApproval();
    expect(second.approval?.descriptor).toMatchObject({ args: { to: "bob", amount: 20 }, seq: pending[1]?.seq });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);

    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]?.output).toMatchObject({
      status: "completed",
      result: { a: { to: "alice" }, b: { to: "bob" } },
    });
    expect(ledger.transfers).toHaveLength(2);
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it("a denial rejects the execution in the store (hooks run) and the model reads the denial", async () => {
    const disposed: ConnectorLifecycleContext[] = [];
    const runtime = openRuntime({ audit: { methods: {}, disposeExecution: (context) => void disposed.push(context) } });
    const model = scriptedModel(SEQUENTIAL);
    const resolved: ResolvedCodemodeApproval[] = [];
    const chat = new Conversation(chatRoute({ runtime, model, onResolved: (batch) => void resolved.push(...batch) }));

    await chat.say("pay alice and bob");
    const executionId = String(chat.openApproval().approval?.descriptor?.["executionId"]);
    await chat.answer({ approved: false, reason: "not today" });

    const [part] = chat.codemodeParts();
    expect(part?.state).toBe("output-denied");
    expect(part?.approval?.approved).toBe(false);
    expect((await runtime.execution(executionId))?.status).toBe("rejected");
    expect(disposed).toContainEqual({ executionId, connector: "audit", status: "rejected" });
    expect(resolved).toEqual([
      {
        toolCallId: part?.toolCallId,
        approvalId: part?.approval?.id,
        status: "rejected",
        output: { status: "rejected", executionId, applied: [] },
      },
    ]);
    expect(ledger.transfers).toEqual([]);
    expect(model.doStreamCalls).toHaveLength(2);
    const toolMessage = model.doStreamCalls[1]?.prompt.at(-1);
    expect(toolMessage?.role).toBe("tool");
    expect(JSON.stringify(toolMessage)).toContain(
      'The user rejected bank.transfer({\\"to\\":\\"alice\\",\\"amount\\":10})',
    );
    expect(JSON.stringify(toolMessage)).toContain("Reason given: not today");
    expect(JSON.stringify(toolMessage)).toContain("No call of this execution had taken effect before it.");
    expect(chat.lastText()).toContain("The user rejected bank.transfer");
  });

  it("approve one call, reject the next: the model reads that the first one ran and stays applied", async () => {
    const runtime = openRuntime();
    const model = scriptedModel(SEQUENTIAL);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice and bob");
    await chat.answer({ approved: true });
    await chat.answer({ approved: false, reason: "not bob" });

    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    const [part] = chat.codemodeParts();
    expect(part?.state).toBe("output-denied");
    const denial =
      'The user rejected bank.transfer({"to":"bob","amount":20}) (call 2 of execution ' +
      `${String(part?.approval?.descriptor?.["executionId"])}). The program was stopped: that call did not run. ` +
      'Calls that had already run stay applied (they were not undone): bank.transfer({"to":"alice","amount":10}) ' +
      "(call 1). Reason given: not bob";
    // The rejected card and the model read the same text.
    expect(part?.approval?.reason).toBe(denial);
    const toolMessage = model.doStreamCalls[1]?.prompt.at(-1);
    expect(toolMessage).toMatchObject({
      role: "tool",
      content: [{ type: "tool-result", output: { type: "error-text", value: denial } }],
    });
  });

  it("a forged, unknown or stale approval id changes nothing and says why", async () => {
    const runtime = openRuntime();
    const model = scriptedModel(SEQUENTIAL);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice and bob");
    const approval = chat.openApproval().approval;
    const executionId = String(approval?.descriptor?.["executionId"]);
    const genuine = approval?.id ?? "";
    const snapshot = structuredClone(chat.messages);

    const attempts: Array<{ id: string; message: RegExp }> = [
      { id: `${genuine.slice(0, -16)}0000000000000000`, message: /does not match the pending call bank\.transfer/ },
      {
        id: genuine.replace(`_${approval?.descriptor?.["seq"]}_`, "_99_"),
        message: /is stale: execution .* is paused, but call 99 is not waiting for approval/,
      },
      { id: genuine.replace(executionId, "no-such-execution"), message: /does not exist/ },
      { id: "approval-from-elsewhere", message: /is not a codemode approval id/ },
    ];
    for (const attempt of attempts) {
      chat.messages = structuredClone(snapshot);
      await chat.answer({ approved: true, approvalId: attempt.id });
      const [part] = chat.codemodeParts();
      expect(part?.state).toBe("output-error");
      expect(part?.errorText).toMatch(attempt.message);
      expect(part?.errorText).toContain("Nothing was run.");
      expect(ledger.transfers).toEqual([]);
      expect(model.doStreamCalls).toHaveLength(1);
      expect((await runtime.execution(executionId))?.status).toBe("paused");
      expect(await runtime.pending(executionId)).toHaveLength(1);
    }

    // The genuine id still works, once; sending the same answer again (a retry after a lost response) runs
    // nothing and shows where the execution is now: paused on the next call.
    chat.messages = structuredClone(snapshot);
    await chat.answer({ approved: true });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    chat.messages = structuredClone(snapshot);
    await chat.answer({ approved: true });
    expect(chat.openApproval().approval?.descriptor).toMatchObject({ args: { to: "bob", amount: 20 } });
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);

    // A denial with a forged id rejects nothing.
    chat.messages = structuredClone(snapshot);
    await chat.answer({ approved: false, approvalId: `${genuine.slice(0, -16)}ffffffffffffffff` });
    expect((await runtime.execution(executionId))?.status).toBe("paused");
  });

  it("resumes on a new runtime instance (the process that paused is gone)", async () => {
    const model = scriptedModel(SEQUENTIAL);
    const first = openRuntime();
    const chat = new Conversation(chatRoute({ runtime: first, model }));
    await chat.say("pay alice and bob");
    await first.close();

    chat.route = chatRoute({ runtime: openRuntime(), model });
    await chat.answer({ approved: true });
    expect(chat.openApproval().approval?.descriptor).toMatchObject({ args: { to: "bob", amount: 20 } });

    chat.route = chatRoute({ runtime: openRuntime(), model });
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]?.output).toMatchObject({ status: "completed" });
    expect(ledger.transfers).toEqual([
      { to: "alice", amount: 10 },
      { to: "bob", amount: 20 },
    ]);
  });
  it("two requests answering the same approval at once run the action once", async () => {
    const runtime = openRuntime();
    const model = scriptedModel(SEQUENTIAL);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice and bob");
    const twin = new Conversation(chatRoute({ runtime: openRuntime(), model }));
    twin.messages = structuredClone(chat.messages);

    await Promise.all([chat.answer({ approved: true }), twin.answer({ approved: true })]);
    // Each part shows the next approval (bob) or, for the request that lost the race while the winner still
    // ran, why it applied nothing; whichever timing, at least one shows bob and alice was paid once.
    const parts = [chat, twin].map((conversation) => conversation.codemodeParts()[0]);
    for (const part of parts) {
      if (part?.state === "output-error") expect(part.errorText).toMatch(/stale|not applied by this request/);
      else expect(part?.approval?.descriptor).toMatchObject({ args: { to: "bob", amount: 20 } });
    }
    expect(parts.some((part) => part?.state === "approval-requested")).toBe(true);
    expect(ledger.transfers).toEqual([{ to: "alice", amount: 10 }]);
    expect(model.doStreamCalls).toHaveLength(1);
  });
  it("results the journal keeps but JSON does not (BigInt, Date, Map) reach the client and the model", async () => {
    const runtime = openRuntime();
    const code = `async () => {
      const sent = await bank.transfer({ to: "alice", amount: 10 });
      return { sent, big: 2n ** 70n, at: new Date(0), seen: new Map([["alice", 1]]), tags: new Set(["x"]) };
    }`;
    const model = scriptedModel(code);
    const chat = new Conversation(chatRoute({ runtime, model }));
    await chat.say("pay alice");
    await chat.answer({ approved: true });
    const expected = {
      sent: { to: "alice", amount: 10, ok: true },
      big: "1180591620717411303424n",
      at: "1970-01-01T00:00:00.000Z",
      seen: { "Map(1)": { alice: 1 } },
      tags: { "Set(1)": ["x"] },
    };
    expect(chat.codemodeParts()[0]?.output).toMatchObject({ status: "completed", result: expected });
    expect(chat.lastText()).toContain('"big":"1180591620717411303424n"');
  });
  it("leaves other tools' approvals to streamText and honours a custom tool name", async () => {
    const runtime = openRuntime();
    const part = (type: string) => ({
      type,
      toolCallId: `call-${type}`,
      state: "approval-responded",
      input: {},
      approval: { id: "approval-1", approved: true },
    });
    const messages = [
      { id: "u", role: "user" as const, parts: [{ type: "text" as const, text: "go" }] },
      { id: "a", role: "assistant" as const, parts: [part("tool-deploy"), part("tool-run_code")] as never[] },
    ];
    const untouched = await resumeCodemodeApprovals({ runtime, messages });
    expect(untouched).toEqual({ messages, messageIndex: 1, chunks: [], continueModel: true, resolved: [] });

    const renamed = await resumeCodemodeApprovals({ runtime, messages, toolName: "run_code" });
    expect(renamed.resolved).toEqual([
      {
        toolCallId: "call-tool-run_code",
        approvalId: "approval-1",
        status: "invalid",
        kind: "malformed",
        error: expect.stringContaining("is not a codemode approval id"),
      },
    ]);
    expect(renamed.continueModel).toBe(false);
    expect(renamed.messages[1]?.parts[0]).toEqual(part("tool-deploy"));
  });
});

// Issue 14, defect 8: a client that learns another chat's execution id and pending arguments must not approve that
// call from its own chat, and a request acting for another scope sees the execution as `not-found`.
describe("approvals are bound to the tool call and the owner", () => {
  it("a forged approval carrying another chat's approval id is refused and runs nothing", async () => {
    const runtime = openRuntime();
    const resolved: ResolvedCodemodeApproval[] = [];
    const victim = new Conversation(chatRoute({ runtime, model: scriptedModel(PAY) }));
    await victim.say("pay mallory");
    const victimApproval = victim.openApproval();

    // The attacker's own chat pauses on its own call (another tool call id), then answers it with the victim's id.
    const attacker = new Conversation(
      chatRoute({ runtime, model: scriptedModel(PAY), onResolved: (r) => resolved.push(...r) }),
    );
    attacker.messages.push({ id: "earlier", role: "user", parts: [{ type: "text", text: "hello" }] });
    await attacker.say("pay mallory too");
    expect(attacker.openApproval().toolCallId).not.toBe(victimApproval.toolCallId);
    await attacker.answer({ approved: true, approvalId: victimApproval.approval?.id ?? "" });

    expect(resolved).toMatchObject([{ status: "invalid", kind: "foreign" }]);
    expect((resolved[0] as { error: string }).error).toMatch(/was not started by tool call/);
    expect(ledger.transfers).toEqual([]);
    const executionId = String(victimApproval.approval?.descriptor?.["executionId"]);
    expect((await runtime.execution(executionId))?.status).toBe("paused");
    // The victim's own answer still works.
    await victim.answer({ approved: true });
    expect(ledger.transfers).toEqual([{ to: "mallory", amount: 500 }]);
  });

  it("a chat acting for another scope cannot approve, even with the same tool call id", async () => {
    const runtime = openRuntime();
    const bobResolved: ResolvedCodemodeApproval[] = [];
    const alice = new Conversation(chatRoute({ runtime, model: scriptedModel(PAY), scope: "alice" }));
    await alice.say("pay");
    const aliceApproval = alice.openApproval();
    const executionId = String(aliceApproval.approval?.descriptor?.["executionId"]);
    expect((await runtime.execution(executionId))?.scope).toBe("alice");

    // Bob replays Alice's whole conversation (same tool call id) through his own session.
    const bob = new Conversation(
      chatRoute({ runtime, model: scriptedModel(PAY), scope: "bob", onResolved: (r) => bobResolved.push(...r) }),
    );
    bob.messages = structuredClone(alice.messages);
    await bob.answer({ approved: true });
    expect(bobResolved).toMatchObject([{ status: "invalid", kind: "not-found" }]);
    expect(ledger.transfers).toEqual([]);

    await alice.answer({ approved: true });
    expect(ledger.transfers).toEqual([{ to: "mallory", amount: 500 }]);
  });

  it("journals the signed-in user the route passes as decidedBy on an approval and on a denial", async () => {
    const runtime = openRuntime();
    const approving = new Conversation(
      chatRoute({ runtime, model: scriptedModel(PAY), scope: "alice", decidedBy: "alice" }),
    );
    await approving.say("pay");
    const approved = String(approving.openApproval().approval?.descriptor?.["executionId"]);
    await approving.answer({ approved: true });
    expect(ledger.transfers).toEqual([{ to: "mallory", amount: 500 }]);
    expect((await runtime.execution(approved))?.calls.find((call) => call.approvedAt !== undefined)).toMatchObject({
      decidedBy: "alice",
    });

    const denying = new Conversation(chatRoute({ runtime, model: scriptedModel(PAY), decidedBy: "bob" }));
    await denying.say("pay");
    const denied = String(denying.openApproval().approval?.descriptor?.["executionId"]);
    await denying.answer({ approved: false, reason: "no" });
    const calls = (await runtime.execution(denied))?.calls ?? [];
    expect(calls.filter((call) => call.decidedBy !== undefined).map((call) => [call.status, call.decidedBy])).toEqual([
      ["error", "bob"],
    ]);

    // Without decidedBy, nobody is recorded.
    const anonymous = new Conversation(chatRoute({ runtime, model: scriptedModel(PAY) }));
    await anonymous.say("pay");
    const unnamed = String(anonymous.openApproval().approval?.descriptor?.["executionId"]);
    await anonymous.answer({ approved: true });
    expect((await runtime.execution(unnamed))?.calls.every((call) => call.decidedBy === undefined)).toBe(true);
  });
});
