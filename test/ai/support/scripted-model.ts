/**
 * A `MockLanguageModelV4` driven by a script: on every call it looks at the
 * prompt (in particular the last codemode tool result) and either writes a
 * `codemode` tool call with some code or answers with text. Works for both
 * `doGenerate` (generateText, ToolLoopAgent.generate) and `doStream` (streamText).
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";

/** One model turn: run this code, or answer with this text. */
export type Turn = { code: string } | { text: string };

/** The output of the newest codemode tool result in the prompt, as the model saw it (JSON), if any. */
export function lastToolOutput(prompt: LanguageModelV4Prompt): unknown {
  const last = prompt.at(-1);
  if (last?.role !== "tool") return undefined;
  const part = last.content.findLast((candidate) => candidate.type === "tool-result");
  if (part === undefined || part.type !== "tool-result") return undefined;
  return part.output.type === "json" ? part.output.value : part.output;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function generateResult(turn: Turn, callIndex: number): LanguageModelV4GenerateResult {
  if ("text" in turn) {
    return {
      content: [{ type: "text", text: turn.text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    };
  }
  return {
    content: [
      {
        type: "tool-call",
        toolCallId: `call_${callIndex}`,
        toolName: "codemode",
        input: JSON.stringify({ code: turn.code }),
      },
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

function streamParts(turn: Turn, callIndex: number): LanguageModelV4StreamPart[] {
  if ("text" in turn) {
    return [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: turn.text },
      { type: "text-end", id: "t" },
      { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
    ];
  }
  const toolCallId = `call_${callIndex}`;
  const input = JSON.stringify({ code: turn.code });
  return [
    { type: "stream-start", warnings: [] },
    { type: "tool-input-start", id: toolCallId, toolName: "codemode" },
    { type: "tool-input-delta", id: toolCallId, delta: input },
    { type: "tool-input-end", id: toolCallId },
    { type: "tool-call", toolCallId, toolName: "codemode", input },
    { type: "finish", usage, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
  ];
}

/** A mock model whose every turn is computed by `script(prompt, callIndex)`. */
export function scriptedModel(script: (prompt: LanguageModelV4Prompt, callIndex: number) => Turn): MockLanguageModelV4 {
  let calls = 0;
  const next = (options: LanguageModelV4CallOptions): { turn: Turn; index: number } => {
    const index = calls++;
    return { turn: script(options.prompt, index), index };
  };
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const { turn, index } = next(options);
      return generateResult(turn, index);
    },
    doStream: async (options) => {
      const { turn, index } = next(options);
      const parts = streamParts(turn, index);
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}
