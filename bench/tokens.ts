/**
 * Context cost: o200k tokens of the `codemode` tool (its description and input
 * schema) plus a typical discovery round (one `codemode.search`, two
 * `codemode.describe` of methods) versus passing the same tools to the model
 * directly (each tool's name, description and JSON Schema, in the function
 * format providers send). Synthetic tool sets of 10, 100 and 1,000 tools, the
 * GitHub REST API (every operation, through `openApiConnector`) and the
 * catalogs of two real MCP servers; then MCP hosts' tool lists, upstream servers vs the code-mode proxy
 * (`bench/mcp-tokens.ts`).
 *
 * Run: `node --import tsx bench/tokens.ts` (or through `bench/index.ts`).
 */
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CODEMODE_INPUT_JSON_SCHEMA } from "../src/ai/codemode-input-schema.js";
import { buildToolDescription } from "../src/ai/tool-description.js";
import { createCatalog } from "../src/connectors/search/catalog.js";
import { openApiConnector } from "../src/connectors/openapi/openapi-connector.js";
import { resolveConnector } from "../src/connectors/resolve-connector.js";
import type { Connector } from "../src/connectors/types.js";
import { mcpTokensSection } from "./mcp-tokens.js";
import { syntheticToolSets } from "./synthetic-tools.js";
import { githubOpenApiText } from "../test/connectors/fixtures/github-openapi.js";

interface Row {
  label: string;
  tools: number;
  direct: number;
  description: number;
  discovery: number;
  extraMethod: number;
}

/** Tokens of the tools sent directly: OpenAI-style function definitions, compact JSON. */
function directTokens(connectors: Record<string, Connector>, flatten: boolean): number {
  const definitions = Object.entries(connectors).flatMap(([namespace, connector]) =>
    Object.entries(connector.methods).map(([name, method]) => ({
      type: "function",
      function: {
        name: flatten ? `${namespace}_${name}` : name,
        description: method.description ?? "",
        parameters: method.inputSchema ?? { type: "object", properties: {} },
      },
    })),
  );
  return countTokens(JSON.stringify(definitions));
}

/** Tokens of the codemode tool as sent: its definition with the generated description. */
function codemodeToolTokens(connectors: Record<string, Connector>): number {
  const description = buildToolDescription({ connectors });
  return countTokens(
    JSON.stringify({
      type: "function",
      function: { name: "codemode", description, parameters: CODEMODE_INPUT_JSON_SCHEMA },
    }),
  );
}

/**
 * Tokens the model reads in a typical discovery round for one method: one
 * search (default limit) and one describe of the top hit; and the cost of
 * describing one more method (a task that needs a second method pays it once more).
 */
function discoveryTokens(
  connectors: Record<string, Connector>,
  query: string,
): { discovery: number; extraMethod: number } {
  const catalog = createCatalog({ connectors, snippets: [] });
  const found = catalog.search(query);
  const [first, second] = found.results.map((result) => countTokens(JSON.stringify(catalog.describe(result.path))));
  return { discovery: countTokens(JSON.stringify(found)) + (first ?? 0), extraMethod: second ?? 0 };
}

function measure(label: string, connectors: Record<string, Connector>, query: string, flatten: boolean): Row {
  const tools = Object.values(connectors).reduce((sum, connector) => sum + Object.keys(connector.methods).length, 0);
  return {
    label,
    tools,
    direct: directTokens(connectors, flatten),
    description: codemodeToolTokens(connectors),
    ...discoveryTokens(connectors, query),
  };
}

function resolveAll(sets: Record<string, unknown>): Record<string, Connector> {
  return Object.fromEntries(
    Object.entries(sets).map(([name, tools]) => [name, resolveConnector(name, tools as Connector)]),
  );
}

async function mcpRow(
  label: string,
  namespace: string,
  args: string[],
  query: string,
  env: Record<string, string> = {},
): Promise<Row> {
  const client = await createMCPClient({
    transport: new Experimental_StdioMCPTransport({
      command: process.execPath,
      args,
      env: { PATH: process.env["PATH"] ?? "", ...env },
      stderr: "ignore",
    }),
  });
  try {
    return measure(label, { [namespace]: resolveConnector(namespace, await client.tools()) }, query, false);
  } finally {
    await client.close();
  }
}

function percent(saved: number): string {
  return `${(saved * 100).toFixed(1)}%`;
}

/** Runs the token comparison and returns a markdown section. */
export async function run(): Promise<string> {
  const rows: Row[] = [];
  for (const count of [10, 100, 1000]) {
    rows.push(measure(`synthetic, ${count} tools`, resolveAll(syntheticToolSets(count)), "create customer", true));
  }
  const github = await openApiConnector({
    spec: JSON.parse(githubOpenApiText()) as object,
    baseUrl: "https://api.github.com",
  });
  rows.push(measure("GitHub REST (OpenAPI, real)", { github }, "list pull requests of a repository", false));
  const directory = mkdtempSync(join(tmpdir(), "codemode-bench-"));
  try {
    rows.push(
      await mcpRow(
        "MCP server-memory",
        "memory",
        ["node_modules/@modelcontextprotocol/server-memory/dist/index.js"],
        "add observations to an entity",
        {
          MEMORY_FILE_PATH: join(directory, "memory.jsonl"),
        },
      ),
    );
    rows.push(
      await mcpRow(
        "MCP server-everything",
        "everything",
        ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
        "sum two numbers",
      ),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const lines = [
    "## Context tokens (o200k): codemode vs passing tools directly",
    "",
    "Direct: every tool's name, description and JSON Schema as OpenAI-style function definitions (compact JSON).",
    "Codemode: the `codemode` tool definition (generated description + `{ code }` schema) plus a typical discovery round",
    "for one method (one `codemode.search` result list at the default limit, one `codemode.describe` of the top hit), as JSON.",
    '`+1 method`: one more `describe`, paid once per additional method a task needs. `inlineTypes: "auto"`.',
    "",
    "| catalog | tools | direct | codemode tool | + discovery | codemode total | saved | +1 method | saved with 2 methods |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    const total = row.description + row.discovery;
    lines.push(
      `| ${row.label} | ${row.tools} | ${row.direct} | ${row.description} | ${row.discovery} | ${total} | ${percent(1 - total / row.direct)} ` +
        `| ${row.extraMethod} | ${percent(1 - (total + row.extraMethod) / row.direct)} |`,
    );
  }
  lines.push("", "Targets: >= 95% saved at 100 tools, >= 99% at 1,000, the tool description alone < 1,000 tokens.");
  lines.push("", await mcpTokensSection());
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await run());
}
