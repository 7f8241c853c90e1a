/**
 * Definition stability (issue 24): the bytes of the `codemode` tool definition a provider receives in two requests
 * that route different tool sets to it, before (a plain tool over the routed tools, `codemodeTool({ tools })`) and
 * after (`codemodeTool()` as an AI SDK tool caller, the namespaces announced by `prepareModelMessage`). The
 * definitions are taken from what `MockLanguageModelV4` receives through `generateText`, exactly as a provider
 * would get them. Also: what building the tool costs per request, both ways (a route builds it per request).
 *
 * Run: `npm run bench -- definition`.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { generateText, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { codemodeTool } from "../src/ai/codemode-tool.js";
import { NAMESPACE_ANNOUNCEMENT_HEADING } from "../src/ai/tool-description.js";
import { syntheticToolSets } from "./synthetic-tools.js";

const ROUNDS = 30;

function textModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text: "ok" }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

interface Sent {
  definition: string;
  announcement: string;
}

function sentOf(call: LanguageModelV4CallOptions | undefined): Sent {
  const definition = JSON.stringify((call?.tools ?? []).find((tool) => tool.name === "codemode") ?? null);
  const announcement =
    (call?.prompt ?? [])
      .flatMap((message) =>
        message.role === "user" ? message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])) : [],
      )
      .find((text) => text.startsWith(NAMESPACE_ANNOUNCEMENT_HEADING)) ?? "";
  return { definition, announcement };
}

async function request({ routed, caller, store }: { routed: ToolSet; caller: boolean; store: string }): Promise<Sent> {
  const model = textModel();
  if (caller) {
    await generateText({
      model,
      tools: { ...routed, codemode: codemodeTool({ store }) },
      experimental_toolCallers: Object.fromEntries(Object.keys(routed).map((name) => [name, ["codemode"]])),
      prompt: "go",
    });
  } else {
    await generateText({ model, tools: { codemode: codemodeTool({ store, tools: routed }) }, prompt: "go" });
  }
  return sentOf(model.doGenerateCalls[0]);
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Per request: build the tool and give the SDK what it sends (the definition; for the caller, bind and announce). */
function buildCost({ routed, caller, store }: { routed: ToolSet; caller: boolean; store: string }): number {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    if (caller) {
      const definition = codemodeTool({ store }).experimental_toolCaller;
      if (definition.type === "local") {
        definition.bind(routed);
        definition.prepareModelMessage?.(routed);
      }
    } else {
      void codemodeTool({ store, tools: routed }).description;
    }
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function run(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-definition-"));
  const store = `file:${join(folder, "codemode.db")}`;
  try {
    const sets = syntheticToolSets(100);
    const crm = sets["crm"] ?? {};
    const billing = Object.fromEntries(Object.entries(sets["billing"] ?? {}).slice(0, 5));
    const requests: Array<[label: string, routed: ToolSet]> = [
      [`request 1: ${Object.keys(crm).length} crm tools`, crm],
      [`request 2: ${Object.keys(billing).length} billing tools`, billing],
    ];
    const rows: string[] = [];
    const identical: Record<string, boolean> = {};
    for (const [wiring, caller] of [
      ["before: `codemodeTool({ tools })`", false],
      ["after: `codemodeTool()` tool caller", true],
    ] as const) {
      const sent: Sent[] = [];
      for (const [label, routed] of requests) {
        const one = await request({ routed, caller, store });
        sent.push(one);
        rows.push(
          `| ${wiring} | ${label} | ${bytes(one.definition)} | \`${digest(one.definition)}\` | ${countTokens(one.definition)} | ` +
            `${one.announcement === "" ? "—" : `${bytes(one.announcement)} B, ${countTokens(one.announcement)} tokens, \`${digest(one.announcement)}\``} |`,
        );
      }
      identical[wiring] = sent[0]?.definition === sent[1]?.definition;
    }
    const costs = requests.map(([label, routed]) => {
      const plain = buildCost({ routed, caller: false, store });
      const bound = buildCost({ routed, caller: true, store });
      return `| ${label} | ${plain.toFixed(2)} ms | ${bound.toFixed(2)} ms |`;
    });
    return [
      "## Tool definition stability (tool callers, issue 24)",
      "",
      "The `codemode` definition (name, description, input schema) exactly as `generateText` hands it to the provider",
      "(`MockLanguageModelV4`'s call options), in two requests routing different tool sets to codemode. Before, the",
      "description lists the namespaces, so the definition changes with the tool set and a provider's prompt cache",
      "(which keys on the tool definitions) starts over; after, the definition is fixed and the namespaces travel in a",
      'message the SDK appends to the conversation (`prepareModelMessage`). With few tools, `inlineTypes: "auto"` puts',
      "their declarations in the description before, in the message after.",
      "",
      "| wiring | request | definition bytes | sha-256 | definition tokens (o200k) | announcement message |",
      "|---|---|---:|---|---:|---|",
      ...rows,
      "",
      ...Object.entries(identical).map(
        ([wiring, same]) => `- ${wiring}: the two definitions are ${same ? "byte-identical" : "different"}.`,
      ),
      "",
      `Building the tool per request (median of ${ROUNDS}, a new tool each time as a route handler does; the caller`,
      "binds the routed tools and builds the announcement, which the SDK does once per request and reuses for the",
      "request's later steps):",
      "",
      "| routed tools | `codemodeTool({ tools })` + description | `codemodeTool()` + bind + announcement |",
      "|---|---:|---:|",
      ...costs,
    ].join("\n");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
