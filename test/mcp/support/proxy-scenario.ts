/**
 * The end-to-end scenario the stdio and HTTP tests share: a proxy config over two MCP servers
 * from npm (`server-memory`, `server-everything`), SDK clients with and without elicitation, and
 * the inspector a person uses (in this process, on the same store and servers) for the
 * no-elicitation path.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCodemodeInspector } from "../../../src/inspector/create-codemode-inspector.js";
import { createCodemodeMcpProxy, type CodemodeMcpProxy } from "../../../src/mcp/proxy/create-codemode-mcp-proxy.js";
import type { ProxyConfigFile } from "../../../src/mcp/proxy/proxy-config.js";

const modules = (path: string) => fileURLToPath(new URL(`../../../node_modules/${path}`, import.meta.url));
/** The built CLI, as `npx ai-codemode` runs it. */
export const CLI = fileURLToPath(new URL("../../../dist/cli.js", import.meta.url));

export { DEFAULT_TOOL_NAMES } from "./tool-names.js";

/** Writes `servers.json` in `folder` (memory + everything, the journal in the folder) and returns its path. */
export function writeProxyConfig(folder: string): { file: string; config: ProxyConfigFile } {
  const config: ProxyConfigFile = {
    mcpServers: {
      memory: {
        command: process.execPath,
        args: [modules("@modelcontextprotocol/server-memory/dist/index.js")],
        env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
      },
      everything: {
        command: process.execPath,
        args: [modules("@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
      },
    },
    store: `file:${join(folder, "codemode.db")}`,
  };
  const file = join(folder, "servers.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { file, config };
}

/** How the test's person answers an approval form. */
export type PersonAnswer = (params: {
  message: string;
  requestedSchema: { properties: Record<string, unknown> };
}) => ElicitResult;

/** Approves every call of the form. */
export const approveAll: PersonAnswer = (params) => ({
  action: "accept",
  content: Object.fromEntries(
    Object.keys(params.requestedSchema.properties)
      .filter((key) => key.startsWith("call_"))
      .map((key) => [key, "approve"]),
  ),
});

/** An SDK client on `transport`; with `person`, it declares elicitation and answers forms with it. */
export async function sdkClient(
  transport: Transport,
  person?: PersonAnswer,
): Promise<{ client: Client; forms: string[] }> {
  const forms: string[] = [];
  const client = new Client(
    { name: "e2e-host", version: "1.0.0" },
    person === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (person !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      forms.push(request.params.message);
      return person(request.params as never);
    });
  }
  await client.connect(transport);
  return { client, forms };
}

/** The structured content of a tool result. */
export function structured(result: unknown): Record<string, unknown> {
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

/** A program over both servers: a memory entity and a sum from server-everything. */
export const BOTH_SERVERS_PROGRAM = `async () => {
  await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["first programmer"] }] });
  const sum = await everything["get-sum"]({ a: 2, b: 3 });
  const graph = await memory.read_graph({});
  return { names: graph.entities.map((e) => e.name), sum };
}`;

/** Deletes Ada (memory's delete_entities is destructive: it pauses), then counts the entities left. */
export const DELETE_PROGRAM = `async () => {
  await memory.delete_entities({ entityNames: ["Ada"] });
  return (await memory.read_graph({})).entities.length;
}`;

/** A person's inspector in this process: the same servers and store as the MCP server's. */
export function personInspector(config: ProxyConfigFile): {
  approve(executionId: string): Promise<unknown>;
  proxy: CodemodeMcpProxy;
} {
  const proxy = createCodemodeMcpProxy({
    servers: config.mcpServers,
    runtime: { store: config.store! },
    stderr: "ignore",
  });
  return {
    proxy,
    async approve(executionId) {
      const inspector = createCodemodeInspector({
        runtime: await proxy.runtime(),
        authorize: () => ({ unscoped: true }),
      });
      const response = await inspector(
        new Request(`http://localhost/codemode/api/executions/${encodeURIComponent(executionId)}/approve`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
      );
      return (await response.json()) as unknown;
    },
  };
}
