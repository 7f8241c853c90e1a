/**
 * `ai-codemode mcp --http 127.0.0.1:0 --proxy servers.json`: a real Streamable HTTP server in a
 * child process on loopback, fronting two MCP servers from npm, driven by the MCP SDK's `Client`
 * and by `@ai-sdk/mcp`'s client as an AI SDK app uses it (`mcpClient.tools()` in `generateText`).
 * Also what a hostile or careless client sends: malformed JSON, an oversized body, an unknown
 * session, a foreign Host or Origin, and a client that disconnects mid-run (the pass ends, the
 * journal stays consistent, the server keeps serving).
 */
import { createMCPClient, ElicitationRequestSchema } from "@ai-sdk/mcp";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generateText, stepCountIs } from "ai";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastToolOutput, scriptedModel } from "../ai/support/scripted-model.js";
import {
  approveAll,
  BOTH_SERVERS_PROGRAM,
  CLI,
  DEFAULT_TOOL_NAMES,
  DELETE_PROGRAM,
  personInspector,
  sdkClient,
  structured,
  writeProxyConfig,
} from "./support/proxy-scenario.js";
import { listeningUrl } from "./support/listening-url.js";

/** Starts the CLI's HTTP server and resolves with its URL (printed on stdout). */
function startServer(file: string, cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, "mcp", "--http", "127.0.0.1:0", "--proxy", file], {
    cwd,
    env: { PATH: process.env["PATH"] ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return listeningUrl(child);
}

/** A raw HTTP request (Node's client lets a test set Host and Origin). */
function raw(
  url: string,
  { method = "POST", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, headers: { accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("ai-codemode mcp --http (a real server on 127.0.0.1) over server-memory and server-everything", () => {
  let folder: string;
  let server: { child: ChildProcess; url: string };
  let person: ReturnType<typeof personInspector>;
  const clients: Client[] = [];

  const connect = async (withElicitation: boolean, answer: "approve" | "decline" = "approve") => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const made = await sdkClient(
      transport,
      withElicitation ? (params) => (answer === "approve" ? approveAll(params) : { action: "decline" }) : undefined,
    );
    clients.push(made.client);
    return made;
  };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-http-"));
    const written = writeProxyConfig(folder);
    person = personInspector(written.config);
    server = await startServer(written.file, folder);
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    if (server !== undefined && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill("SIGTERM");
      await exited;
    }
    await person?.proxy.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists the tools and runs a program over both upstream servers", async () => {
    const { client } = await connect(false);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOL_NAMES);
    const out = await client.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } });
    expect(structured(out)).toMatchObject({ status: "completed", result: { names: ["Ada"] } });
  });

  it("pauses on a destructive tool: declined runs nothing; approved by elicitation it finishes in the same call", async () => {
    const declining = await connect(true, "decline");
    const declined = await declining.client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(structured(declined)).toMatchObject({ status: "paused", pending: [{ method: "delete_entities" }] });
    expect(declining.forms).toHaveLength(1);
    const approving = await connect(true, "approve");
    const approved = await approving.client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(structured(approved)).toMatchObject({ status: "completed", result: 0 });
    expect(approving.forms[0]).toContain("memory.delete_entities");
  });

  it("without elicitation: decided through the inspector's API, then fetched by the model", async () => {
    const { client } = await connect(false);
    await client.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } });
    const out = await client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    const executionId = String(structured(out)["executionId"]);
    expect(structured(out)).toMatchObject({ status: "paused" });
    expect(await person.approve(executionId)).toMatchObject({ output: { status: "completed" } });
    const after = await client.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(after)).toMatchObject({ status: "completed", result: 0 });
  });

  it("works through @ai-sdk/mcp's client in generateText (mcpClient.tools()), approving by its elicitation handler", async () => {
    const mcpClient = await createMCPClient({
      transport: { type: "http", url: server.url },
      capabilities: { elicitation: {} },
      // The 2025-11-25 revision (initialize, then the server's elicitation request); with discovery on it speaks 2026-07-28.
      protocolVersionDiscovery: false,
    });
    const forms: string[] = [];
    mcpClient.onElicitationRequest(ElicitationRequestSchema, (request) => {
      forms.push(request.params.message);
      return approveAll(request.params as never);
    });
    try {
      const tools = await mcpClient.tools();
      expect(Object.keys(tools).sort()).toEqual([
        "codemode",
        "codemode_describe",
        "codemode_outcome",
        "codemode_search",
      ]);
      const outputs: unknown[] = [];
      const result = await generateText({
        model: scriptedModel((prompt, index) => {
          if (index === 0) return { code: BOTH_SERVERS_PROGRAM };
          if (index === 1) {
            outputs.push(lastToolOutput(prompt));
            return { code: DELETE_PROGRAM };
          }
          outputs.push(lastToolOutput(prompt));
          return { text: "done" };
        }),
        tools,
        stopWhen: stepCountIs(4),
        prompt: "Add Ada, then remove her.",
      });
      expect(result.text).toBe("done");
      // The model sees the MCP tool's text content: the codemode output as JSON.
      const seen = outputs.map((output) => JSON.parse((output as { value: Array<{ text: string }> }).value[0]!.text));
      expect(seen[0]).toMatchObject({ status: "completed", result: { names: ["Ada"] } });
      expect(seen[1]).toMatchObject({ status: "completed", result: 0 });
      expect(forms).toHaveLength(1);
    } finally {
      await mcpClient.close();
    }
  });

  it("answers malformed JSON, an oversized body and an unknown session with JSON-RPC errors", async () => {
    const json = { "content-type": "application/json" };
    const malformed = await raw(server.url, { headers: json, body: '{"jsonrpc":"2.0","method":' });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text)).toMatchObject({ error: { code: -32700 } });
    const oversized = await raw(server.url, { headers: json, body: JSON.stringify({ code: "x".repeat(1_100_000) }) });
    expect(oversized.status).toBe(413);
    expect(JSON.parse(oversized.text).error.message).toMatch(/too large/);
    const lost = await raw(server.url, {
      headers: { ...json, "mcp-session-id": "no-such-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(lost.status).toBe(404);
    const noSession = await raw(server.url, {
      headers: json,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noSession.status).toBe(400);
  });

  it("refuses a foreign Host (DNS rebinding) and another site's Origin", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const rebound = await raw(server.url, {
      headers: { "content-type": "application/json", host: "evil.example:80" },
      body,
    });
    expect(rebound.status).toBe(403);
    const crossSite = await raw(server.url, {
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body,
    });
    expect(crossSite.status).toBe(403);
    const opaque = await raw(server.url, { headers: { "content-type": "application/json", origin: "null" }, body });
    expect(opaque.status).toBe(403);
  });

  it("a client that disconnects mid-run ends the pass: nothing after it runs, the journal is consistent, the server serves on", async () => {
    const runtime = await person.proxy.runtime();
    const { client } = await connect(false);
    const call = client
      .callTool({
        name: "codemode",
        arguments: {
          code: `async () => {
            await everything["trigger-long-running-operation"]({ duration: 30, steps: 3 });
            await memory.create_entities({ entities: [{ name: "Late", entityType: "x", observations: [] }] });
            return "finished";
          }`,
        },
      })
      .catch((error: unknown) => error);
    const running = async () => (await runtime.executions(20)).find((execution) => execution.status === "running");
    let started = await running();
    while (started === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      started = await running();
    }
    await client.close();
    expect(await call).toBeInstanceOf(Error);
    while ((await runtime.execution(started.executionId))?.status === "running")
      await new Promise((resolve) => setTimeout(resolve, 50));
    const ended = await runtime.execution(started.executionId);
    expect(ended).toMatchObject({ status: "error", kind: "abort" });
    expect(ended!.calls.every((entry) => entry.status !== "executing")).toBe(true);
    const graph = await runtime.execute({
      code: "async () => (await memory.read_graph({})).entities.map((e) => e.name)",
    });
    expect((graph as { result: string[] }).result).not.toContain("Late");
    const { client: next } = await connect(false);
    expect((await next.listTools()).tools).toHaveLength(4);
  });
});
