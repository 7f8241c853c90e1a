/**
 * `ai-codemode mcp --proxy servers.json` launched the way a desktop host launches it: a real child
 * with a minimal environment (`env -i` with PATH, HOME and the one variable the host config sets),
 * driven by the MCP SDK's own client. One upstream never answers `tools/list` (the proxy lists its
 * tools meanwhile, saying it still starts), one is healthy
 * (`@modelcontextprotocol/server-memory`), one needs a variable passed through with `passEnv`, one
 * has a read-only-annotated tool the config says needs approval; a person approves it with
 * `ai-codemode approve --proxy`, a real process that must exit.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, sdkClient, structured } from "../support/proxy-scenario.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const MEMORY_SERVER = fileURLToPath(
  new URL("../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url),
);
// Generous: four children start at once on a loaded machine; the hung one is given up after it.
const START_TIMEOUT_MS = 8_000;
/** What a host's own config sets for the proxy (`"env"` of its entry). */
const HOST_SET = { UPSTREAM_TOKEN: "token-from-host-config" };

/** `env -i PATH=… HOME=… [host vars] node <CLI> args…`: nothing else of this test's environment. */
function minimalEnvCommand(home: string, args: string[]): { command: string; args: string[] } {
  return {
    command: "/usr/bin/env",
    args: [
      "-i",
      `PATH=${process.env["PATH"] ?? ""}`,
      `HOME=${home}`,
      ...Object.entries(HOST_SET).map(([key, value]) => `${key}=${value}`),
      process.execPath,
      CLI,
      ...args,
    ],
  };
}

/** Runs the CLI to its exit (bounded), as a person types it. */
function runToExit(
  home: string,
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { command, args: argv } = minimalEnvCommand(home, args);
  const child = spawn(command, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`ai-codemode ${args.join(" ")} did not exit within 60 s.\n${stderr}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("the proxy as a desktop host runs it (minimal environment, real processes)", () => {
  let folder: string;
  let file: string;
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-desktop-host-"));
    file = join(folder, "servers.json");
    writeFileSync(
      file,
      JSON.stringify({
        store: `file:${join(folder, "codemode.db")}`,
        startTimeoutMs: START_TIMEOUT_MS,
        mcpServers: {
          hung: { command: process.execPath, args: [fixture("silent-server.mjs")] },
          memory: {
            command: process.execPath,
            args: [MEMORY_SERVER],
            env: { MEMORY_FILE_PATH: join(folder, "memory.jsonl") },
          },
          secrets: { command: process.execPath, args: [fixture("env-server.mjs")], passEnv: ["UPSTREAM_TOKEN"] },
          notes: { command: process.execPath, args: [fixture("notes-server.mjs")], needsApproval: ["list_notes"] },
        },
      }),
    );
    const transport = new StdioClientTransport({
      ...minimalEnvCommand(folder, ["mcp", "--proxy", file]),
      cwd: folder,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    client = (await sdkClient(transport)).client;
  });

  afterAll(async () => {
    await client?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists its tools while one upstream still hangs, saying which are starting; then why the hung one did not start", async () => {
    const { tools } = await client.listTools();
    const catalog = tools.find((tool) => tool.name === "codemode")?.description ?? "";
    // Answered at once: the hung upstream is given up only after START_TIMEOUT_MS.
    expect(catalog).toMatch(/hung: Starting: the MCP server "hung" is still starting/);
    const describeHung = async () =>
      JSON.stringify((await client.callTool({ name: "codemode_describe", arguments: { target: "hung" } })).content);
    let reason = await describeHung();
    for (let attempt = 0; attempt < 300 && reason.includes("still starting"); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reason = await describeHung();
    }
    expect(reason).toMatch(/no answer to initialize and tools\/list within startTimeoutMs 8000 ms/);
    expect(reason).toContain("silent-server: started, waiting for the registry");
    expect(reason).toMatch(/list their names in \\"passEnv\\"/);
    expect(stderr).toContain("silent-server: started, waiting for the registry");
    const listed = (await client.listTools()).tools.find((tool) => tool.name === "codemode")?.description ?? "";
    expect(listed).toMatch(/hung: Unavailable now: the MCP server "hung" did not start: no answer/);
    expect(listed).toMatch(/memory: /);
    expect(listed).not.toMatch(/memory: (Unavailable|Starting)/);
  });

  it("runs the healthy upstream, and the one that needs a variable passed through", async () => {
    const out = await client.callTool({
      name: "codemode",
      arguments: {
        code: `async () => {
          await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: [] }] });
          return { graph: (await memory.read_graph({})).entities.map((e) => e.name), token: await secrets.token_length({}) };
        }`,
      },
    });
    expect(structured(out)).toMatchObject({
      status: "completed",
      result: { graph: ["Ada"], token: { length: HOST_SET.UPSTREAM_TOKEN.length } },
    });
  });

  it("pauses a read-only-annotated tool servers.json says needs approval; approve --proxy completes it and exits", async () => {
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => notes.list_notes({})" } });
    const { executionId, status, message } = structured(out) as {
      executionId: string;
      status: string;
      message: string;
    };
    expect(status).toBe("paused");
    expect(message).toContain(`npx ai-codemode approve ${executionId} --proxy ${JSON.stringify(file)}`);
    const pending = await runToExit(folder, folder, ["pending", "--proxy", file]);
    expect(pending).toMatchObject({ code: 0 });
    expect(pending.stdout).toContain("notes.list_notes");
    const approved = await runToExit(folder, folder, ["approve", executionId, "--proxy", file]);
    expect(approved.stderr).not.toMatch(/Error/);
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout).toMatch(new RegExp(`Execution ${executionId} completed`));
    const outcome = await client.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(outcome)).toMatchObject({ status: "completed", result: { notes: [] } });
  });

  it("a hand-written module around createCodemodeMcpProxy approves with --runtime and the process exits", async () => {
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => notes.list_notes({})" } });
    const { executionId } = structured(out) as { executionId: string };
    const mcpEntry = pathToFileURL(fileURLToPath(new URL("../../../dist/mcp.js", import.meta.url))).href;
    writeFileSync(
      join(folder, "hand.mjs"),
      `import { readFileSync } from "node:fs";
import { createCodemodeMcpProxy, parseProxyConfig } from ${JSON.stringify(mcpEntry)};
const config = parseProxyConfig(readFileSync(${JSON.stringify(file)}, "utf8"), process.env, "servers.json");
const proxy = createCodemodeMcpProxy({
  servers: config.mcpServers,
  runtime: { store: config.store },
  startTimeoutMs: config.startTimeoutMs,
  stderr: "ignore",
});
export const runtime = proxy.runtime;\n`,
    );
    const approved = await runToExit(folder, folder, ["approve", executionId, "--runtime", "hand.mjs"]);
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout).toMatch(new RegExp(`Execution ${executionId} completed`));
  });
});
