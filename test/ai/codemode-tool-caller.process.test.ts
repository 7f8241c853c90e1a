/**
 * `codemodeTool()` as an AI SDK local tool caller (SPEC §3.7, issue 24) through `generateText` and `streamText` with
 * `MockLanguageModelV4`: routed tools are the sandbox's global `tools`, a tool routed only to codemode is hidden from
 * the model, the tool definition the model receives is the same whatever is routed (the namespaces come in a
 * message), and a routed tool's `needsApproval` pauses the program, approved in another process.
 */
import { join } from "node:path";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { generateText, isStepCount, streamText, type ModelMessage, type ToolSet } from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { codemodeTool } from "../../src/ai/codemode-tool.js";
import { NOT_BOUND_ERROR } from "../../src/ai/codemode-tool-caller.js";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { hasPausedCodemode } from "../../src/ai/ui/has-paused-codemode.js";
import { InvalidOptionError } from "../../src/errors.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { tempFolder } from "../support/temp-folder.js";
import { approveInAnotherProcess } from "./fixtures/approve-in-process.js";
import { readLedger, routedTools } from "./fixtures/routed-tools.js";
import { lastToolOutput, scriptedModel } from "./support/scripted-model.js";

const TWO_TOOLS = `async () => {
  const a = await tools.getBalance({ account: "a" });
  const b = await tools.getBalance({ account: "b" });
  return a.balance + b.balance;
}`;
const PAY = `async () => {
  const before = await tools.getBalance({ account: "me" });
  const sent = await tools.transfer({ to: "alice", amount: 10 });
  return { before: before.balance, sent };
}`;

function workspace(): { store: string; ledger: string } {
  const folder = tempFolder("codemode-caller-");
  return { store: `file:${join(folder, "codemode.db")}`, ledger: join(folder, "ledger.jsonl") };
}

/** A model that runs `code` once, then answers with the codemode result it read. */
function runsOnce(code: string): MockLanguageModelV4 {
  return scriptedModel((prompt) => {
    const output = lastToolOutput(prompt);
    return output === undefined ? { code } : { text: JSON.stringify(output) };
  });
}

type CallOptions = LanguageModelV4CallOptions;
const toolNames = (call: CallOptions | undefined) => (call?.tools ?? []).map((tool) => tool.name).sort();
const codemodeDefinition = (call: CallOptions | undefined) =>
  JSON.stringify((call?.tools ?? []).find((tool) => tool.name === "codemode"));
const userTexts = (call: CallOptions | undefined) =>
  (call?.prompt ?? []).flatMap((message) =>
    message.role === "user" ? message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])) : [],
  );

