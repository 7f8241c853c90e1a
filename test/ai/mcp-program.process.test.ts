import type { MCPClient } from "@ai-sdk/mcp";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { startMemoryServer } from "../connectors/fixtures/mcp-servers.js";

describe("a program driving a real MCP server (server-memory over stdio)", () => {
  let client: MCPClient;
  let directory: string;
  let runtime: CodemodeRuntime;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), "codemode-mcp-program-"));
    client = await startMemoryServer(directory);
    runtime = createCodemodeRuntime({
      connectors: { memory: await client.tools() },
      store: `file:${join(directory, "codemode.db")}`,
    });
  });

  afterAll(async () => {
    await runtime?.close();
    await client?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("creates, relates and reads entities in one program, with unwrapped results", async () => {
    const out = await runtime.execute({
      code: `async () => {
        await memory.create_entities({ entities: [
          { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
          { name: "Analytical Engine", entityType: "machine", observations: [] },
        ] });
        await memory.create_relations({ relations: [{ from: "Ada", to: "Analytical Engine", relationType: "programmed" }] });
        const found = await memory.search_nodes({ query: "program" });
        const graph = await memory.read_graph({});
        return { found: found.entities.map((e) => e.name), relations: graph.relations.length };
      }`,
    });
    expect(out).toMatchObject({ status: "completed", result: { found: ["Ada"], relations: 1 } });
  });

  it("turns an invalid call into a compiler-like error the program can catch", async () => {
    const out = await runtime.execute({
      code: `async () => {
        try { await memory.open_nodes({ names: "Ada" }); return "no error"; }
        catch (error) { return String(error.message ?? error); }
      }`,
    });
    expect(out.status).toBe("completed");
    expect((out as { result: string }).result).toContain('names: expected array, got string "Ada"');
  });

  it("pauses on a destructive tool (destructiveHint) and deletes only after approval", async () => {
    const out = await runtime.execute({
      code: `async () => { await memory.delete_entities({ entityNames: ["Analytical Engine"] }); return (await memory.read_graph({})).entities.length; }`,
    });
    expect(out).toMatchObject({ status: "paused", pending: [{ connector: "memory", method: "delete_entities" }] });
    const before = await runtime.execute({ code: "async () => (await memory.read_graph({})).entities.length" });
    expect(before).toMatchObject({ status: "completed", result: 2 });
    const resumed = await runtime.approve({ executionId: out.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: 1 });
  });
});
