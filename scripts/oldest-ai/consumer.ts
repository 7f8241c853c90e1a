/**
 * A consumer of the packed package on the oldest `ai` the peer range claims (scripts/check-oldest-ai.ts copies
 * it into a throwaway project, type-checks it with `--strict` and `skipLibCheck: false`, and runs it with Node's
 * type stripping). It goes through what the package takes from `ai`: tools with zod schemas in a connector with a
 * typed policy, a program that pauses for approval and is approved by replay, the `codemode` tool inside
 * `generateText` with a mock model, and the same tools routed to it as a tool caller. Exits non-zero on any
 * difference.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateText, isStepCount, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { codemodeTool, connector, createCodemodeRuntime } from "ai-codemode";
import { z } from "zod";

const folder = mkdtempSync(join(tmpdir(), "codemode-oldest-ai-"));
const failures: string[] = [];
function check(what: string, ok: boolean, got: unknown): void {
  if (!ok) failures.push(`${what}: got ${JSON.stringify(got)}`);
}

const shop = {
  price: tool({
    description: "The price of an item.",
    inputSchema: z.object({ sku: z.string() }),
    execute: async ({ sku }) => ({ sku, price: sku.length * 100 }),
  }),
  charge: tool({
    description: "Charges the customer.",
    inputSchema: z.object({ amount: z.number().positive() }),
    execute: async ({ amount }) => ({ charged: amount }),
  }),
};

try {
  const runtime = createCodemodeRuntime({
    connectors: { shop: connector(shop, { methods: { charge: { needsApproval: true } } }) },
    store: `file:${join(folder, "journal.db")}`,
  });
  const code = `async () => { const { price } = await shop.price({ sku: "plum" }); return shop.charge({ amount: price }); }`;
  const paused = await runtime.execute({ code });
  check("a call that needs approval pauses", paused.status === "paused", paused);
  if (paused.status === "paused") {
    const done = await runtime.approve({ executionId: paused.executionId });
    check("approval replays and finishes", done.status === "completed", done);
  }
  const refused = await runtime.execute({ code: `async () => shop.charge({ amount: -1 })` });
  check("zod validation refuses bad arguments", refused.status === "error", refused);

  const asRuntimeTool = await generateText({
    model: scriptedModel(`async () => (await shop.price({ sku: "fig" })).price`),
    tools: { codemode: runtime.tool() },
    stopWhen: isStepCount(3),
    prompt: "What does a fig cost?",
  });
  check("the codemode tool runs inside generateText", codemodeOutput(asRuntimeTool).includes("300"), asRuntimeTool.steps);
  check("the model answers after the tool result", asRuntimeTool.text === "done", asRuntimeTool.text);
  await runtime.close();

  // A tool caller: the tools routed to `codemode` become the sandbox's global `tools`.
  const asCaller = await generateText({
    model: scriptedModel(`async () => (await tools.price({ sku: "kiwi" })).price`),
    tools: { ...shop, codemode: codemodeTool({ store: `file:${join(folder, "caller.db")}` }) },
    experimental_toolCallers: { price: ["codemode"], charge: ["codemode"] },
    stopWhen: isStepCount(3),
    prompt: "What does a kiwi cost?",
  });
  check("codemodeTool() is a tool caller of the routed tools", codemodeOutput(asCaller).includes("400"), asCaller.steps);
} finally {
  rmSync(folder, { recursive: true, force: true });
}

/** A mock model: first a `codemode` call with `code`, then the text "done". */
function scriptedModel(code: string): MockLanguageModelV4 {
  let turn = 0;
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  return new MockLanguageModelV4({
    doGenerate: async () => {
      turn += 1;
      if (turn > 1) {
        return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      }
      return {
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "codemode", input: JSON.stringify({ code }) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}

/** What the `codemode` tool returned in a generateText run, as JSON. */
function codemodeOutput(result: { steps: Array<{ toolResults: Array<{ toolName: string; output: unknown }> }> }): string {
  const output = result.steps.flatMap((step) => step.toolResults).find((part) => part.toolName === "codemode")?.output;
  return JSON.stringify(output) ?? "";
}

if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("ok: the package works on this ai");
