import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";

/**
 * The offline model used when OPENAI_API_KEY is unset. It reads the conversation like a
 * model would: a user message asking to merge pull requests becomes a `codemode` call over
 * the namespaces the SDK announced (the routed tools, `tools.*`); a codemode result becomes
 * a short answer. It keeps no state, so it works across restarts.
 */
export function createScriptedModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "scripted",
    modelId: "scripted-codemode",
    doStream: async (options) => ({ stream: streamOf(reply(options)) }),
  });
}

type Reply = { kind: "text"; text: string } | { kind: "codemode"; code: string };

/**
 * The first words of the message the AI SDK adds for the codemode tool caller (its `prepareModelMessage`): the
 * namespaces and methods programs can call. Context for the model, not something the person asked.
 */
const ANNOUNCEMENT = "Code Mode namespaces";

function announcement(message: LanguageModelV4CallOptions["prompt"][number]): string | undefined {
  if (message.role !== "user") return undefined;
  const [first] = message.content;
  return first?.type === "text" && first.text.startsWith(ANNOUNCEMENT) ? first.text : undefined;
}

function reply({ prompt }: LanguageModelV4CallOptions): Reply {
  const last = prompt.filter((message) => announcement(message) === undefined).at(-1);
  if (last?.role === "tool") return { kind: "text", text: summarise(last.content) };
  const userText =
    last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join(" ") : "";
  const numbers = [...userText.matchAll(/\b(\d{1,5})\b/g)].map((match) => Number(match[1]));
  // Like a model, it writes programs only over the namespaces it was told about (a line "- tools: …").
  if (!prompt.some((message) => /^- tools: /m.test(announcement(message) ?? ""))) {
    return { kind: "text", text: "No Code Mode namespaces were announced: I cannot write a program." };
  }
  const repositories = /open pull requests of (\d{1,4}) repositories/i.exec(userText);
  if (repositories !== null) return { kind: "codemode", code: counting(Number(repositories[1])) };
  if (/review/i.test(userText) && /merge/i.test(userText) && numbers.length > 0) {
    return { kind: "codemode", code: reviewingThenMerging(numbers) };
  }
  if (/review/i.test(userText)) return { kind: "codemode", code: REVIEW };
  const sponsor = /sponsor (\w+) with \$?(\d{1,5})/i.exec(userText);
  if (sponsor !== null) return { kind: "codemode", code: sponsoring(sponsor[1] ?? "", Number(sponsor[2])) };
  if (/close/i.test(userText) && numbers.length > 0) return { kind: "codemode", code: closing(numbers) };
  if (/merge/i.test(userText) && /at once|together/i.test(userText) && numbers.length > 0) {
    return { kind: "codemode", code: mergingTogether(numbers) };
  }
  if (!/merge/i.test(userText) || numbers.length === 0) {
    return { kind: "text", text: 'I can merge pull requests of acme/web. Try: "Merge pull request 42".' };
  }
  return {
    kind: "codemode",
    code: [
      "async () => {",
      '  const open = await tools.list_pull_requests({ repo: "acme/web" });',
      '  console.log(`open pull requests: ${open.map((pr) => "#" + pr.number).join(", ")}`);',
      "  const merged = [];",
      `  for (const number of ${JSON.stringify(numbers)}) {`,
      '    const result = await tools.merge_pull_request({ repo: "acme/web", number });',
      "    console.log(`merged #${number} as ${result.sha}`);",
      "    merged.push(result);",
      "  }",
      "  return { merged };",
      "}",
    ].join("\n"),
  };
}

const REVIEW = [
  "async () => {",
  '  const open = await tools.list_pull_requests({ repo: "acme/web" });',
  "  const reviewed = [];",
  "  for (const pr of open) {",
  '    const detail = await tools.get_pull_request({ repo: "acme/web", number: pr.number });',
  "    console.log(`#${pr.number}: checks ${detail.checks}`);",
  "    reviewed.push({ number: pr.number, checks: detail.checks });",
  "  }",
  "  return { reviewed };",
  "}",
].join("\n");

/** Reads every pull request (slow calls, shown live), then merges the ones asked for (each waits for approval). */
function reviewingThenMerging(numbers: number[]): string {
  return [
    "async () => {",
    '  const open = await tools.list_pull_requests({ repo: "acme/web" });',
    "  for (const pr of open) {",
    '    const detail = await tools.get_pull_request({ repo: "acme/web", number: pr.number });',
    "    console.log(`#${pr.number}: checks ${detail.checks}`);",
    "  }",
    "  const merged = [];",
    `  for (const number of ${JSON.stringify(numbers)}) {`,
    '    merged.push(await tools.merge_pull_request({ repo: "acme/web", number }));',
    "  }",
    "  return { merged };",
    "}",
  ].join("\n");
}

