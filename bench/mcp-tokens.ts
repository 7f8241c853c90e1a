/**
 * MCP tool lists in o200k tokens: what a host pays on every request for the upstream servers'
 * tool lists side by side with the code-mode proxy's one list (`ai-codemode mcp --proxy`), for two
 * real servers from npm (server-memory, server-everything, started for real) and for the twelve
 * servers of `search-data/mcp-tools.json` (their recorded lists replayed by `static-mcp-server.mjs`;
 * recorded without annotations, so their real lists are a little larger). Then the discovery-tool
 * choices of the codemode server: its list with and without `codemode_search`/`codemode_describe`,
 * with declarations inlined, and what one discovery round costs through the tools vs inside a program.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCodemodeMcpServer } from "../src/mcp/create-codemode-mcp-server.js";
import type { CodemodeMcpServerOptions } from "../src/mcp/mcp-server-options.js";
import { createCodemodeMcpProxy, type CodemodeMcpProxy } from "../src/mcp/proxy/create-codemode-mcp-proxy.js";
import type { UpstreamConfig } from "../src/mcp/proxy/proxy-config.js";

const STATIC_SERVER = fileURLToPath(new URL("./static-mcp-server.mjs", import.meta.url));

/** Tokens of a tool list: as `tools/list` gives it (compact JSON), and as a host sends it to the model. */
interface ListTokens {
  listed: number;
  /** Name, description and input schema of each tool (what hosts forward; titles, annotations and output schemas stay in the host). */
  model: number;
}

async function listTokens(client: Client): Promise<ListTokens> {
  const { tools } = await client.listTools();
  return {
    listed: countTokens(JSON.stringify(tools)),
    model: countTokens(
      JSON.stringify(
        tools.map((tool) => ({ name: tool.name, description: tool.description ?? "", input_schema: tool.inputSchema })),
      ),
    ),
  };
}

async function upstreamTokens(servers: Record<string, UpstreamConfig>): Promise<{ tools: number; tokens: ListTokens }> {
  let tools = 0;
  const tokens = { listed: 0, model: 0 };
  for (const config of Object.values(servers)) {
    if (!("command" in config)) throw new Error("stdio servers only");
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { PATH: process.env["PATH"] ?? "", ...config.env },
        stderr: "ignore",
      }),
    );
    try {
      tools += (await client.listTools()).tools.length;
      const list = await listTokens(client);
      tokens.listed += list.listed;
      tokens.model += list.model;
    } finally {
      await client.close();
    }
  }
  return { tools, tokens };
}

