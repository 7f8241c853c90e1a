import { tool } from "@ai-sdk/provider-utils";
import {
  isStepCount,
  parseJsonEventStream,
  readUIMessageStream,
  streamText,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonSafeCodemodeOutput } from "../../src/ai/build-codemode-tool.js";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { readAll } from "./ui/support/read-all.js";
import { scriptedModel, type CodemodePart } from "./ui/support/chat-harness.js";

const executor = new QuickJSExecutor({ isolation: "in-process" });
afterAll(() => executor.dispose());

/** A tool whose result holds every value JSON has no form for. */
const awkward = tool({
  description: "Returns values JSON cannot carry as they are.",
  inputSchema: z.object({}),
  execute: async () => ({
    big: 12345678901234567890n,
    byName: new Map([
      ["a", 1],
      ["b", 2],
    ]),
    byNumber: new Map([[1, "one"]]),
    tags: new Set(["x", "y"]),
    at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    bytes: new Uint8Array([104, 105]),
  }),
});

/** The values as the UI part shows them (the model sees the same). */
const SHOWN = {
  big: "12345678901234567890n",
  byName: { "Map(2)": { a: 1, b: 2 } },
  byNumber: { "Map(1)": [[1, "one"]] },
  tags: { "Set(2)": ["x", "y"] },
  at: "2026-01-02T03:04:05.000Z",
  bytes: { "Uint8Array(2)": "68 69" },
};

describe("the codemode tool's raw output over a UI message stream", () => {
  it("survives toUIMessageStreamResponse() and shows the values in the UI part (useChat over SSE)", async () => {
    const runtime = createCodemodeRuntime({ tools: { awkward }, store: ":memory:", executor });
    try {
      const response = streamText({
        model: scriptedModel("async () => tools.awkward({})"),
        tools: { codemode: runtime.tool() },
        prompt: "show me",
        stopWhen: isStepCount(2),
      }).toUIMessageStreamResponse();
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      if (response.body === null) throw new Error("no body");
      // Parsed and validated the way useChat's transport does, then folded into a UIMessage.
      const chunks: UIMessageChunk[] = [];
      for (const parsed of await readAll(
        parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }),
      )) {
        if (!parsed.success) throw parsed.error;
        chunks.push(parsed.value);
      }
      expect(chunks.filter((chunk) => chunk.type === "error")).toEqual([]);
      let message: UIMessage | undefined;
      const stream = new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      for await (const snapshot of readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
      const part = message?.parts.find((candidate) => candidate.type === "tool-codemode") as CodemodePart | undefined;
      expect(part?.state).toBe("output-available");
      expect(part?.output).toMatchObject({ status: "completed", result: SHOWN });
      // Chat history is stored as JSON: the part round-trips unchanged.
      expect(JSON.parse(JSON.stringify(message))).toEqual(message);
      // The model read the same values (its view is a separate, consistent mapping).
      const text = message?.parts.find((candidate) => candidate.type === "text");
      expect(text).toMatchObject({ text: expect.stringContaining('"big":"12345678901234567890n"') });
      // The journal keeps the original values.
      const [execution] = await runtime.executions(1);
      const detail = await runtime.execution(execution?.executionId ?? "");
      expect((detail!.result as { big: unknown }).big).toBe(12345678901234567890n);
    } finally {
      await runtime.close();
    }
  });

  it("maps the arguments of a paused call the same way", () => {
    const output = jsonSafeCodemodeOutput({
      status: "paused",
      executionId: "e",
      pending: [
        { executionId: "e", seq: 0, connector: "bank", method: "send", args: { amount: 5n, to: new Set(["a"]) } },
      ],
    });
    expect(JSON.parse(JSON.stringify(output))).toEqual({
      status: "paused",
      executionId: "e",
      pending: [
        {
          executionId: "e",
          seq: 0,
          connector: "bank",
          method: "send",
          args: { amount: "5n", to: { "Set(1)": ["a"] } },
        },
      ],
    });
  });

  it("keeps a cyclic result bounded", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic["self"] = cyclic;
    const output = jsonSafeCodemodeOutput({ status: "completed", executionId: "e", result: cyclic });
    expect(JSON.parse(JSON.stringify(output))).toEqual({
      status: "completed",
      executionId: "e",
      result: { name: "loop", self: "[Circular]" },
    });
  });
});
