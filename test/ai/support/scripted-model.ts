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
import { NAMESPACE_ANNOUNCEMENT_HEADING } from "../../../src/ai/tool-description.js";

/** One model turn: run this code, call another tool directly, or answer with this text. */
export type Turn = { code: string } | { text: string } | { toolName: string; input: unknown; code?: never };

/** The tool call a turn makes (`undefined` for text). */
function callOf(turn: Turn): { toolName: string; input: string } | undefined {
  if ("text" in turn) return undefined;
  if ("code" in turn) return { toolName: "codemode", input: JSON.stringify({ code: turn.code }) };
  return { toolName: turn.toolName, input: JSON.stringify(turn.input) };
}

/** Whether a prompt message is a tool caller's announcement of its namespaces (the SDK appends it to a request). */
function isAnnouncement(message: LanguageModelV4Prompt[number]): boolean {
  return (
    message.role === "user" &&
    message.content.every((part) => part.type === "text" && part.text.startsWith(NAMESPACE_ANNOUNCEMENT_HEADING))
  );
}

/**
 * The output of the newest codemode tool result in the prompt, as the model saw it (JSON), if any. A tool caller's
 * announcement after it (the SDK adds one to every request) does not count as a new user turn.
 */
export function lastToolOutput(prompt: LanguageModelV4Prompt): unknown {
  const last = prompt.findLast((message) => !isAnnouncement(message));
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
  const call = callOf(turn);
  if (call === undefined) {
    return {
      content: [{ type: "text", text: "text" in turn ? turn.text : "" }],
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
        ...call,
      },
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

function streamParts(turn: Turn, callIndex: number): LanguageModelV4StreamPart[] {
  const call = callOf(turn);
  if (call === undefined) {
    const text = "text" in turn ? turn.text : "";
    return [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: text },
      { type: "text-end", id: "t" },
      { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
    ];
  }
  const toolCallId = `call_${callIndex}`;
  const { toolName, input } = call;
  return [
    { type: "stream-start", warnings: [] },
    { type: "tool-input-start", id: toolCallId, toolName },
    { type: "tool-input-delta", id: toolCallId, delta: input },
    { type: "tool-input-end", id: toolCallId },
    { type: "tool-call", toolCallId, toolName, input },
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
