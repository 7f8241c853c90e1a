/**
 * Regenerates `bench/search-data/mcp-tools.json`: the tool lists (name, description, input
 * schema) of twelve real MCP servers from npm, read by connecting to each over stdio with
 * `@modelcontextprotocol/sdk`'s client. The search evaluation (`bench/search.ts`) reads the
 * committed snapshot, so it is deterministic and needs no server installed.
 *
 * Run: install the servers outside the project (exact versions below), then
 *   mkdir -p /tmp/mcp-servers && cd /tmp/mcp-servers && npm init -y >/dev/null &&
 *   npm install -E --ignore-scripts <every "package@version" in SERVERS>
 *   node --import tsx bench/search-fixture.ts /tmp/mcp-servers
 * (`--ignore-scripts`: puppeteer's browser download is not needed to list its tools. server-redis is left
 * out: it exits when no Redis answers.)
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

interface Server {
  /** Namespace in the evaluation. */
  name: string;
  packageName: string;
  version: string;
  args?: string[];
  /** Placeholder credentials: the servers check they are set, listing tools calls nothing. */
  env?: Record<string, string>;
}

export const SERVERS: Server[] = [
  { name: "filesystem", packageName: "@modelcontextprotocol/server-filesystem", version: "2026.8.31", args: ["<tmp>"] },
  {
    name: "github",
    packageName: "@modelcontextprotocol/server-github",
    version: "2025.4.8",
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: "x" },
  },
  {
    name: "gitlab",
    packageName: "@modelcontextprotocol/server-gitlab",
    version: "2025.4.25",
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: "x" },
  },
  {
    name: "slack",
    packageName: "@modelcontextprotocol/server-slack",
    version: "2025.4.25",
    env: { SLACK_BOT_TOKEN: "x", SLACK_TEAM_ID: "x" },
  },
  {
    name: "maps",
    packageName: "@modelcontextprotocol/server-google-maps",
    version: "0.6.2",
    env: { GOOGLE_MAPS_API_KEY: "x" },
  },
  {
    name: "postgres",
    packageName: "@modelcontextprotocol/server-postgres",
    version: "0.6.2",
    args: ["postgresql://127.0.0.1:1/x"],
  },
  { name: "browser", packageName: "@modelcontextprotocol/server-puppeteer", version: "2025.5.12" },
  {
    name: "everart",
    packageName: "@modelcontextprotocol/server-everart",
    version: "0.6.2",
    env: { EVERART_API_KEY: "x" },
  },
  {
    name: "brave",
    packageName: "@modelcontextprotocol/server-brave-search",
    version: "0.6.2",
    env: { BRAVE_API_KEY: "x" },
  },
  {
    name: "memory",
    packageName: "@modelcontextprotocol/server-memory",
    version: "2026.8.31",
    env: { MEMORY_FILE_PATH: "<tmp>/m.jsonl" },
  },
  { name: "thinking", packageName: "@modelcontextprotocol/server-sequential-thinking", version: "2026.8.31" },
  { name: "everything", packageName: "@modelcontextprotocol/server-everything", version: "2026.8.31" },
];

interface ToolSnapshot {
  name: string;
  description?: string;
  inputSchema: unknown;
}

async function listTools(server: Server, installDir: string, scratch: string): Promise<ToolSnapshot[]> {
  const fill = (text: string): string => text.replace("<tmp>", scratch);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(installDir, "node_modules", server.packageName, "dist", "index.js"), ...(server.args ?? []).map(fill)],
    env: {
      PATH: process.env["PATH"] ?? "",
      ...Object.fromEntries(Object.entries(server.env ?? {}).map(([k, v]) => [k, fill(v)])),
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "codemode-search-fixture", version: "1" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: tool.inputSchema,
    }));
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const installDir = process.argv[2];
  if (installDir === undefined)
    throw new Error("usage: node --import tsx bench/search-fixture.ts <dir where the servers are installed>");
  const scratch = mkdtempSync(join(tmpdir(), "codemode-search-fixture-"));
  try {
    const servers = [];
    for (const server of SERVERS) {
      const tools = await listTools(server, installDir, scratch);
      process.stderr.write(`${server.packageName}@${server.version}: ${tools.length} tools\n`);
      servers.push({ name: server.name, package: `${server.packageName}@${server.version}`, tools });
    }
    const out = fileURLToPath(new URL("./search-data/mcp-tools.json", import.meta.url));
    writeFileSync(out, `${JSON.stringify({ servers }, null, 1)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
