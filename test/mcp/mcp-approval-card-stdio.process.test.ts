/**
 * The approval card from `ai-codemode mcp --proxy` on stdio (a real child process of the built CLI, fronting
 * server-memory and server-everything from npm), to an MCP SDK client declaring MCP Apps as a desktop host would:
 * it reads `ui://ai-codemode/approval`, a destructive upstream call pauses with the card's payload, and the card's
 * tool decides it once (the proxy has no approval links: the token is signed with the process's own secret).
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOTH_SERVERS_PROGRAM, CLI, DELETE_PROGRAM, writeProxyConfig } from "./support/proxy-scenario.js";

const APPS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

describe("the approval card from ai-codemode mcp --proxy on stdio", () => {
  let folder: string;
  let client: Client;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-card-"));
    const { file } = writeProxyConfig(folder);
    client = new Client({ name: "apps-host", version: "1" }, { capabilities: APPS });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--proxy", file],
        cwd: folder,
        env: { PATH: process.env["PATH"] ?? "" },
        stderr: "pipe",
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists the card, pauses with its payload and decides once through it", async () => {
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "ui://ai-codemode/approval",
    ]);
    // The built package carries the card's script (bundled at build time).
    const read = await client.readResource({ uri: "ui://ai-codemode/approval" });
    expect((read.contents[0] as { text: string }).text).toContain('"ui/initialize"');
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "codemode")?._meta).toMatchObject({
      ui: { resourceUri: "ui://ai-codemode/approval" },
    });
    expect(
      (await client.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } })).structuredContent,
    ).toMatchObject({ status: "completed" });

    const paused = await client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(paused.structuredContent).toMatchObject({ status: "paused" });
    const payload = paused._meta?.["ai-codemode/approval"] as {
      token: string;
      calls: Array<{ seq: number; connector: string; method: string; args: unknown }>;
    };
    expect(payload.calls).toEqual([
      { seq: expect.any(Number), connector: "memory", method: "delete_entities", args: { entityNames: ["Ada"] } },
    ]);
    const decide = () =>
      client.callTool({
        name: "codemode_approval_card",
        arguments: { token: payload.token, decisions: [{ seq: payload.calls[0]!.seq, choice: "approve" }] },
      });
    const decided = await decide();
    expect(decided.isError).toBeFalsy();
    expect(JSON.stringify(decided.content)).toContain("1 of 1 call(s) approved. The program continued and completed.");
    const again = await decide();
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toContain("A card decides once");
    // The one effect: Ada is gone from the memory server.
    const graph = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => (await memory.read_graph({})).entities.length" },
    });
    expect(graph.structuredContent).toMatchObject({ status: "completed", result: 0 });
  }, 120_000);
});
