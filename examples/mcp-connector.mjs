// An MCP server's tools as a connector: `await mcpClient.tools()` from @ai-sdk/mcp.
//   node examples/mcp-connector.mjs
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { createCodemodeRuntime } from "ai-codemode";
import { show } from "./shared.mjs";

const require = createRequire(import.meta.url);
const memoryFile = join(mkdtempSync(join(tmpdir(), "codemode-mcp-")), "memory.jsonl");
const client = await createMCPClient({
  transport: new Experimental_StdioMCPTransport({
    command: process.execPath,
    args: [require.resolve("@modelcontextprotocol/server-memory/dist/index.js")],
    env: { ...process.env, MEMORY_FILE_PATH: memoryFile },
    stderr: "ignore",
  }),
});
const runtime = createCodemodeRuntime({ store: ":memory:", connectors: { memory: await client.tools() } });
show(
  "search",
  (await runtime.search("create entities")).results.slice(0, 3).map((hit) => hit.path),
);
const output = await runtime.execute({
  code: `async () => {
    await memory.create_entities({ entities: [{ name: "ada", entityType: "person", observations: ["likes tea"] }] });
    const found = await memory.search_nodes({ query: "tea" });
    return found.entities.map((entity) => entity.name);
  }`,
});
show("output", output);
await runtime.close();
await client.close();
