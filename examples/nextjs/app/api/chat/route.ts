import { convertToModelMessages, createUIMessageStreamResponse, isStepCount, streamText, type UIMessage } from "ai";
import { createCodemodeChatStream, hasPausedCodemode } from "ai-codemode/ui";
import { getCodemodeRuntime } from "@/lib/codemode";
import { getModel } from "@/lib/model";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const system =
  "You help with the acme/web repository. Use the codemode tool: write one async arrow function that calls " +
  "github.list_pull_requests and github.merge_pull_request. When a call is rejected, do not retry it.";

export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: UIMessage[] };
  const codemode = getCodemodeRuntime();
  const tools = { codemode: codemode.tool() };
  const stream = createCodemodeChatStream({
    runtime: codemode,
    messages,
    respond: async ({ messages }) =>
      streamText({
        model: getModel(),
        system,
        tools,
        messages: await convertToModelMessages(messages, { tools }),
        stopWhen: [isStepCount(8), hasPausedCodemode()],
      }).toUIMessageStream(),
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
  return createUIMessageStreamResponse({ stream });
}
