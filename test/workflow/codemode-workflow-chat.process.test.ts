/**
 * The chat door of an agent that runs as a workflow: a `WorkflowAgent` (`@ai-sdk/workflow`) with the codemode tool,
 * built by the Workflow SDK's builder and run by the local world in the app's server process, behind a chat route
 * (`codemodeWorkflowChatStream`). A conversation is driven as useChat drives it: each request sends the whole
 * conversation over HTTP, the answer is the UI message stream, and an approval is answered on the tool part.
 * The first response ends at the pause (the run waits on its hook); the answer decides through the runtime and the
 * next response streams the same run's continuation.
 */
import { parseJsonEventStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyCodemodeApprovalSignature } from "../../src/ai/ui/approval-signature.js";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { type ChatRoute, Conversation } from "../ai/ui/support/chat-harness.js";
import { createWorkflowApp, type WorkflowApp } from "./workflow-app.js";
import {
  REQUEST_TIMEOUT_MS,
  startServer,
  TOOL_APPROVAL_SECRET,
  until,
  untilWaitingOnHook,
  type WorkflowServer,
} from "./workflow-server.js";

const program = (charge: string) => `async () => {
  const first = await billing.get_charge({ id: "${charge}-1" });
  const second = await billing.get_charge({ id: "${charge}-2" });
  return billing.refund({ chargeId: first.id, amount: first.amount + second.amount });
}`;

let app: WorkflowApp;
let journal: DurableRuntime;
let server: WorkflowServer | undefined;

beforeAll(async () => {
  app = await createWorkflowApp();
  journal = createDurableRuntime({ store: app.db });
  server = await startServer(app);
}, 240_000);

afterAll(async () => {
  await server?.kill();
  await journal?.close();
  await app?.remove();
});

