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
    expect(
      await until(async () => ((await runStatus(runId)) === "completed" ? true : undefined), "the run's end"),
    ).toBe(true);
    expect(effects("agent")).toHaveLength(1);
    expect(reads("agent")).toHaveLength(2);
    const detail = await journal.execution(executionId);
    expect(detail?.calls.find((call) => call.method === "refund")).toMatchObject({
      status: "applied",
      decidedBy: "alice",
    });
  }, 300_000);
});
