// An MCP server over stdio that lists the tools one server of bench/search-data/mcp-tools.json
// recorded (name, description, input schema) and answers calls with an error: the token bench
// runs the code-mode proxy over twelve real servers' tool lists without installing them.
// Usage: node bench/static-mcp-server.mjs <server name>
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const name = process.argv[2];
const { servers } = JSON.parse(readFileSync(new URL("./search-data/mcp-tools.json", import.meta.url), "utf8"));
const recorded = servers.find((server) => server.name === name);
if (recorded === undefined) throw new Error(`no server ${name} in mcp-tools.json`);
const server = new Server({ name, version: "recorded" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: recorded.tools }));
server.setRequestHandler(CallToolRequestSchema, () => ({
  content: [{ type: "text", text: "recorded tool list only" }],
  isError: true,
}));
await server.connect(new StdioServerTransport());
