/**
 * `ToolLoopAgent` (`Experimental_Agent`) with codemode as its tool caller (issue 24): the agent's program pauses on a
 * routed tool that needs approval, a separate `node` process approves it from the store, and the agent continues with
 * the outcome — nothing held in memory in between, the effect run once, by the approving process.
 */
import { join } from "node:path";
import { Experimental_Agent, isStepCount, ToolLoopAgent, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { codemodeTool } from "../../src/ai/codemode-tool.js";
import { hasPausedCodemode } from "../../src/ai/ui/has-paused-codemode.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { tempFolder } from "../support/temp-folder.js";
import { approveInAnotherProcess } from "./fixtures/approve-in-process.js";
import { readLedger, routedTools } from "./fixtures/routed-tools.js";
import { lastToolOutput, scriptedModel } from "./support/scripted-model.js";

const PAY = `async () => {
  const [mine, theirs] = await Promise.all([tools.getBalance({ account: "me" }), tools.getBalance({ account: "alice" })]);
  const sent = await tools.transfer({ to: "alice", amount: 10 });
  return { mine: mine.balance, theirs: theirs.balance, sent };
}`;

/** The agent of one invocation: a new agent and a new caller, as a serverless function builds them. */
function agentFor({ store, ledger }: { store: string; ledger: string }) {
  const model = scriptedModel((prompt) => {
    const output = lastToolOutput(prompt) as { status?: string; result?: unknown } | undefined;
    return output === undefined ? { code: PAY } : { text: `${output.status}: ${JSON.stringify(output.result)}` };
  });
  const agent = new ToolLoopAgent({
    model,
    tools: { ...routedTools(ledger), codemode: codemodeTool({ store }) },
    experimental_toolCallers: { getBalance: ["codemode"], transfer: ["codemode"] },
    stopWhen: [isStepCount(5), hasPausedCodemode()],
  });
  return { agent, model };
}

describe("ToolLoopAgent with codemode as a tool caller", () => {
  it("pauses, is approved in a separate process, and continues with the outcome", { timeout: 120_000 }, async () => {
    expect(Experimental_Agent).toBe(ToolLoopAgent);
    const folder = tempFolder("codemode-agent-");
    const workspace = { store: `file:${join(folder, "codemode.db")}`, ledger: join(folder, "ledger.jsonl") };

    const first = agentFor(workspace);
    const prompt: ModelMessage[] = [{ role: "user", content: "send alice 10" }];
    const paused = await first.agent.generate({ prompt });
    const output = paused.steps.at(-1)?.toolResults[0]?.output as CodemodeOutput;
    expect(output).toMatchObject({
      status: "paused",
      pending: [{ connector: "tools", method: "transfer", args: { to: "alice", amount: 10 } }],
    });
    expect(first.model.doGenerateCalls.map((call) => (call.tools ?? []).map((tool) => tool.name))).toEqual([
      ["codemode"],
    ]);
    expect(readLedger(workspace.ledger)).toEqual([]);

    const approved = await approveInAnotherProcess({ ...workspace, executionId: output.executionId });
    expect(approved.pid).not.toBe(process.pid);
    expect(approved.output).toMatchObject({
      status: "completed",
      executionId: output.executionId,
      result: { mine: 100, theirs: 100, sent: { ok: true, to: "alice", amount: 10 } },
    });
    expect(readLedger(workspace.ledger)).toEqual([{ pid: approved.pid, to: "alice", amount: 10 }]);

    // A later invocation: a new agent, the conversation with the approved outcome on the same tool call.
    const next = agentFor(workspace);
    const messages = [...prompt, ...paused.response.messages].map((message) =>
      message.role !== "tool"
        ? message
        : {
            ...message,
            content: message.content.map((part) =>
              part.type === "tool-result"
                ? { ...part, output: { type: "json" as const, value: approved.output as never } }
                : part,
            ),
          },
    );
    const answered = await next.agent.generate({ messages });
    expect(answered.text).toBe('completed: {"mine":100,"theirs":100,"sent":{"ok":true,"to":"alice","amount":10}}');
    expect(next.model.doGenerateCalls).toHaveLength(1);
    expect(readLedger(workspace.ledger)).toHaveLength(1);
  });
});
