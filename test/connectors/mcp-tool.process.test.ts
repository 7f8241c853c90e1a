import type { MCPClient } from "@ai-sdk/mcp";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connector } from "../../src/connectors/connector.js";
import { methodDeclaration } from "../../src/connectors/declarations.js";
import { McpToolError } from "../../src/errors.js";
import { unwrapMcpResult } from "../../src/connectors/mcp-tool.js";
import { resolveConnector } from "../../src/connectors/resolve-connector.js";
import type { Connector, ConnectorCallContext } from "../../src/connectors/types.js";
import { InvalidOptionError } from "../../src/errors.js";
import { startEverythingServer, startMemoryServer } from "./fixtures/mcp-servers.js";

function callContext(method: string): ConnectorCallContext {
  return {
    executionId: "exec_mcp",
    seq: 0,
    idempotencyKey: "exec_mcp:0",
    toolCallId: "exec_mcp:0",
    connector: "memory",
    method,
    abortSignal: new AbortController().signal,
    messages: [],
    context: undefined,
  };
}

describe("unwrapMcpResult", () => {
  it("prefers structuredContent, then JSON text, then text", () => {
    expect(unwrapMcpResult({ content: [{ type: "text", text: "{}" }], structuredContent: { a: 1 } })).toEqual({ a: 1 });
    expect(unwrapMcpResult({ content: [{ type: "text", text: '{"b":[1,2]}' }] })).toEqual({ b: [1, 2] });
    expect(unwrapMcpResult({ content: [{ type: "text", text: "plain words" }] })).toBe("plain words");
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    expect(unwrapMcpResult({ content: [image] })).toEqual([image]);
    expect(unwrapMcpResult(42)).toBe(42);
  });

  it("turns isError into a McpToolError carrying the text", () => {
    expect(() => unwrapMcpResult({ content: [{ type: "text", text: "no such entity" }], isError: true })).toThrow(
      McpToolError,
    );
    expect(() => unwrapMcpResult({ content: [{ type: "text", text: "no such entity" }], isError: true })).toThrow(
      "no such entity",
    );
  });
});

describe("a real MCP server (server-memory over stdio) as a connector", () => {
  let client: MCPClient;
  let directory: string;
  let memory: Connector;
  let tools: Awaited<ReturnType<MCPClient["tools"]>>;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), "codemode-mcp-"));
    client = await startMemoryServer(directory);
    tools = await client.tools();
    memory = resolveConnector("memory", tools);
  });

  afterAll(async () => {
    await client?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("has one method per tool, with schemas and annotation-based approval", () => {
    expect(Object.keys(memory.methods)).toEqual(
      expect.arrayContaining(["create_entities", "read_graph", "search_nodes", "open_nodes", "delete_entities"]),
    );
    expect(memory.methods["delete_entities"]!.needsApproval).toBe(true);
    expect(memory.methods["read_graph"]!.needsApproval).toBeUndefined();
    expect(memory.methods["create_entities"]!.needsApproval).toBeUndefined();
    expect(memory.methods["search_nodes"]!.inputSchema).toMatchObject({ properties: { query: { type: "string" } } });
  });

  it("calls tools and unwraps structured results", async () => {
    const created = await memory.methods["create_entities"]!.execute(
      { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] },
      callContext("create_entities"),
    );
    expect(created).toMatchObject({ entities: [{ name: "Ada", entityType: "person" }] });
    const graph = await memory.methods["read_graph"]!.execute({}, callContext("read_graph"));
    expect(graph).toMatchObject({ entities: [{ name: "Ada" }], relations: [] });
  });

  it("validates arguments with the JSON Schema validator before anything runs", async () => {
    const result = await memory.methods["open_nodes"]!.validate!({ names: "Ada" });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error).toContain("Invalid arguments for memory.open_nodes(input):");
      expect(result.error).toContain('names: expected array, got string "Ada"');
      expect(result.error).toContain("Expected input: { names: string[] }");
    }
  });

  it("rejects when the server answers isError", async () => {
    await expect(memory.methods["open_nodes"]!.execute({ names: 5 }, callContext("open_nodes"))).rejects.toBeInstanceOf(
      McpToolError,
    );
  });

  it("lets readOnlyHint tools reexecute on replay and refuses it for the others", () => {
    const wrapped = resolveConnector("memory", connector(tools, { methods: { read_graph: { replay: "reexecute" } } }));
    expect(wrapped.methods["read_graph"]!.replay).toBe("reexecute");
    try {
      resolveConnector("memory", connector(tools, { methods: { create_entities: { replay: "reexecute" } } }));
      throw new Error("expected a construction error");
    } catch (error) {
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect((error as InvalidOptionError).path).toBe("connector().methods.create_entities.replay");
      expect((error as Error).message).toContain("readOnlyHint");
    }
  });

  it("makes readOnlyHint tools read-only by default (journaled without a round trip of their own)", () => {
    const wrapped = resolveConnector("memory", connector(tools));
    expect(wrapped.methods["read_graph"]!.readOnly).toBe(true);
    expect(wrapped.methods["create_entities"]!.readOnly).toBeUndefined();
  });
});

describe("server-everything over stdio", () => {
  let client: MCPClient;
  let everything: Connector;

  beforeAll(async () => {
    client = await startEverythingServer();
    everything = resolveConnector("everything", await client.tools());
  });

  afterAll(async () => {
    await client?.close();
  });

  it("works with explicit schemas (tools({ schemas })): zod validation and output types", async () => {
    const typed = resolveConnector(
      "typed",
      await client.tools({
        schemas: {
          "get-sum": {
            inputSchema: z.object({ a: z.number(), b: z.number() }),
          },
          "get-structured-content": {
            inputSchema: z.object({ location: z.enum(["New York", "Chicago", "Los Angeles"]) }),
            outputSchema: z.object({ temperature: z.number(), conditions: z.string(), humidity: z.number() }),
          },
        },
      }),
    );
    expect(Object.keys(typed.methods).sort()).toEqual(["get-structured-content", "get-sum"]);
    const bad = await typed.methods["get-sum"]!.validate!({ a: 1 });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error).toContain("b: expected number, got undefined");
    const weather = await typed.methods["get-structured-content"]!.execute({ location: "Chicago" }, callContext("x"));
    expect(weather).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
    const declaration = methodDeclaration("typed", "get-structured-content", typed.methods["get-structured-content"]!);
    expect(declaration).toContain('"get-structured-content"(input: {');
    expect(declaration).toContain("}): Promise<{\n    temperature: number;");
  });

  it("returns plain text results as text and structured results as objects", async () => {
    expect(await everything.methods["echo"]!.execute({ message: "hi" }, callContext("echo"))).toBe("Echo: hi");
    const weather = await everything.methods["get-structured-content"]!.execute(
      { location: "Chicago" },
      callContext("x"),
    );
    expect(typeof weather).toBe("object");
    expect(weather).not.toHaveProperty("content");
  });
});
