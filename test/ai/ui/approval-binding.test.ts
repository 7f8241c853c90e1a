/**
 * Defect 8 (issue 14): chat approvals are bound to the tool call that paused, and executions to their owner.
 * A client that learns another chat's execution id and pending arguments must not approve that call from its own
 * chat, and a request acting for another scope sees the execution as `not-found`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { convertToModelMessages, isStepCount, streamText, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { createCodemodeChatStream } from "../../../src/ai/ui/create-codemode-chat-stream.js";
import { hasPausedCodemode } from "../../../src/ai/ui/has-paused-codemode.js";
import type { ResolvedCodemodeApproval } from "../../../src/ai/ui/resume-codemode-approvals.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { bankTools, chatRoute, Conversation, scriptedModel, type Ledger } from "./support/chat-harness.js";

const PAY = `async () => bank.transfer({ to: "mallory", amount: 500 })`;

let directory: string;
let url: string;
let ledger: Ledger;
const opened: Array<ReturnType<typeof createCodemodeRuntime>> = [];
const executor = new QuickJSExecutor({ isolation: "in-process" });

function openRuntime() {
  const runtime = createCodemodeRuntime({ connectors: { bank: bankTools(ledger) }, store: url, executor });
  opened.push(runtime);
  return runtime;
}

/** A chat route acting for `scope`, with the tool owned by it (as an app does with the signed-in user). */
function scopedRoute(runtime: ReturnType<typeof openRuntime>, scope: string, resolved: ResolvedCodemodeApproval[]) {
  const model = scriptedModel(PAY);
  return (messages: UIMessage[]): ReadableStream<UIMessageChunk> => {
    const tools = { codemode: runtime.tool({ scope }) };
    return createCodemodeChatStream({
      runtime, messages, scope,
      respond: async ({ messages: next }) =>
        streamText({ model, tools, messages: await convertToModelMessages(next, { tools }), stopWhen: [isStepCount(5), hasPausedCodemode()] })
          .toUIMessageStream(),
      onResolved: (answers) => { resolved.push(...answers); },
    });
  };
}

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "codemode-binding-"));
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

describe("approvals are bound to the tool call and the owner", () => {
  it("a forged approval carrying another chat's approval id is refused and runs nothing", async () => {
    const runtime = openRuntime();
    const resolved: ResolvedCodemodeApproval[] = [];
    const victim = new Conversation(chatRoute({ runtime, model: scriptedModel(PAY) }));
    await victim.say("pay mallory");
    const victimApproval = victim.openApproval();

    // The attacker's own chat pauses on its own call (another tool call id), then answers it with the victim's id.
    const attacker = new Conversation(chatRoute({ runtime, model: scriptedModel(PAY), onResolved: (r) => resolved.push(...r) }));
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
    const alice = new Conversation(scopedRoute(runtime, "alice", []));
    await alice.say("pay");
    const aliceApproval = alice.openApproval();
    const executionId = String(aliceApproval.approval?.descriptor?.["executionId"]);
    expect((await runtime.execution(executionId))?.scope).toBe("alice");

    // Bob replays Alice's whole conversation (same tool call id) through his own session.
    const bob = new Conversation(scopedRoute(runtime, "bob", bobResolved));
    bob.messages = structuredClone(alice.messages);
    await bob.answer({ approved: true });
    expect(bobResolved).toMatchObject([{ status: "invalid", kind: "not-found" }]);
    expect(ledger.transfers).toEqual([]);

    await alice.answer({ approved: true });
    expect(ledger.transfers).toEqual([{ to: "mallory", amount: 500 }]);
  });
});
