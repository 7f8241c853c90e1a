// The model: a scripted MockLanguageModelV4 that writes codemode programs (offline), or a real
// OpenAI model when OPENAI_API_KEY is set.
import { MockLanguageModelV4 } from "ai/test";

export const DEMO_PROMPT =
  "Billing reports keep coming in. Find the open billing issues and who owns billing, " +
  "then file one tracking issue that lists them, assigned to the owner.";

const DISCOVER = `async () => {
  const found = await codemode.search("list issues create issue owner billing");
  return found.results.slice(0, 5).map((hit) => hit.path);
}`;

const DESCRIBE = `async () => {
  const create = await codemode.describe("tracker.create_issue");
  const search = await codemode.describe("memory.search_nodes");
  return create.types + "\\n" + search.types;
}`;

const ACT = `async () => {
  const open = await tracker.list_issues({ label: "billing", state: "open" });
  const graph = await memory.search_nodes({ query: "billing" });
  const owner = graph.entities.find((e) => e.entityType === "person")?.name;
  console.log(\`\${open.length} open billing issues; owner: \${owner}\`);
  const created = await tracker.create_issue({
    title: \`Billing: \${open.length} open reports need triage\`,
    body: open.map((issue) => \`- #\${issue.id} \${issue.title}\`).join("\\n"),
    labels: ["billing", "tracking"],
    assignee: owner,
  });
  return { created, linked: open.map((issue) => issue.id), owner };
}`;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

function lastCodemodeOutput(prompt) {
  const last = prompt.at(-1);
  if (last?.role !== "tool") return undefined;
  const part = last.content.findLast((candidate) => candidate.type === "tool-result");
  return part?.output?.type === "json" ? part.output.value : part?.output?.value;
}

function answer(output) {
  if (output?.status === "completed") {
    const { created, linked, owner } = output.result;
    return `Filed issue #${created.id} (${created.url}) tracking ${linked.map((id) => `#${id}`).join(", ")}, assigned to ${owner}.`;
  }
  if (output?.status === "error" && output.kind === "rejected") {
    return "The tracking issue was not filed: the request to create it was rejected. Nothing was changed.";
  }
  return `The run did not finish: ${output?.error ?? JSON.stringify(output)}`;
}

/** The scripted model: search, describe, act, then answer from the final codemode result. */
export function scriptedModel() {
  return new MockLanguageModelV4({
    provider: "demo",
    modelId: "scripted",
    doGenerate: async ({ prompt }) => {
      const toolResults = prompt.filter((message) => message.role === "tool").length;
      const code = [DISCOVER, DESCRIBE, ACT][toolResults];
      if (code !== undefined) {
        return {
          content: [
            {
              type: "tool-call",
              toolCallId: `call_${toolResults + 1}`,
              toolName: "codemode",
              input: JSON.stringify({ code }),
            },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: "text", text: answer(lastCodemodeOutput(prompt)) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
}

/** The real model when OPENAI_API_KEY is set, else the scripted one. */
export async function demoModel() {
  if (!process.env.OPENAI_API_KEY)
    return { model: scriptedModel(), label: "scripted mock model (set OPENAI_API_KEY for a real one)" };
  const { openai } = await import("@ai-sdk/openai");
  const id = process.env.OPENAI_MODEL ?? "gpt-5-mini";
  return { model: openai(id), label: `OpenAI ${id}` };
}
