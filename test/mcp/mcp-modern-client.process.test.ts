/**
 * A client of the 2026-07-28 revision (the MCP SDK v2 client pinned to it) against the real
 * `ai-codemode mcp --proxy` processes, on stdio and on Streamable HTTP, fronting two MCP servers
 * from npm: it discovers the server (`server/discover`, no `initialize`), lists the tools, runs a
 * program over both servers, and a program that pauses answers paused, with how a person decides
 * it (a person then approves through the inspector's API and the outcome tool reads the result).
 */
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listeningUrl } from "./support/listening-url.js";
import {
  BOTH_SERVERS_PROGRAM,
  CLI,
  DEFAULT_TOOL_NAMES,
  DELETE_PROGRAM,
  personInspector,
  structured,
  writeProxyConfig,
} from "./support/proxy-scenario.js";

const MODERN = "2026-07-28";

describe.each(["stdio", "http"] as const)("a 2026-07-28 client of ai-codemode mcp --proxy on %s", (door) => {
  let folder: string;
  let person: ReturnType<typeof personInspector>;
  let server: ChildProcess | undefined;
  let client: Client;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), `codemode-mcp-modern-${door}-`));
    const { file, config } = writeProxyConfig(folder);
    person = personInspector(config);
    let transport: Transport;
    if (door === "stdio") {
      transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--proxy", file],
        cwd: folder,
        env: { PATH: process.env["PATH"] ?? "" },
        stderr: "pipe",
      });
    } else {
      const started = await listeningUrl(
        spawn(process.execPath, [CLI, "mcp", "--http", "127.0.0.1:0", "--proxy", file], {
          cwd: folder,
          env: { PATH: process.env["PATH"] ?? "" },
          stdio: ["ignore", "pipe", "pipe"],
        }),
      );
      server = started.child;
      transport = new StreamableHTTPClientTransport(new URL(started.url));
    }
    client = new Client({ name: "modern-host", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(transport);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    if (server !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await person?.proxy.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("discovers the server without initialize and lists the tools", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOL_NAMES);
    expect(tools[0]!.description).toMatch(/- memory: .*\n- everything: /);
  });

  it("runs a program over both upstream servers", async () => {
    const out = await client.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } });
    expect(structured(out)).toMatchObject({ status: "completed", result: { names: ["Ada"] } });
  });

  it("a paused program answers paused; a person approves elsewhere and the outcome tool reads the result", async () => {
    await client.callTool({ name: "codemode", arguments: { code: BOTH_SERVERS_PROGRAM } });
    const out = await client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    const { executionId, status, message } = structured(out) as {
      executionId: string;
      status: string;
      message: string;
    };
    expect(status).toBe("paused");
    expect(message).toMatch(/stays paused/);
    expect(await person.approve(executionId)).toMatchObject({ output: { status: "completed", result: 0 } });
    const after = await client.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(after)).toMatchObject({ status: "completed", executionId, result: 0 });
  });
});
