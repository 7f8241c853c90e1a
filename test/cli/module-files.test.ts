/**
 * `ai-codemode mcp --proxy` gives its programs ES modules read from files: the config's `modules` and a
 * `--modules <modules.json>` file, served to a real MCP client over Streamable HTTP on loopback.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { tempFolder } from "../support/temp-folder.js";
import { cli } from "./cli-support.js";

const NOW = Date.UTC(2026, 0, 1);
const NOTES_SERVER = fileURLToPath(new URL("../mcp/fixtures/notes-server.mjs", import.meta.url));
const SERVERS = { notes: { command: process.execPath, args: [NOTES_SERVER] } };

describe("modules from files", () => {
  it("refuses --modules with --runtime (exit 2) and reports an unreadable module file (exit 1), naming it", async () => {
    const cwd = tempFolder("codemode-cli-modules-");
    const both = await cli(["mcp", "--runtime", "a.mjs", "--modules", "m.json"], { now: NOW, cwd });
    expect(both.code).toBe(2);
    writeFileSync(join(cwd, "servers.json"), JSON.stringify({ mcpServers: SERVERS, modules: { greet: "missing.js" } }));
    const missing = await cli(["mcp", "--proxy", "servers.json"], { now: NOW, cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--proxy servers\.json modules\["greet"\]: cannot read .*missing\.js/);
    writeFileSync(join(cwd, "servers.json"), JSON.stringify({ mcpServers: SERVERS, modules: { greet: 42 } }));
    const invalid = await cli(["mcp", "--proxy", "servers.json"], { now: NOW, cwd });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/servers\.json\.modules\["greet"\] must be a file path/);
  });

  it("serves a proxy whose programs import modules from the config and from --modules", async () => {
    const cwd = tempFolder("codemode-cli-modules-");
    mkdirSync(join(cwd, "lib"));
    writeFileSync(join(cwd, "lib", "greet.js"), "export const hello = (name) => `hello ${name}`;");
    writeFileSync(join(cwd, "lib", "greet.d.ts"), "export function hello(name: string): string;");
    writeFileSync(join(cwd, "lib", "shout.js"), "export default (text) => text.toUpperCase();");
    writeFileSync(
      join(cwd, "servers.json"),
      JSON.stringify({
        mcpServers: SERVERS,
        store: `file:${join(cwd, "codemode.db")}`,
        modules: { greet: { source: "lib/greet.js", types: "lib/greet.d.ts" } },
      }),
    );
    writeFileSync(join(cwd, "lib", "modules.json"), JSON.stringify({ shout: "shout.js" }));
    const stop = new AbortController();
    let listening: (url: string) => void = () => undefined;
    const url = new Promise<string>((resolve) => {
      listening = resolve;
    });
    let stderr = "";
    const exit = runCli(["mcp", "--http", "127.0.0.1:0", "--proxy", "servers.json", "--modules", "lib/modules.json"], {
      stdout: () => undefined,
      stderr: (text) => {
        stderr += text;
      },
      env: {},
      cwd,
      now: Date.now,
      signal: stop.signal,
      onListening: listening,
    });
    const address = await Promise.race([url, exit.then((code) => `exited ${code}: ${stderr}`)]);
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "cli-modules-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(address)));
    const code = 'import { hello } from "greet";\nimport shout from "shout";\nshout(hello("ada"))';
    const out = await client.callTool({ name: "codemode", arguments: { code } });
    expect(out.structuredContent).toMatchObject({ status: "completed", result: "HELLO ADA" });
    const described = await client.callTool({
      name: "codemode",
      arguments: { code: 'await codemode.describe("greet")' },
    });
    expect(JSON.stringify(described.structuredContent)).toContain("hello(name: string): string");
    await client.close();
    stop.abort();
    expect(await exit).toBe(0);
  });
});
