/**
 * `ai-codemode mcp --proxy servers.json` as a desktop host runs it: a real child process on stdio,
 * driven by the MCP SDK's own `Client`, fronting two MCP servers from npm. Lists tools, runs a
 * program over both, pauses on a destructive tool, approves by elicitation, declines, and takes the
 * no-elicitation path: a person approves through the inspector's API, the model reads the outcome.
 */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

function stdioTransport(file: string, cwd: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--proxy", file],
    cwd,
    env: { PATH: process.env["PATH"] ?? "" },
    stderr: "pipe",
  });
}

describe("ai-codemode mcp on stdio (a real child process) over server-memory and server-everything", () => {
  let folder: string;
  let file: string;
  let person: ReturnType<typeof personInspector>;
  let asking: { client: Client; forms: string[] };
  let answers: Array<"approve" | "decline"> = [];
  let silent: Client;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-stdio-"));
    const written = writeProxyConfig(folder);
    file = written.file;
    person = personInspector(written.config);
    asking = await sdkClient(stdioTransport(file, folder), (params) => {
      const answer = answers.shift();
      return answer === "approve" ? approveAll(params) : { action: "decline" };
    });
    silent = (await sdkClient(stdioTransport(file, folder))).client;
  });

  afterAll(async () => {
    await asking?.client.close();
    await silent?.close();
    await person?.proxy.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists codemode and its companion tools; the description names both upstream namespaces", async () => {
    const { tools } = await silent.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOL_NAMES);
    expect(tools[0]!.description).toMatch(/- memory: .*\n- everything: /);
  });

  it("runs one program over both upstream servers", async () => {
    const out = await silent.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } });
    expect(structured(out)).toMatchObject({ status: "completed", result: { names: ["Ada"] } });
    expect(JSON.stringify(structured(out)["result"])).toContain("5");
  });

  it("pauses on a destructive tool and a declined elicitation runs nothing", async () => {
    answers = ["decline"];
    const out = await asking.client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(structured(out)).toMatchObject({
      status: "paused",
      pending: [{ connector: "memory", method: "delete_entities", args: { entityNames: ["Ada"] } }],
    });
    expect(structured(out)["message"]).toMatch(/The person declined to decide: nothing was approved, rejected or run/);
    expect(asking.forms.at(-1)).toContain('memory.delete_entities {"entityNames":["Ada"]}');
    const graph = await silent.callTool({
      name: "codemode",
      arguments: { code: "async () => (await memory.read_graph({})).entities.length" },
    });
    expect(structured(graph)).toMatchObject({ result: 1 });
  });

  it("approved by elicitation, the destructive call runs and the program finishes in the same tool call", async () => {
    answers = ["approve"];
    const out = await asking.client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(structured(out)).toMatchObject({ status: "completed", result: 0 });
  });

  it("without elicitation: a person approves through the inspector's API, then the model reads the outcome", async () => {
    await silent.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } });
    const out = await silent.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    const { executionId, status, message } = structured(out) as {
      executionId: string;
      status: string;
      message: string;
    };
    expect(status).toBe("paused");
    expect(message).toMatch(/No person can be asked through this client/);
    const before = await silent.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(before)).toMatchObject({ status: "paused" });
    expect(await person.approve(executionId)).toMatchObject({ output: { status: "completed", result: 0 } });
    const after = await silent.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(after)).toMatchObject({ status: "completed", executionId, result: 0 });
  });
});

describe("ai-codemode mcp on stdio, given lines that are not JSON-RPC", () => {
  it("answers each with a JSON-RPC error and keeps serving; closing stdin ends the process", async () => {
    const folder = mkdtempSync(join(tmpdir(), "codemode-mcp-stdio-raw-"));
    try {
      const { file } = writeProxyConfig(folder);
      const child = spawn(process.execPath, [CLI, "mcp", "--proxy", file], {
        cwd: folder,
        env: { PATH: process.env["PATH"] ?? "" },
        stdio: ["pipe", "pipe", "ignore"],
      });
      const lines: Array<Record<string, unknown>> = [];
      let buffered = "";
      const answered = new Promise<void>((resolve) => {
        child.stdout.on("data", (chunk: Buffer) => {
          buffered += chunk.toString();
          for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
            lines.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
            buffered = buffered.slice(end + 1);
            if (lines.some((line) => line["id"] === 2)) resolve();
          }
        });
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.stdin.write(
        [
          "this is not json",
          '{"hello":"world"}',
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
          }),
          JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
          JSON.stringify({
            jsonrpc: "2.0",
            id: 2,
            method: "tools/call",
            params: { name: "no_such_tool", arguments: {} },
          }),
          "",
        ].join("\n"),
      );
      await answered;
      expect(lines[0]).toMatchObject({ id: null, error: { code: -32700 } });
      expect(lines[1]).toMatchObject({ id: null, error: { code: -32600 } });
      // The built CLI reports package.json's version, put in by the build.
      const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
        version: string;
      };
      expect(lines.find((line) => line["id"] === 1)).toMatchObject({
        result: { serverInfo: { name: "ai-codemode", version } },
      });
      expect(lines.find((line) => line["id"] === 2)).toMatchObject({
        error: { message: expect.stringMatching(/Unknown tool "no_such_tool"/) },
      });
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