describe("codemodeTool() as a tool caller", () => {
  // One in-process executor for the file (the runtime does not dispose an executor it was given).
  const executor = new QuickJSExecutor({ isolation: "in-process" });

  it("generateText: a program calls two routed tools; a tool routed only to codemode is not in the model's tool list", async () => {
    const { store, ledger } = workspace();
    const model = runsOnce(TWO_TOOLS);
    const { getBalance, transfer } = routedTools(ledger);
    const result = await generateText({
      model,
      tools: { getBalance, transfer, codemode: codemodeTool({ store, executor }) },
      experimental_toolCallers: { getBalance: ["codemode"], transfer: ["codemode", "AI_SDK_DIRECT_TOOL_CALL"] },
      stopWhen: isStepCount(3),
      prompt: "sum the balances",
    });
    expect(result.text).toContain('"status":"completed"');
    expect(result.text).toContain('"result":200');
    const [first] = model.doGenerateCalls;
    expect(toolNames(first)).toEqual(["codemode", "transfer"]);
    // The namespaces are announced in a message, not in the tool's description.
    const announcement = userTexts(first).find((text) => text.startsWith("Code Mode namespaces"));
    expect(announcement).toContain("- tools: getBalance, transfer (2 methods)");
    expect(announcement).toContain("getBalance(input: { account: string }): Promise<unknown>;");
  });

  it("streamText: the same program, and the same routing", async () => {
    const { store, ledger } = workspace();
    const model = runsOnce(TWO_TOOLS);
    const { getBalance, transfer } = routedTools(ledger);
    const result = streamText({
      model,
      tools: { getBalance, transfer, codemode: codemodeTool({ store, executor }) },
      experimental_toolCallers: { getBalance: ["codemode"], transfer: ["codemode"] },
      stopWhen: isStepCount(3),
      prompt: "sum the balances",
    });
    expect(await result.text).toContain('"result":200');
    expect(toolNames(model.doStreamCalls[0])).toEqual(["codemode"]);
  });

  it("the definition the model receives is byte-identical across requests with different tool sets", async () => {
    const { store, ledger } = workspace();
    const { getBalance, transfer } = routedTools(ledger);
    const ask = async (routed: "one" | "two") => {
      const model = runsOnce("async () => 1");
      await generateText({
        model,
        tools: { getBalance, transfer, codemode: codemodeTool({ store, executor }) },
        experimental_toolCallers:
          routed === "one"
            ? { getBalance: ["codemode"], transfer: ["AI_SDK_DIRECT_TOOL_CALL"] }
            : { getBalance: ["codemode"], transfer: ["codemode"] },
        stopWhen: isStepCount(2),
        prompt: "go",
      });
      return model.doGenerateCalls[0];
    };
    const one = await ask("one");
    const two = await ask("two");
    expect(codemodeDefinition(one)).toBe(codemodeDefinition(two));
    expect(codemodeDefinition(one)).not.toContain("getBalance");
    const announced = (call: CallOptions | undefined) => userTexts(call).find((text) => text.startsWith("Code Mode"));
    expect(announced(one)).toContain("(1 method)");
    expect(announced(two)).toContain("(2 methods)");
    // Before (a plain tool over the same sets), the definitions differ.
    const plain = (tools: ToolSet) => JSON.stringify(createCodemodeRuntime({ store, tools }).tool().description);
    expect(plain({ getBalance })).not.toBe(plain({ getBalance, transfer }));
  });

  it("runtime options and tool options apply to the bound tool: name, scope, limits", async () => {
    const { store, ledger } = workspace();
    const { getBalance } = routedTools(ledger);
    const run = (code: string) =>
      generateText({
        model: runsOnce(code),
        tools: {
          getBalance,
          codemode: codemodeTool({ store, name: "shop", scope: "alice", limits: { timeoutMs: 300 } }),
        },
        experimental_toolCallers: { getBalance: ["codemode"] },
        stopWhen: isStepCount(3),
        prompt: "go",
      });
    await run(TWO_TOOLS);
    const spin = await run("async () => { for (;;) {} }");
    expect(spin.steps[0]?.toolResults[0]?.output).toMatchObject({ status: "error", kind: "timeout" });
    const shop = createCodemodeRuntime({ store, name: "shop" });
    expect((await shop.executions()).map((execution) => execution.scope)).toEqual(["alice", "alice"]);
    expect(await shop.executions(10, { scope: "bob" })).toEqual([]);
    expect(await createCodemodeRuntime({ store }).executions()).toEqual([]);
  });

  it("the steps of one request bind once: the same routed tools give the same bound tool", () => {
    const { ledger } = workspace();
    const caller = codemodeTool({ store: ":memory:" });
    const definition = caller.experimental_toolCaller;
    if (definition.type !== "local") throw new Error("expected a local tool caller");
    const { getBalance, transfer } = routedTools(ledger);
    const first = definition.bind({ getBalance, transfer });
    expect(definition.bind({ transfer, getBalance })).toBe(first);
    expect(definition.bind({ getBalance })).not.toBe(first);
    expect(definition.prepareModelMessage?.({ getBalance })).toContain("(1 method)");
  });

  it("run without experimental_toolCallers, it says how to route tools and runs nothing", async () => {
    const { store } = workspace();
    const model = runsOnce(TWO_TOOLS);
    const result = await generateText({
      model,
      tools: { codemode: codemodeTool({ store, executor }) },
      stopWhen: isStepCount(2),
      prompt: "go",
    });
    const output = result.steps[0]?.toolResults[0]?.output as CodemodeOutput;
    expect(output).toMatchObject({ status: "error", kind: "connector-missing", error: NOT_BOUND_ERROR });
    expect(await createCodemodeRuntime({ store }).executions()).toEqual([]);
  });

  it.each(["generateText", "streamText"] as const)(
    "%s: a routed tool's needsApproval pauses the program; another process approves; the model continues",
    async (call) => {
      const { store, ledger } = workspace();
      const tools = { ...routedTools(ledger), codemode: codemodeTool({ store, executor }) };
      const toolCallers = { getBalance: ["codemode"], transfer: ["codemode"] } as const;
      const model = runsOnce(PAY);
      const generate = async (messages: ModelMessage[]) => {
        const options = {
          model,
          tools,
          experimental_toolCallers: toolCallers,
          stopWhen: [isStepCount(3), hasPausedCodemode()],
          messages,
        };
        if (call === "generateText") return generateText(options);
        const result = streamText(options);
        return { steps: await result.steps, response: await result.response, text: await result.text };
      };
      const messages: ModelMessage[] = [{ role: "user", content: "pay alice" }];
      const paused = await generate(messages);
      const pausedOutput = paused.steps[0]?.toolResults[0]?.output as CodemodeOutput;
      expect(pausedOutput).toMatchObject({
        status: "paused",
        pending: [{ connector: "tools", method: "transfer", args: { to: "alice", amount: 10 } }],
      });
      expect(readLedger(ledger)).toEqual([]);

      const approved = await approveInAnotherProcess({ store, ledger, executionId: pausedOutput.executionId });
      expect(approved.output).toMatchObject({ status: "completed", result: { before: 100, sent: { ok: true } } });
      expect(readLedger(ledger)).toEqual([{ pid: approved.pid, to: "alice", amount: 10 }]);
      expect(approved.pid).not.toBe(process.pid);

      // The next request gives the model the outcome on the same tool call.
      const answered = await generate([...messages, ...withCodemodeOutput(paused.response.messages, approved.output)]);
      expect(answered.text).toContain('"status":"completed"');
      expect(readLedger(ledger)).toHaveLength(1);
    },
  );

  it("runtime.toolCaller(): the routed tools must be the runtime's own tools, the same objects", async () => {
    const { store, ledger } = workspace();
    const routed = routedTools(ledger);
    const runtime = createCodemodeRuntime({ store, executor, tools: { getBalance: routed.getBalance } });
    const run = (toolCallers: Record<string, ["codemode"]>, tools = routed) =>
      generateText({
        model: runsOnce(TWO_TOOLS),
        tools: { ...tools, codemode: runtime.toolCaller() },
        experimental_toolCallers: toolCallers,
        stopWhen: isStepCount(3),
        prompt: "sum",
      });
    expect((await run({ getBalance: ["codemode"] })).text).toContain('"result":200');
    const tooMany = run({ getBalance: ["codemode"], transfer: ["codemode"] });
    await expect(tooMany).rejects.toThrow(InvalidOptionError);
    await expect(tooMany).rejects.toThrow(/experimental_toolCallers routes transfer to codemode, but the runtime/);
    await expect(run({})).rejects.toThrow(/does not route getBalance to codemode/);
    const other = routedTools(ledger);
    await expect(run({ getBalance: ["codemode"] }, other)).rejects.toThrow(/not the same tool objects/);
    await runtime.close();
  });
});

/** `responseMessages` with the codemode tool result replaced by `output` (what the model reads next). */
function withCodemodeOutput(responseMessages: ModelMessage[], output: CodemodeOutput): ModelMessage[] {
  return responseMessages.map((message) =>
    message.role !== "tool"
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === "tool-result" && part.toolName === "codemode"
              ? { ...part, output: { type: "json" as const, value: output as never } }
              : part,
          ),
        },
  );
}
