/**
 * Drives multi-request chat conversations the way `useChat` does, without a browser: each
 * request sends the whole conversation to a route, receives the UI message stream as a
 * server-sent-event response, reads it with `readUIMessageStream` (continuing the last
 * assistant message), and approval answers are written onto the tool part like
 * `addToolApprovalResponse` does.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  isStepCount,
  parseJsonEventStream,
  readUIMessageStream,
  streamText,
  tool,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import type { CodemodeToolOptions } from "../../../../src/ai/build-codemode-tool.js";
import { createCodemodeChatStream } from "../../../../src/ai/ui/create-codemode-chat-stream.js";
import { hasPausedCodemode } from "../../../../src/ai/ui/has-paused-codemode.js";
import type { ResolvedCodemodeApproval } from "../../../../src/ai/ui/resume-codemode-approvals.js";
import type { CodemodeApprovalRuntime } from "../../../../src/ai/ui/types.js";
import { readAll } from "./read-all.js";

/** A codemode UI tool part as the client holds it. */
export type CodemodePart = {
  type: "tool-codemode";
  toolCallId: string;
  state: string;
  input?: { code?: string };
  output?: Record<string, unknown>;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string; descriptor?: Record<string, unknown> };
  preliminary?: boolean;
};

/** What the connector really did: each effect once, or the test fails. */
export interface Ledger {
  transfers: Array<{ to: string; amount: number }>;
}

/** A bank connector: `balance` is free, `transfer` needs approval. */
export function bankTools(ledger: Ledger): ToolSet {
  return {
    balance: tool({
      description: "Current balance.",
      inputSchema: z.object({}),
      execute: async () => 100,
    }),
    transfer: tool({
      description: "Send money. Needs approval.",
      inputSchema: z.object({ to: z.string(), amount: z.number() }),
      needsApproval: true,
      execute: async ({ to, amount }) => {
        ledger.transfers.push({ to, amount });
        return { to, amount, ok: true };
      },
    }),
  };
}

/**
 * A model that writes `code` for the first user message and, once it reads a codemode
 * result, answers with a text that quotes it. Every call is recorded in `doStreamCalls`.
 */
export function scriptedModel(code: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doStream: async (options) => ({ stream: replyStream(options, code) }) });
}

