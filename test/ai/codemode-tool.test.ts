import { asSchema, tool } from "@ai-sdk/provider-utils";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { validateCodemodeInput } from "../../src/ai/codemode-input-schema.js";
import { codemodeTool } from "../../src/ai/codemode-tool.js";

const directory = mkdtempSync(join(tmpdir(), "codemode-tool-"));

/** Every value `execute` yields (an async iterable: progress snapshots, then the final output). */
async function yielded(result: unknown): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of result as AsyncIterable<unknown>) values.push(value);
  return values;
}
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("codemodeTool", () => {
  const received: unknown[] = [];
  const codemode = codemodeTool({
    tools: {
      add: tool({
        description: "Adds two numbers.",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: async ({ a, b }, options) => {
          received.push(options.toolCallId);
          return a + b;
        },
      }),
    },
    store: `file:${join(directory, "codemode.db")}`,
    inlineTypes: true,
  });

  it("exposes the tool set as the global `tools` and runs programs against it", async () => {
    expect(codemode.description).toContain("- tools: add (1 method)");
    expect(codemode.description).toContain("declare const tools: {");
    const values = await yielded(
      codemode.execute!(
        { code: "async () => { const x = await tools.add({ a: 2, b: 3 }); return x * 10; }" },
        { toolCallId: "call_1", messages: [], context: undefined },
      ),
    );
    expect(values[0]).toMatchObject({
      status: "running",
      calls: [{ connector: "tools", method: "add", state: "executing" }],
    });
    expect(values.at(-1)).toMatchObject({
      status: "completed",
      result: 50,
      progress: { totalCalls: 1, counts: { applied: 1 } },
    });
    expect(received).toHaveLength(1);
  });

  it("reports invalid arguments as an error the model can read", async () => {
    const output = (
      await yielded(
        codemode.execute!(
          { code: 'async () => tools.add({ a: "2" })' },
          { toolCallId: "call_2", messages: [], context: undefined },
        ),
      )
    ).at(-1);
    expect(output).toMatchObject({ status: "error" });
    expect((output as { error: string }).error).toContain("a: expected number, got string");
  });

  it("declares and validates the { code } input", async () => {
    const schema = asSchema(codemode.inputSchema);
    expect(await schema.jsonSchema).toMatchObject({ type: "object", required: ["code"] });
    expect(validateCodemodeInput({ code: "1" })).toEqual({ success: true, value: { code: "1" } });
    expect(validateCodemodeInput({ program: "1" }).success).toBe(false);
  });
});