/** One call per repository: a long run of quick calls (the chat shows them as they stream). */
function counting(repositories: number): string {
  return [
    "async () => {",
    "  let open = 0;",
    `  for (let i = 1; i <= ${repositories}; i++) {`,
    "    const prs = await tools.list_pull_requests({ repo: `acme/repo-${i}` });",
    "    open += prs.length;",
    "  }",
    `  console.log(\`\${open} open pull requests in ${repositories} repositories\`);`,
    `  return { repositories: ${repositories}, open };`,
    "}",
  ].join("\n");
}

function sponsoring(login: string, amount: number): string {
  return [
    "async () => {",
    `  const payment = await sponsors.sponsor_contributor({ login: ${JSON.stringify(login)}, amount: ${amount} });`,
    "  return { sponsored: payment };",
    "}",
  ].join("\n");
}

function closing(numbers: number[]): string {
  return [
    "async () => {",
    "  const closed = [];",
    `  for (const number of ${JSON.stringify(numbers)}) {`,
    '    closed.push(await tools.close_pull_request({ repo: "acme/web", number }));',
    "  }",
    "  return { closed };",
    "}",
  ].join("\n");
}

function mergingTogether(numbers: number[]): string {
  return [
    "async () => {",
    "  const settled = await Promise.allSettled(",
    `    ${JSON.stringify(numbers)}.map((number) => tools.merge_pull_request({ repo: "acme/web", number })),`,
    "  );",
    '  const merged = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);',
    `  const refused = ${JSON.stringify(numbers)}.filter((_, i) => settled[i].status === "rejected");`,
    "  return { merged, refused };",
    "}",
  ].join("\n");
}

function summarise(content: Array<{ type: string; output?: unknown }>): string {
  const result = content.find((part) => part.type === "tool-result");
  const output = (result?.output ?? {}) as { type?: string; value?: unknown; reason?: string };
  if (output.type === "error-text" || output.type === "execution-denied") {
    const denial = String(output.value ?? output.reason ?? "the call was not approved");
    // The denial lists the calls that had already run ("… (call N)"); the rejected one is "(call N of execution …)".
    const merged = [...denial.matchAll(/merge_pull_request\(\{[^)]*"number":(\d+)\}\) \(call \d+\)/g)].map(
      (match) => `#${match[1]}`,
    );
    const before = merged.length === 0 ? "" : `Merged before the rejection: ${merged.join(" and ")}. `;
    return `${before}Nothing more was merged: ${denial}`;
  }
  const value = (output.value ?? {}) as {
    status?: string;
    result?: {
      merged?: Array<{ number: number; sha: string }>;
      refused?: number[];
      reviewed?: Array<{ number: number; checks: string }>;
      closed?: Array<{ number: number }>;
      sponsored?: { login: string; amount: number };
      repositories?: number;
      open?: number;
    };
    error?: string;
    /** Calls a person approved with changed arguments (the codemode output names them with both sets). */
    edited?: Array<{ method: string; programArgs: { amount?: number }; ranWithArgs: { amount?: number } }>;
  };
  if (value.status === "completed" && value.result?.sponsored !== undefined) {
    const { login, amount } = value.result.sponsored;
    // Like a model reading `editedMessage`: the change was the person's, so it is reported, not undone.
    const edit = value.edited?.find((call) => call.method === "sponsor_contributor");
    const changed =
      edit === undefined
        ? ""
        : ` The approver changed the amount: the program asked for $${edit.programArgs.amount}, it ran with $${edit.ranWithArgs.amount}.`;
    return `Sponsored ${login} with $${amount}.${changed}`;
  }
  if (value.status === "completed" && value.result?.repositories !== undefined) {
    return `Counted ${value.result.open} open pull requests in ${value.result.repositories} repositories.`;
  }
  if (value.status === "completed" && value.result?.reviewed !== undefined) {
    return `Reviewed ${value.result.reviewed.map((pr) => `#${pr.number} (${pr.checks})`).join(", ")}.`;
  }
  if (value.status === "completed" && value.result?.closed !== undefined) {
    return `Closed ${value.result.closed.map((pr) => `#${pr.number}`).join(" and ")}.`;
  }
  if (value.status === "completed") {
    const merged = value.result?.merged ?? [];
    const refused = value.result?.refused ?? [];
    const refusedText =
      refused.length === 0 ? "" : ` Not merged (rejected): ${refused.map((number) => `#${number}`).join(", ")}.`;
    return `Done. Merged ${merged.map((pr) => `#${pr.number} (${pr.sha})`).join(" and ")}.${refusedText}`;
  }
  return `The program did not finish: ${value.error ?? JSON.stringify(value)}`;
}

function streamOf(reply: Reply): ReadableStream<LanguageModelV4StreamPart> {
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
  const parts: LanguageModelV4StreamPart[] =
    reply.kind === "text"
      ? [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: reply.text },
          { type: "text-end", id: "t" },
          { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
        ]
      : [
          { type: "stream-start", warnings: [] },
          {
            type: "tool-call",
            toolCallId: `call_${crypto.randomUUID()}`,
            toolName: "codemode",
            input: JSON.stringify({ code: reply.code }),
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
