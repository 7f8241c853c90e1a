/**
 * The `toolApproval` option (issue 24): the AI SDK's own approval configuration applied to the calls a program makes,
 * so that a tool routed to both paths (called directly by the model, or from code) follows one policy. Each case runs
 * the same tool both ways through `generateText` with `MockLanguageModelV4`.
 */
import { join } from "node:path";
import { generateText, isStepCount, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { codemodeTool } from "../../src/ai/codemode-tool.js";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { hasPausedCodemode } from "../../src/ai/ui/has-paused-codemode.js";
import type { CodemodeToolApproval } from "../../src/ai/tool-approval.js";
import { InvalidOptionError } from "../../src/errors.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { tempFolder } from "../support/temp-folder.js";
import { readLedger, routedTools } from "./fixtures/routed-tools.js";
import { lastToolOutput, scriptedModel, type Turn } from "./support/scripted-model.js";

const NESTED_PAY = `async () => {
  try {
    return { sent: await tools.transfer({ to: "alice", amount: 10 }) };
  } catch (error) {
    return { refused: error.message };
  }
}`;

const executor = new QuickJSExecutor({ isolation: "in-process" });

/** One request whose model makes `turn` first, then answers with the text "done". */
async function request({
  turn,
  toolApproval,
  store,
  ledger,
}: {
  turn: Turn;
  toolApproval?: CodemodeToolApproval;
  store: string;
  ledger: string;
}) {
  const model = scriptedModel((prompt, index) =>
    index === 0 || lastToolOutput(prompt) === undefined ? turn : { text: "done" },
  );
  // Typed for any tool set here; an app's literal object types against its own tools in both places.
  const approval = toolApproval === undefined ? {} : { toolApproval: toolApproval as never };
  const codemode = codemodeTool(toolApproval === undefined ? { store, executor } : { store, executor, toolApproval });
  const result = await generateText({
    model,
    tools: { ...routedTools(ledger), codemode },
    experimental_toolCallers: { transfer: ["codemode", "AI_SDK_DIRECT_TOOL_CALL"], getBalance: ["codemode"] },
    ...approval,
    stopWhen: [isStepCount(3), hasPausedCodemode()],
    prompt: "pay alice",
  });
  const content = result.steps.flatMap((step) => step.content);
  return {
    // Approval requests put to a person (an "approved" / "denied" status makes an automatic one).
    asked: content
      .filter((part) => part.type === "tool-approval-request" && part.isAutomatic !== true)
      .map((part) => (part.type === "tool-approval-request" ? part.toolCall.toolName : "")),
    codemode: result.steps.flatMap((step) => step.toolResults).find((part) => part.toolName === "codemode")?.output as
      | CodemodeOutput
      | undefined,
    content,
  };
}

function workspace(): { store: string; ledger: string } {
  const folder = tempFolder("codemode-tool-approval-");
  return { store: `file:${join(folder, "codemode.db")}`, ledger: join(folder, "ledger.jsonl") };
}

const direct: Turn = { toolName: "transfer", input: { to: "alice", amount: 10 } };

describe("one approval policy for a tool routed to both paths", () => {
  it("the tool's needsApproval: the SDK asks before the direct call, the program pauses before the nested one", async () => {
    const { store, ledger } = workspace();
    expect((await request({ turn: direct, store, ledger })).asked).toEqual(["transfer"]);
    const nested = await request({ turn: { code: NESTED_PAY }, store, ledger });
    expect(nested.codemode).toMatchObject({ status: "paused", pending: [{ method: "transfer" }] });
    expect(readLedger(ledger)).toEqual([]);
  });

  it('toolApproval { transfer: "approved" } on both: neither path asks, each runs the transfer once', async () => {
    const { store, ledger } = workspace();
    const toolApproval = { transfer: "approved" } as const;
    expect((await request({ turn: direct, toolApproval, store, ledger })).asked).toEqual([]);
    expect(readLedger(ledger)).toHaveLength(1);
    const nested = await request({ turn: { code: NESTED_PAY }, toolApproval, store, ledger });
    expect(nested.codemode).toMatchObject({ status: "completed", result: { sent: { ok: true } } });
    expect(readLedger(ledger)).toHaveLength(2);
  });

  it('toolApproval { transfer: { type: "denied", reason } } on both: neither path runs it; the program reads why', async () => {
    const { store, ledger } = workspace();
    const toolApproval = { transfer: { type: "denied", reason: "transfers are off today" } } as const;
    const first = await request({ turn: direct, toolApproval, store, ledger });
    expect(first.asked).toEqual([]);
    expect(first.content.some((part) => part.type === "tool-approval-response" && part.approved === false)).toBe(true);
    const nested = await request({ turn: { code: NESTED_PAY }, toolApproval, store, ledger });
    expect(nested.codemode).toMatchObject({
      status: "completed",
      result: {
        refused: expect.stringMatching(
          /tools\.transfer was denied by the app's toolApproval .*transfers are off today/,
        ),
      },
    });
    expect(readLedger(ledger)).toEqual([]);
  });

  it('"user-approval" pauses a tool that has no needsApproval; a generic function decides each call by its input', async () => {
    const { store, ledger } = workspace();
    const read = `async () => (await tools.getBalance({ account: "me" })).balance`;
    const paused = await request({
      turn: { code: read },
      toolApproval: { getBalance: "user-approval" },
      store,
      ledger,
    });
    expect(paused.codemode).toMatchObject({ status: "paused", pending: [{ method: "getBalance" }] });

    // The SDK asks it about every direct call too, the codemode call itself included.
    const byAmount: CodemodeToolApproval = ({ toolCall }) =>
      toolCall.toolName === "codemode"
        ? "not-applicable"
        : (toolCall.input as { amount?: number }).amount === 10
          ? "approved"
          : "user-approval";
    const small = await request({ turn: { code: NESTED_PAY }, toolApproval: byAmount, store, ledger });
    expect(small.codemode).toMatchObject({ status: "completed" });
    const large = await request({
      turn: { code: NESTED_PAY.replace("amount: 10", "amount: 900") },
      toolApproval: byAmount,
      store,
      ledger,
    });
    expect(large.codemode).toMatchObject({ status: "paused", pending: [{ args: { amount: 900 } }] });
    // The generic form decides every call, like the SDK's: getBalance ran without its own policy being asked.
    expect(readLedger(ledger)).toEqual([{ pid: process.pid, to: "alice", amount: 10 }]);
  });

  it("a bad configuration is refused at construction, naming the path", () => {
    const tools: ToolSet = routedTools(join(tempFolder("codemode-tool-approval-"), "ledger.jsonl"));
    const make = (toolApproval: unknown) =>
      createCodemodeRuntime({ store: ":memory:", tools, toolApproval: toolApproval as CodemodeToolApproval });
    expect(() => make({ transfer: "maybe" })).toThrow(InvalidOptionError);
    expect(() => make({ transfer: "maybe" })).toThrow(/^toolApproval\.transfer must be a status/);
    expect(() => make(3)).toThrow(/^toolApproval must be a function/);
    expect(() => createCodemodeRuntime({ store: ":memory:", tools, toolApprovals: {} } as never)).toThrow(
      /options\.toolApprovals is not a known option \(did you mean "toolApproval"\?\)/,
    );
  });
});
