import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import {
  generateText,
  isStepCount,
  readUIMessageStream,
  streamText,
  tool,
  ToolLoopAgent,
  type ToolExecutionOptions,
  type UIMessage,
} from "ai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import type { Connector } from "../../src/connectors/types.js";
import { lastToolOutput, scriptedModel, type Turn } from "./support/scripted-model.js";

let directory: string;
const opened: CodemodeRuntime[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "codemode-ai-"));
});

afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  rmSync(directory, { recursive: true, force: true });
});

interface Seen {
  github: Array<{
    input: unknown;
    options: ToolExecutionOptions<unknown> & { executionId?: string; seq?: number; idempotencyKey?: string };
  }>;
  transfers: unknown[];
}

/** A runtime over github, weather and bank tools, and what those tools were called with. */
function setup(): { runtime: CodemodeRuntime; seen: Seen } {
  const seen: Seen = { github: [], transfers: [] };
  const github = {
    list_issues: tool({
      description: "List issues of a repository, newest first.",
      inputSchema: z.object({ repo: z.string().describe("owner/name"), state: z.enum(["open", "closed"]).optional() }),
      execute: async (input, options) => {
        seen.github.push({ input, options });
        return [
          { number: 2, title: "Crash on start" },
          { number: 1, title: "Typo in README" },
        ];
      },
    }),
  };
  const weather: Connector = {
    description: "Weather forecasts.",
    methods: {
      forecast: {
        description: "Tomorrow's forecast for a city.",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        outputSchema: { type: "object", properties: { sky: { type: "string" } }, required: ["sky"] },
        execute: (args) => ({ sky: `sunny in ${(args as { city: string }).city}` }),
      },
    },
  };
  const bank = {
    transfer: tool({
      description: "Send money.",
      inputSchema: z.object({ to: z.string(), amount: z.number() }),
      needsApproval: true,
      execute: async (input) => {
        seen.transfers.push(input);
        return { ok: true };
      },
    }),
  };
  const runtime = createCodemodeRuntime({
    connectors: { github, weather, bank },
    store: `file:${join(directory, "codemode.db")}`,
  });
  opened.push(runtime);
  return { runtime, seen };
}

type Output = {
  status: string;
  result?: unknown;
  pending?: unknown[];
  message?: string;
  executionId?: string;
  calls?: unknown;
};

/** The codemode tool's outputs, step by step. */
function toolOutputs(steps: ReadonlyArray<{ toolResults: ReadonlyArray<{ output: unknown }> }>): Output[] {
  return steps.flatMap((step) => step.toolResults.map((part) => part.output as Output));
}

/** search → describe → call two namespaces → answer, each step reading what the previous one returned. */
function discoveryScript(prompt: LanguageModelV4Prompt): Turn {
  const output = lastToolOutput(prompt) as Output | undefined;
  if (output === undefined) return { code: 'async () => codemode.search("issues of a repository")' };
  const result = output.result as { results?: Array<{ path: string }>; types?: string; open?: number } | undefined;
  if (result?.results !== undefined)
    return { code: `async () => codemode.describe(${JSON.stringify(result.results[0]!.path)})` };
  if (result?.types !== undefined) {
    return {
      code: [
        "async () => {",
        '  const issues = await github.list_issues({ repo: "acme/app", state: "open" });',
        '  const tomorrow = await weather.forecast({ city: "Berlin" });',
        "  return { open: issues.length, first: issues[0].title, sky: tomorrow.sky };",
        "}",
      ].join("\n"),
    };
  }
  return { text: `Final: ${JSON.stringify(output.result)}` };
}

function expectDiscoveryRun(outputs: Output[], seen: Seen, finalText: string): void {
  expect(outputs.map((output) => output.status)).toEqual(["completed", "completed", "completed"]);
  const search = outputs[0]!.result as { results: Array<{ path: string }> };
  expect(search.results[0]!.path).toBe("github.list_issues");
  const describe = outputs[1]!.result as { kind: string; types: string };
  expect(describe.kind).toBe("method");
  expect(describe.types).toContain("list_issues(input: {");
  expect(outputs[2]!.result).toEqual({ open: 2, first: "Crash on start", sky: "sunny in Berlin" });
  expect(finalText).toBe('Final: {"open":2,"first":"Crash on start","sky":"sunny in Berlin"}');
  expect(seen.github).toHaveLength(1);
  const { input, options } = seen.github[0]!;
  expect(input).toEqual({ repo: "acme/app", state: "open" });
  expect(typeof options.toolCallId).toBe("string");
  expect(options.messages.length).toBeGreaterThan(0);
  expect(typeof options.executionId).toBe("string");
  expect(options.seq).toEqual(expect.any(Number));
  expect(options.idempotencyKey).toBe(`${options.executionId}:${options.seq}`);
}

