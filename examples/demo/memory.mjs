// A real MCP server from npm (@modelcontextprotocol/server-memory, a knowledge graph) over stdio.
import { createRequire } from "node:module";
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

const require = createRequire(import.meta.url);

/** Starts the memory server with its graph in `memoryFile` and returns the MCP client. */
export async function openMemory({ memoryFile }) {
  const server = require.resolve("@modelcontextprotocol/server-memory/dist/index.js");
  return createMCPClient({
    transport: new Experimental_StdioMCPTransport({
      command: process.execPath,
      args: [server],
      env: { ...process.env, MEMORY_FILE_PATH: memoryFile },
      stderr: "ignore",
    }),
  });
}

/** Seeds who owns what, so the program has something to look up. */
export async function seedMemory(client) {
  const tools = await client.tools();
  const options = { toolCallId: "seed", messages: [] };
  await tools.create_entities.execute(
    {
      entities: [
        { name: "ada", entityType: "person", observations: ["Owns billing", "On call this week"] },
        { name: "grace", entityType: "person", observations: ["Owns the web UI"] },
        { name: "billing", entityType: "area", observations: ["Invoices, cards, refunds"] },
      ],
    },
    options,
  );
  await tools.create_relations.execute({ relations: [{ from: "ada", to: "billing", relationType: "owns" }] }, options);
}
