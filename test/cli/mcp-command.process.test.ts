/**
 * `ai-codemode mcp`'s command line in process: what it refuses (exit 2) and reports (exit 1), and
 * `--http` serving the app's `--runtime` module on loopback until stopped.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { tempFolder } from "../support/temp-folder.js";
import { cli } from "./cli-support.js";

const NOW = Date.UTC(2026, 0, 1);

describe("ai-codemode mcp", () => {
  it("is in --help", async () => {
    const help = await cli(["--help"], { now: NOW, cwd: "/" });
    expect(help.stdout).toMatch(/mcp \[--http HOST:PORT\]/);
  });

  it("refuses a command line without a runtime, with both, or a non-loopback --http (exit 2)", async () => {
    const cwd = tempFolder("codemode-cli-mcp-");
    const none = await cli(["mcp"], { now: NOW, cwd });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/mcp needs the runtime to serve: --runtime <module> .* or --proxy <servers\.json>/);
    const both = await cli(["mcp", "--runtime", "a.mjs", "--proxy", "b.json"], { now: NOW, cwd });
    expect(both.code).toBe(2);
    const open = await cli(["mcp", "--http", "0.0.0.0:3920", "--proxy", "b.json"], { now: NOW, cwd });
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/--http serves loopback addresses only/);
    const badPort = await cli(["mcp", "--http", "127.0.0.1", "--proxy", "b.json"], { now: NOW, cwd });
    expect(badPort.stderr).toMatch(/--http takes HOST:PORT/);
    const badOrigin = await cli(
      ["mcp", "--http", "127.0.0.1:0", "--proxy", "b.json", "--allow-origin", "localhost:5173"],
      {
        now: NOW,
        cwd,
      },
    );
    expect(badOrigin.code).toBe(2);
    expect(badOrigin.stderr).toMatch(/--allow-origin: must be an origin: scheme, host and port only/);
    const stdioOrigin = await cli(["mcp", "--proxy", "b.json", "--allow-origin", "http://localhost:5173"], {
      now: NOW,
      cwd,
    });
    expect(stdioOrigin.stderr).toMatch(/--allow-origin applies to --http only/);
    const other = await cli(["prune", "--proxy", "b.json"], { now: NOW, cwd });
    expect(other.code).toBe(2);
    const twoRuntimes = await cli(["approve", "x", "--runtime", "a.mjs", "--proxy", "b.json"], { now: NOW, cwd });
    expect(twoRuntimes.code).toBe(2);
    expect(twoRuntimes.stderr).toMatch(/--runtime .* and --proxy .* name two runtimes/);
    // The commands a person decides with read the proxy's config (here missing: exit 1, naming it).
    for (const command of [["executions"], ["pending"], ["approve", "x"], ["reject", "x"]]) {
      const read = await cli([...command, "--proxy", "b.json"], { now: NOW, cwd });
      expect(read.code).toBe(1);
      expect(read.stderr).toMatch(/--proxy b\.json: cannot read/);
    }
  });

  it("reports a missing or invalid proxy config (exit 1), naming the path", async () => {
    const cwd = tempFolder("codemode-cli-mcp-");
    const missing = await cli(["mcp", "--proxy", "servers.json"], { now: NOW, cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--proxy servers\.json: cannot read/);
    writeFileSync(
      join(cwd, "servers.json"),
      JSON.stringify({ mcpServers: { gh: { url: "https://x.test", headers: { a: "${NO_SUCH_TOKEN}" } } } }),
    );
    const unset = await cli(["mcp", "--proxy", "servers.json"], { now: NOW, cwd });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(
      /servers\.json\.mcpServers\.gh\.headers\.a names \$\{NO_SUCH_TOKEN\}, which is not set/,
    );
  });

  it("--http serves the app's --runtime module on loopback at /mcp until stopped", async () => {
    const cwd = tempFolder("codemode-cli-mcp-");
    const distIndex = pathToFileURL(resolve(import.meta.dirname, "../../dist/index.js")).href;
    writeFileSync(
      join(cwd, "codemode.config.mjs"),
      `import { createCodemodeRuntime } from ${JSON.stringify(distIndex)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(cwd, "codemode.db")}`)},
  connectors: { math: { methods: { double: { execute: ({ n }) => n * 2 } } } },
});\n`,
    );
    const stop = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const url = new Promise<string>((resolve) => {
      listening = resolve;
    });
    let stdout = "";
    const exit = runCli(["mcp", "--http", "127.0.0.1:0", "--runtime", "codemode.config.mjs"], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => undefined,
      env: {},
      cwd,
      now: Date.now,
      signal: stop.signal,
      onListening: listening,
    });
    const address = await url;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "cli-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(address)));
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => math.double({ n: 21 })" } });
    expect(out.structuredContent).toMatchObject({ status: "completed", result: 42 });
    await client.close();
    stop.abort();
    expect(await exit).toBe(0);
    expect(stdout).toContain(`ai-codemode MCP server on ${address}`);
  });
});