function replyStream({ prompt }: LanguageModelV4CallOptions, code: string): ReadableStream<LanguageModelV4StreamPart> {
  const last = prompt.at(-1);
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const parts: LanguageModelV4StreamPart[] =
    last?.role === "tool"
      ? [
          { type: "text-start", id: "t" },
          {
            type: "text-delta",
            id: "t",
            delta: `model saw: ${JSON.stringify(last.content.map((part) => ("output" in part ? part.output : part)))}`,
          },
          { type: "text-end", id: "t" },
          { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
        ]
      : [
          {
            type: "tool-call",
            toolCallId: `call_${prompt.length}`,
            toolName: "codemode",
            input: JSON.stringify({ code }),
          },
          { type: "finish", usage, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
        ];
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A chat route: the conversation, and the id of the message whose approvals it answers (useChat's `messageId`). */
export type ChatRoute = (messages: UIMessage[], messageId?: string) => ReadableStream<UIMessageChunk>;

/**
 * The route under test: the wiring of examples/nextjs/app/api/chat/route.ts with `runtime.tool()` (the example now
 * uses `runtime.toolCaller()`, as signed-approvals.test.ts does).
 */
export function chatRoute({
  runtime,
  model,
  onResolved,
  onFinish,
  scope,
  toolOptions,
}: {
  runtime: CodemodeApprovalRuntime & { tool(options?: CodemodeToolOptions): ToolSet[string] };
  model: MockLanguageModelV4;
  onResolved?: (resolved: ResolvedCodemodeApproval[]) => void;
  /** Receives what the route would persist when the stream ends. */
  onFinish?: (event: { messages: UIMessage[]; responseMessage: UIMessage; isContinuation: boolean }) => void;
  /** The owner the route acts for (the signed-in user), given to the tool and the chat stream. */
  scope?: string;
  /** Options of `runtime.tool()` (besides `scope`). */
  toolOptions?: CodemodeToolOptions;
}): ChatRoute {
  return (messages, messageId) => {
    const tools = { codemode: runtime.tool({ ...toolOptions, ...(scope === undefined ? {} : { scope }) }) };
    return createCodemodeChatStream({
      runtime,
      messages,
      messageId,
      ...(scope === undefined ? {} : { scope }),
      respond: async ({ messages: resolved }) =>
        streamText({
          model,
          tools,
          messages: await convertToModelMessages(resolved, { tools }),
          stopWhen: [isStepCount(5), hasPausedCodemode()],
        }).toUIMessageStream(),
      onError: (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
      ...(onResolved === undefined ? {} : { onResolved }),
      ...(onFinish === undefined ? {} : { onFinish }),
    });
  };
}

/** A conversation held on the client side, sent to a (replaceable) route on every request. */
export class Conversation {
  messages: UIMessage[] = [];
  /** Chunks of the last response. */
  chunks: UIMessageChunk[] = [];
  private nextId = 0;

  constructor(public route: ChatRoute) {}

  /** Sends a user message. */
  async say(text: string): Promise<void> {
    this.messages.push({ id: `user-${this.nextId++}`, role: "user", parts: [{ type: "text", text }] });
    await this.request();
  }

  /**
   * Answers the open approval request (of tool call `toolCallId`, else the first one open) like
   * `addToolApprovalResponse` and sends the conversation. An answer in an earlier message than the last is sent
   * with that message's id, as useChat's `sendMessage()` does, and the response continues that message.
   */
  async answer({
    approved,
    reason,
    approvalId,
    toolCallId,
  }: {
    approved: boolean;
    reason?: string;
    approvalId?: string;
    toolCallId?: string;
  }): Promise<void> {
    const part = this.openApproval(toolCallId);
    part.state = "approval-responded";
    part.approval = {
      ...part.approval,
      id: approvalId ?? part.approval?.id ?? "",
      approved,
      ...(reason === undefined ? {} : { reason }),
    };
    const answered = this.messages.find((message) => message.parts.includes(part as never));
    await this.request(answered === this.messages.at(-1) ? undefined : answered?.id);
  }

  /** Sends the conversation as it stands (after a test edited its parts by hand). */
  send(): Promise<void> {
    return this.request();
  }

  /** The codemode part waiting for an answer (of tool call `toolCallId`, else the first one). */
  openApproval(toolCallId?: string): CodemodePart {
    const part = this.codemodeParts().find(
      (candidate) =>
        candidate.state === "approval-requested" && (toolCallId === undefined || candidate.toolCallId === toolCallId),
    );
    if (part === undefined) throw new Error(`no open approval; parts: ${JSON.stringify(this.codemodeParts())}`);
    return part;
  }

  codemodeParts(): CodemodePart[] {
    return this.messages.flatMap((message) =>
      message.parts.filter((part): part is never => part.type === "tool-codemode").map((part) => part as CodemodePart),
    );
  }

  lastText(): string {
    const last = this.messages.at(-1);
    const texts = last?.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])) ?? [];
    return texts.at(-1) ?? "";
  }

  private async request(messageId?: string): Promise<void> {
    const sent = structuredClone(this.messages);
    // Over the wire as useChat's transport gets it: SSE, parsed and validated against the chunk schema.
    const response = createUIMessageStreamResponse({ stream: this.route(sent, messageId) });
    if (response.body === null) throw new Error("the route returned no body");
    const chunks: UIMessageChunk[] = [];
    for (const parsed of await readAll(parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }))) {
      if (!parsed.success) throw parsed.error;
      chunks.push(parsed.value);
    }
    this.chunks = chunks;
    const errors = chunks.filter((chunk) => chunk.type === "error");
    if (errors.length > 0) throw new Error(`the route streamed errors: ${JSON.stringify(errors)}`);
    // The message the response continues: the one answered (useChat's `messageId`), else the last assistant message.
    const index =
      messageId === undefined ? this.messages.length - 1 : this.messages.findIndex((m) => m.id === messageId);
    const target = this.messages[index];
    const continuing = target?.role === "assistant" ? structuredClone(target) : undefined;
    let message: UIMessage | undefined;
    const replay = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    for await (const snapshot of readUIMessageStream({
      ...(continuing === undefined ? {} : { message: continuing }),
      stream: replay,
      terminateOnError: true,
    })) {
      message = snapshot;
    }
    if (message === undefined) return;
    if (continuing !== undefined) this.messages[index] = message;
    else this.messages.push(message);
  }
}