/** The chat route of the app server, as useChat's transport reaches it: one POST per request, SSE back. */
function chatRoute(userId: string, code: string, options: { needsApproval?: boolean } = {}): ChatRoute {
  return (messages: UIMessage[], messageId?: string) =>
    new ReadableStream<UIMessageChunk>({
      async start(controller) {
        const response = await fetch(`${server!.base}/chat`, {
          method: "POST",
          body: JSON.stringify({ messages, messageId, userId, code, needsApproval: options.needsApproval === true }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        if (response.body === null) throw new Error(`the chat route answered ${response.status} without a body`);
        const parsed = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).getReader();
        for (;;) {
          const { done, value } = await parsed.read();
          if (done) break;
          if (!value.success) throw value.error;
          controller.enqueue(value.value);
        }
        controller.close();
      },
    });
}

const effects = (charge: string) => app.effects().filter((line) => line === `effect ${charge}-1`);
const reads = (charge: string) => app.effects().filter((line) => line.startsWith(`read ${charge}-`));

/** The execution the chat's open card asks about, and the workflow run it belongs to. */
async function pausedExecution(chat: Conversation) {
  const part = chat.openApproval();
  const executionId = String(part.approval?.descriptor?.["executionId"]);
  const detail = await journal.execution(executionId);
  expect(detail).toMatchObject({ status: "paused", toolCallId: part.toolCallId });
  return { part, executionId, runId: String(detail?.workflowRunId) };
}

/** The codemode approval requests in a run's stream: all of them once it ended, or the first `count`. */
async function codemodeRequests(runId: string, count?: number): Promise<string[]> {
  const parts = (await server!.post("/run-parts", { runId, count: count ?? "all" })) as Array<Record<string, unknown>>;
  return parts.flatMap((part) =>
    part["type"] === "tool-approval-request" && String(part["approvalId"]).startsWith("cm_")
      ? [String(part["approvalId"])]
      : [],
  );
}

async function runStatus(runId: string): Promise<string> {
  return ((await server!.post("/status", { runId })) as { status: string }).status;
}

describe("a WorkflowAgent's codemode pause in the chat", () => {
  it("pauses inside the workflow; the card answers; the same run continues with one effect", async () => {
    const chat = new Conversation(chatRoute("alice", program("agent")));
    await chat.say("refund both charges");
    // The response ended at the pause: the card is open while the run waits on its hook.
    const { part, executionId, runId } = await pausedExecution(chat);
    expect(executionId).toMatch(/^wf_[0-9a-f]{40}$/);
    expect(part.approval?.descriptor).toMatchObject({ connector: "billing", method: "refund", executionId });
    expect(chat.chunks.at(-1)).toEqual({ type: "finish" });
    expect(await runStatus(runId)).toBe("running");
    expect(reads("agent")).toHaveLength(2);
    expect(effects("agent")).toEqual([]);
    // The run's own stream carries the step's approval request, signed for the chat route.
    const parts = (await server!.post("/run-parts", { runId })) as Array<Record<string, unknown>>;
    const request = parts.at(-1);
    expect(request).toMatchObject({
      type: "tool-approval-request",
      approvalId: part.approval?.id,
      toolCallId: part.toolCallId,
    });
    expect(request?.["approvalDescriptor"]).toMatchObject({ method: "refund", executionId });
    expect(
      await verifyCodemodeApprovalSignature(TOOL_APPROVAL_SECRET, String(request?.["signature"]), {
        approvalId: String(part.approval?.id),
        toolCallId: part.toolCallId,
        toolName: "codemode",
      }),
    ).toBe(true);

    await chat.answer({ approved: true });
    // The continuation of the same run: the program's outcome, then the model's text that read it.
    const answered = chat.codemodeParts()[0];
    expect(answered).toMatchObject({ state: "output-available", output: { status: "completed", executionId } });
    expect(answered?.output?.["result"]).toEqual({ refundId: "re_agent-1" });
    expect(chat.lastText()).toContain("model saw:");
    expect(chat.lastText()).toContain("re_agent-1");
    expect(chat.chunks.map((chunk) => chunk.type)).toContain("text-delta");
    // The continuation starts after what the client has: no second tool input or approval request, and the
    // tool's outcome once (the decision's, with its progress), not again from the run's stream.
    const types = chat.chunks.map((chunk) => chunk.type);
    expect(types).not.toContain("tool-input-available");
    expect(types).not.toContain("tool-approval-request");
    const outcomes = chat.chunks.filter(
      (chunk) => chunk.type === "tool-output-available" && chunk.preliminary !== true,
    ) as Array<{ output: Record<string, unknown> }>;
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]?.output["progress"]).toMatchObject({ status: "completed" });
    expect(
      await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end"),
    ).toBe(true);
    expect(effects("agent")).toHaveLength(1);
    expect(reads("agent")).toHaveLength(2);
    // The run's stream announced the pause once, though the workflow read the journal again before and after it.
    expect(await codemodeRequests(runId)).toEqual([part.approval?.id]);
    const detail = await journal.execution(executionId);
    expect(detail?.calls.find((call) => call.method === "refund")).toMatchObject({
      status: "applied",
      decidedBy: "alice",
    });
  }, 300_000);

  it("a program that pauses twice: the second pause is a new card, the run announces each pause once", async () => {
    const twice = `async () => {
      const charge = await billing.get_charge({ id: "twice-1" });
      const first = await billing.refund({ chargeId: charge.id, amount: 1 });
      const second = await billing.refund({ chargeId: "twice-2", amount: 2 });
      return [first.refundId, second.refundId];
    }`;
    const chat = new Conversation(chatRoute("alice", twice));
    await chat.say("refund twice");
    const { part: first, executionId, runId } = await pausedExecution(chat);
    await chat.answer({ approved: true });
    // The approved pass paused on the second refund: a new card, the model not called, the run still waiting.
    const second = chat.openApproval();
    expect(second.approval?.id).not.toBe(first.approval?.id);
    expect(second.approval?.descriptor).toMatchObject({ method: "refund", args: { chargeId: "twice-2" } });
    expect(chat.chunks.map((chunk) => chunk.type)).not.toContain("text-delta");
    expect(await runStatus(runId)).toBe("running");
    // The decision woke the run; its next read of the journal finds the new pause and announces it on the run's
    // stream (a person answering before that read would find the run reading the outcome instead).
    expect(await codemodeRequests(runId, 2)).toEqual([first.approval?.id, second.approval?.id]);
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]).toMatchObject({
      state: "output-available",
      output: { status: "completed", executionId, result: ["re_twice-1", "re_twice-2"] },
    });
    expect(chat.lastText()).toContain("re_twice-2");
    await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end");
    expect(app.effects().filter((line) => line.startsWith("effect twice-"))).toEqual([
      "effect twice-1",
      "effect twice-2",
    ]);
    expect(await codemodeRequests(runId)).toEqual([first.approval?.id, second.approval?.id]);
  }, 300_000);

  it("a rejection through the same door: the run goes on with the rejection, nothing runs", async () => {
    const chat = new Conversation(chatRoute("alice", program("denied")));
    await chat.say("refund both charges");
    const { executionId, runId } = await pausedExecution(chat);
    await chat.answer({ approved: false, reason: "not today" });
    expect(chat.codemodeParts()[0]?.state).toBe("output-denied");
    // The model read the workflow's tool result: the program was rejected.
    expect(chat.lastText()).toContain("model saw:");
    expect(chat.lastText()).toContain('"kind":"rejected"');
    await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end");
    expect(effects("denied")).toEqual([]);
    const detail = await journal.execution(executionId);
    expect(detail).toMatchObject({ status: "rejected" });
    expect(detail?.calls.find((call) => call.method === "refund")).toMatchObject({ decidedBy: "alice" });
  }, 300_000);

  it("a forged or unsigned answer, or another user's, decides nothing: the run keeps waiting", async () => {
    const chat = new Conversation(chatRoute("alice", program("forged")));
    await chat.say("refund both charges");
    const { executionId, runId } = await pausedExecution(chat);
    type Approval = { id: string; signature?: string };
    const attempts: Array<{ userId: string; change?: (approval: Approval) => void; error: RegExp }> = [
      { userId: "mallory", error: /does not exist/ },
      { userId: "alice", change: (approval) => void delete approval.signature, error: /not signed/ },
      {
        userId: "alice",
        change: (approval) => Object.assign(approval, { signature: "forged" }),
        error: /invalid signature/,
      },
    ];
    for (const { userId, change, error } of attempts) {
      const attacker = new Conversation(chatRoute(userId, program("forged")));
      attacker.messages = structuredClone(chat.messages);
      change?.(attacker.openApproval().approval as Approval);
      await attacker.answer({ approved: true });
      expect(attacker.codemodeParts()[0]).toMatchObject({
        state: "output-error",
        errorText: expect.stringMatching(error),
      });
      expect(attacker.chunks.map((chunk) => chunk.type)).not.toContain("text-delta");
      expect(await journal.execution(executionId)).toMatchObject({ status: "paused" });
      expect(await runStatus(runId)).toBe("running");
    }
    expect(effects("forged")).toEqual([]);
    // The card's own answer still decides it: the run was waiting all along.
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]).toMatchObject({ state: "output-available", output: { status: "completed" } });
    expect(chat.lastText()).toContain("re_forged-1");
    await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end");
    expect(effects("forged")).toHaveLength(1);
  }, 300_000);

  it("the agent's own needsApproval on the codemode tool still works beside the program's pause", async () => {
    const chat = new Conversation(chatRoute("alice", program("native"), { needsApproval: true }));
    await chat.say("refund both charges");
    // WorkflowAgent asks before the program starts (its own approval, not a codemode one); that run ended there.
    const outer = chat.openApproval();
    expect(outer.approval?.id).not.toMatch(/^cm_/);
    expect(outer.approval?.descriptor).toBeUndefined();
    expect(reads("native")).toEqual([]);
    // Approved: a new run executes the tool; the program pauses on the refund inside it.
    await chat.answer({ approved: true });
    const { part, executionId, runId } = await pausedExecution(chat);
    expect(part.toolCallId).toBe(outer.toolCallId);
    expect(part.approval?.descriptor).toMatchObject({ method: "refund", executionId });
    expect(reads("native")).toHaveLength(2);
    expect(effects("native")).toEqual([]);
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]).toMatchObject({ state: "output-available", output: { status: "completed" } });
    expect(chat.lastText()).toContain("re_native-1");
    await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end");
    expect(effects("native")).toHaveLength(1);
  }, 300_000);

  it("the server restarts while the card waits: the answer reaches the same run", async () => {
    const chat = new Conversation(chatRoute("alice", program("restart")));
    await chat.say("refund both charges");
    const { executionId, runId } = await pausedExecution(chat);
    // Nothing was left open by the pause: once the run sits on its hook with no step in flight, the process dies
    // and another one serves the answer.
    await untilWaitingOnHook(server!, runId);
    await server!.kill();
    server = await startServer(app);
    await chat.answer({ approved: true });
    expect(chat.codemodeParts()[0]).toMatchObject({
      state: "output-available",
      output: { status: "completed", executionId },
    });
    expect(chat.lastText()).toContain("re_restart-1");
    await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end");
    expect(effects("restart")).toHaveLength(1);
    expect(reads("restart")).toHaveLength(2);
  }, 300_000);
});