describe("createCodemodeRuntime().tool() in the AI SDK loop", () => {
  it("generateText: the model searches, describes, calls two namespaces and returns", async () => {
    const { runtime, seen } = setup();
    const prompts: LanguageModelV4Prompt[] = [];
    const model = scriptedModel((prompt) => {
      prompts.push(prompt);
      return discoveryScript(prompt);
    });
    const result = await generateText({
      model,
      tools: { codemode: runtime.tool() },
      prompt: "How many open issues?",
      stopWhen: isStepCount(6),
    });
    const outputs = toolOutputs(result.steps);
    expectDiscoveryRun(outputs, seen, result.text);
    // What the model read: JSON with status and result, never an audit log.
    const seenByModel = lastToolOutput(prompts.at(-1)!) as Output;
    expect(seenByModel.status).toBe("completed");
    expect(seenByModel).not.toHaveProperty("calls");
    // The journal kept every call.
    const detail = await runtime.execution(outputs[2]!.executionId!);
    expect(detail?.calls.map((call) => `${call.connector}.${call.method}`)).toEqual([
      "github.list_issues",
      "weather.forecast",
    ]);
  });

  it("streamText: the same loop, streamed, with the UI part named tool-codemode", async () => {
    const { runtime, seen } = setup();
    const model = scriptedModel(discoveryScript);
    const result = streamText({
      model,
      tools: { codemode: runtime.tool() },
      prompt: "How many open issues?",
      stopWhen: isStepCount(6),
    });
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: result.toUIMessageStream() })) message = snapshot;
    const outputs = toolOutputs(await result.steps);
    expectDiscoveryRun(outputs, seen, await result.text);
    const parts = (message?.parts ?? []).filter((part) => part.type === "tool-codemode") as Array<{
      state: string;
      output?: Output;
    }>;
    expect(parts.map((part) => part.state)).toEqual(["output-available", "output-available", "output-available"]);
    expect(parts[2]!.output!.result).toEqual({ open: 2, first: "Crash on start", sky: "sunny in Berlin" });
  });

  it("ToolLoopAgent: the same loop through an agent", async () => {
    const { runtime, seen } = setup();
    const agent = new ToolLoopAgent({
      model: scriptedModel(discoveryScript),
      tools: { codemode: runtime.tool() },
      stopWhen: isStepCount(6),
    });
    const result = await agent.generate({ prompt: "How many open issues?" });
    const outputs = toolOutputs(result.steps);
    expectDiscoveryRun(outputs, seen, result.text);
  });

  it("surfaces a pause as a paused tool result, and approval later runs the action once", async () => {
    const { runtime, seen } = setup();
    const prompts: LanguageModelV4Prompt[] = [];
    const model = scriptedModel((prompt) => {
      prompts.push(prompt);
      const output = lastToolOutput(prompt) as Output | undefined;
      if (output === undefined)
        return { code: 'async () => { const r = await bank.transfer({ to: "ada", amount: 5 }); return r.ok; }' };
      return { text: `status ${output.status}` };
    });
    const result = await generateText({
      model,
      tools: { codemode: runtime.tool() },
      prompt: "Pay Ada 5",
      stopWhen: isStepCount(4),
    });
    const output = result.steps[0]!.toolResults[0]!.output as Output;
    expect(output.status).toBe("paused");
    expect(output.pending).toEqual([
      {
        executionId: output.executionId,
        seq: expect.any(Number),
        connector: "bank",
        method: "transfer",
        args: { to: "ada", amount: 5 },
      },
    ]);
    expect(seen.transfers).toEqual([]);
    expect(result.text).toBe("status paused");
    const seenByModel = lastToolOutput(prompts.at(-1)!) as Output;
    expect(seenByModel.message).toContain("Waiting for human approval of bank.transfer");

    const resumed = await runtime.approve({ executionId: output.executionId! });
    expect(resumed).toMatchObject({ status: "completed", result: true });
    expect(seen.transfers).toEqual([{ to: "ada", amount: 5 }]);
  });

  it("maxOutputChars bounds what the model gets of a large result; the tool output and the journal keep it whole", async () => {
    const runtime = createCodemodeRuntime({ store: `file:${join(directory, "big.db")}`, maxOutputChars: 5_000 });
    opened.push(runtime);
    const codemode = runtime.tool({ progress: false }); // `execute` resolves with the final output itself
    const code =
      "async () => { for (let i = 0; i < 50; i += 1) console.log('row ' + i + ' '.padEnd(200, '.')); return Array.from({ length: 20000 }, (_, i) => ({ id: i, name: 'item ' + i })); }";
    const output = await codemode.execute!({ code }, { toolCallId: "t1", messages: [], context: undefined });
    expect(output).toMatchObject({ status: "completed" });
    const full = (output as { result: unknown[] }).result;
    expect(full).toHaveLength(20_000);
    const modelView = await codemode.toModelOutput!({ toolCallId: "t1", input: { code }, output: output as never });
    const text = JSON.stringify(modelView);
    expect(text.length).toBeLessThan(7_000);
    expect(text).toContain("result cut for the model");
    expect(text).toContain("logs cut for the model");
    const journaled = await runtime.execution((output as { executionId: string }).executionId);
    expect(journaled?.result).toEqual(full);
    expect(() => createCodemodeRuntime({ maxOutputChars: 0 })).toThrow("maxOutputChars must be a positive integer");
  });

  it("tells the model the truth about a result too large for the journal (issue 23 item 5)", async () => {
    const runtime = createCodemodeRuntime({ store: `file:${join(directory, "placeholder.db")}` });
    opened.push(runtime);
    const codemode = runtime.tool({ progress: false });
    // 1,500,000 characters: over the journal's 1,000,000, under the 4,000,000 a result may carry to the caller.
    const code = "async () => 'r'.repeat(1500000)";
    const output = await codemode.execute!({ code }, { toolCallId: "t1", messages: [], context: undefined });
    expect(output).toMatchObject({ status: "completed", journaled: false });
    expect((output as { result: string }).result).toHaveLength(1_500_000);
    const modelView = JSON.stringify(
      await codemode.toModelOutput!({ toolCallId: "t1", input: { code }, output: output as never }),
    );
    expect(modelView).not.toContain("kept in the journal");
    expect(modelView).toContain("The full value is not kept: it was over the journal's limit of 1,000,000 characters");
    expect(modelView).toContain("journaled a placeholder");
    const journaled = await runtime.execution((output as { executionId: string }).executionId);
    expect(journaled?.result).toMatch(/^\[result not journaled: /);
    // A result that fits is still said to be kept.
    const fits = await codemode.execute!(
      { code: "async () => 'k'.repeat(30000)" },
      { toolCallId: "t2", messages: [], context: undefined },
    );
    expect(fits).not.toHaveProperty("journaled");
    const fitsView = JSON.stringify(
      await codemode.toModelOutput!({ toolCallId: "t2", input: { code }, output: fits as never }),
    );
    expect(fitsView).toContain("The full value is kept in the journal");
  });

  it("describes every namespace in the tool description and validates tool options", () => {
    const { runtime } = setup();
    const codemode = runtime.tool({ inlineTypes: false });
    expect(codemode.description).toContain("- github: list_issues (1 method)");
    expect(codemode.description).toContain("- weather: Weather forecasts. (1 method)");
    expect(codemode.description).toContain("- bank: transfer (1 method)");
    expect(codemode.description).not.toContain("declare const");
    expect(runtime.tool().description).toContain("declare const weather: {");
    expect(() => runtime.tool({ inlineTypes: "sometimes" as never })).toThrow("tool.inlineTypes");
  });
});

describe("the runtime's lifetime", () => {
  it("`await using` closes the runtime at the end of its block; deleteAllData deletes the rows and keeps it open", async () => {
    const store = `file:${join(directory, "lifetime.db")}`;
    const tools = {
      add: tool({
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: async ({ a, b }) => a + b,
      }),
    };
    let escaped: CodemodeRuntime | undefined;
    {
      await using runtime = createCodemodeRuntime({ tools, store });
      escaped = runtime;
      const done = await runtime.execute({ code: "async () => tools.add({ a: 1, b: 2 })" });
      expect(done).toMatchObject({ status: "completed", result: 3 });
      expect(await runtime.executions()).toHaveLength(1);
      await runtime.deleteAllData();
      expect(await runtime.executions()).toEqual([]);
      expect(await runtime.execute({ code: "async () => 4" })).toMatchObject({ status: "completed", result: 4 });
    }
    // The block closed it: its store client is released (the data stays in the file).
    await expect(escaped.executions()).rejects.toThrow();
    await using reopened = createCodemodeRuntime({ tools, store });
    expect(await reopened.executions()).toHaveLength(1);
  });
});
