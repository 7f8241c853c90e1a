import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from "@ai-sdk/provider";

/**
 * The Workflow SDK's serialization symbols (`@workflow/serde`): a model a `WorkflowAgent` hands to its model step
 * crosses the workflow/step boundary, so its class says how to write it down and build it again. The builder of
 * `withWorkflow` registers the class by these static methods; the model has no state, so nothing is written.
 */
const WORKFLOW_SERIALIZE = Symbol.for("workflow-serialize");
const WORKFLOW_DESERIALIZE = Symbol.for("workflow-deserialize");

/**
 * The offline model used when OPENAI_API_KEY is unset. It reads the conversation like a
 * model would: a user message asking to merge pull requests becomes a `codemode` call over
 * the namespaces the SDK announced (the routed tools, `tools.*`, in an announcement message, or in the
 * description of the `codemode` tool the `/workflow` chat gives it); a codemode result becomes
 * a short answer. It keeps no state, so it works across restarts and crosses a workflow's step boundary.
 */
export class ScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "scripted";
  readonly modelId = "scripted-codemode";
  readonly supportedUrls = {};

  static [WORKFLOW_SERIALIZE](_model: ScriptedModel): Record<string, never> {
    return {};
  }

  static [WORKFLOW_DESERIALIZE](_data: Record<string, never>): ScriptedModel {
    return new ScriptedModel();
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return { stream: streamOf(reply(options)) };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const answer = reply(options);
    return {
      content:
        answer.kind === "text"
          ? [{ type: "text", text: answer.text }]
          : [
              {
                type: "tool-call",
                toolCallId: `call_${crypto.randomUUID()}`,
                toolName: "codemode",
                input: JSON.stringify({ code: answer.code }),
              },
            ],
      finishReason:
        answer.kind === "text" ? { unified: "stop", raw: "stop" } : { unified: "tool-calls", raw: "tool_calls" },
      usage: USAGE,
      warnings: [],
    };
  }
}

/** The scripted model (see {@link ScriptedModel}). */
export function createScriptedModel(): ScriptedModel {
  return new ScriptedModel();
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

/** The namespaces the model was told about: an announcement message, or the `codemode` tool's description. */
function announced({ prompt, tools }: LanguageModelV4CallOptions): boolean {
  const codemode = tools?.find((candidate) => candidate.name === "codemode");
  const described = codemode !== undefined && "description" in codemode ? (codemode.description ?? "") : "";
  return [...prompt.map((message) => announcement(message) ?? ""), described].some((text) => /^- tools: /m.test(text));
}

function reply(options: LanguageModelV4CallOptions): Reply {
  const { prompt } = options;
  const last = prompt.filter((message) => announcement(message) === undefined).at(-1);
  if (last?.role === "tool") return { kind: "text", text: summarise(last.content) };
  const userText =
    last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join(" ") : "";
  const numbers = [...userText.matchAll(/\b(\d{1,5})\b/g)].map((match) => Number(match[1]));
  // Like a model, it writes programs only over the namespaces it was told about (a line "- tools: …").
  if (!announced(options)) {
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
    kind?: string;
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
  // A rejection the program's workflow step read from the journal (the `/workflow` chat): the outcome, not a denial.
  if (value.status === "error" && value.kind === "rejected") return `Nothing more was merged: ${value.error}`;
  return `The program did not finish: ${value.error ?? JSON.stringify(value)}`;
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

function streamOf(reply: Reply): ReadableStream<LanguageModelV4StreamPart> {
  const usage = USAGE;
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