/** A client of a codemode MCP server over `proxy` with `options`, in memory. */
async function codemodeClient(
  proxy: CodemodeMcpProxy,
  options: Partial<CodemodeMcpServerOptions> = {},
): Promise<Client> {
  const server = createCodemodeMcpServer({ runtime: proxy.runtime, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "1" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

function text(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content.map((part) => part.text).join("");
}

/** One discovery round (search, then describe the top hit) through the tools, and inside one program. */
async function discoveryRound(client: Client, query: string): Promise<{ tools: number; inCode: number }> {
  const searchArgs = { query };
  const found = text(await client.callTool({ name: "codemode_search", arguments: searchArgs }));
  const top = (JSON.parse(found) as { results: Array<{ path: string }> }).results[0]?.path ?? "";
  const describeArgs = { target: top };
  const described = text(await client.callTool({ name: "codemode_describe", arguments: describeArgs }));
  const viaTools =
    countTokens(JSON.stringify(searchArgs)) +
    countTokens(found) +
    countTokens(JSON.stringify(describeArgs)) +
    countTokens(described);
  const code = `async () => { const found = await codemode.search(${JSON.stringify(query)}); return { found, types: (await codemode.describe(found.results[0].path)).types }; }`;
  const inCode = text(await client.callTool({ name: "codemode", arguments: { code } }));
  return { tools: viaTools, inCode: countTokens(JSON.stringify({ code })) + countTokens(inCode) };
}

interface ProxyRow {
  label: string;
  servers: number;
  tools: number;
  upstream: ListTokens;
  proxy: ListTokens;
}

async function proxyRow(
  label: string,
  servers: Record<string, UpstreamConfig>,
  store: string,
): Promise<{ row: ProxyRow; proxy: CodemodeMcpProxy }> {
  const upstream = await upstreamTokens(servers);
  const proxy = createCodemodeMcpProxy({ servers, runtime: { store }, stderr: "ignore" });
  const client = await codemodeClient(proxy);
  const row = {
    label,
    servers: Object.keys(servers).length,
    tools: upstream.tools,
    upstream: upstream.tokens,
    proxy: await listTokens(client),
  };
  await client.close();
  return { row, proxy };
}

function saved(part: number, whole: number): string {
  return `${(100 * (1 - part / whole)).toFixed(1)}%`;
}

/** The `### MCP` part of the tokens section. */
export async function mcpTokensSection(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-mcp-"));
  const proxies: CodemodeMcpProxy[] = [];
  try {
    const two: Record<string, UpstreamConfig> = {
      memory: {
        command: process.execPath,
        args: ["node_modules/@modelcontextprotocol/server-memory/dist/index.js"],
        env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
      },
      everything: {
        command: process.execPath,
        args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
      },
    };
    const { servers: recorded } = JSON.parse(
      readFileSync(new URL("./search-data/mcp-tools.json", import.meta.url), "utf8"),
    ) as {
      servers: Array<{ name: string }>;
    };
    const twelve = Object.fromEntries(
      recorded.map((server) => [server.name, { command: process.execPath, args: [STATIC_SERVER, server.name] }]),
    );
    const small = await proxyRow(
      "server-memory + server-everything (real, started)",
      two,
      `file:${join(folder, "a.db")}`,
    );
    const large = await proxyRow(
      "12 servers of search-data/mcp-tools.json (recorded lists)",
      twelve,
      `file:${join(folder, "b.db")}`,
    );
    proxies.push(small.proxy, large.proxy);

    const choices: string[] = [];
    for (const [label, proxy] of [
      ["2 servers", small.proxy],
      ["12 servers", large.proxy],
    ] as const) {
      const sizes: string[] = [];
      for (const options of [
        { discoveryTools: false },
        { discoveryTools: true },
        { discoveryTools: false, inlineTypes: true },
        { discoveryTools: true, inlineTypes: false },
      ] satisfies Array<Partial<CodemodeMcpServerOptions>>) {
        const client = await codemodeClient(proxy, options);
        const list = await listTokens(client);
        sizes.push(`${list.model} (${list.listed})`);
        await client.close();
      }
      const client = await codemodeClient(proxy);
      const round = await discoveryRound(client, label === "2 servers" ? "delete an entity" : "create a pull request");
      await client.close();
      choices.push(`| ${label} | ${sizes.join(" | ")} | ${round.tools} | ${round.inCode} |`);
    }
    const rows = [small.row, large.row].map(
      (row) =>
        `| ${row.label} | ${row.servers} | ${row.tools} | ${row.upstream.model} | ${row.proxy.model} | ${saved(row.proxy.model, row.upstream.model)} ` +
        `| ${row.upstream.listed} | ${row.proxy.listed} | ${saved(row.proxy.listed, row.upstream.listed)} |`,
    );
    return [
      "### MCP hosts: the upstream servers' tool lists vs the code-mode proxy's",
      "",
      "The upstream servers' `tools/list` results summed, beside the one list of `ai-codemode mcp --proxy` in front of them",
      "(default tools: `codemode`, `codemode_search`, `codemode_describe`, `codemode_outcome`). _To the model_: each tool's",
      "name, description and input schema, what a host sends with every model request. _Listed_: the whole `tools/list`",
      "JSON (titles, annotations, output schemas too), what the host receives.",
      "",
      "| upstream servers | servers | tools | upstream, to the model | proxy, to the model | saved | upstream, listed | proxy, listed | saved |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows,
      "",
      "Discovery-tool choices: the proxy's list to the model (listed in parentheses), and one discovery round (search, describe",
      "the top hit) through the two tools (arguments + results) vs inside one `codemode` program (the program + its JSON result).",
      "",
      "| proxy over | codemode + outcome | + search + describe (default) | codemode + outcome, types inlined | + search + describe, `inlineTypes: false` | round via tools | round in a program |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...choices,
    ].join("\n");
  } finally {
    for (const proxy of proxies) await proxy.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
