/**
 * docs/mcp.md as written: every JSON block on the page parses with `parseProxyConfig`, and the
 * desktop host entry it shows is launched as a host launches it (its exact command and arguments,
 * a minimal environment plus the entry's `env`) in a project where ai-codemode is installed; the
 * MCP SDK's client lists the tools and runs a program through it. The Vercel route it shows is the Next.js
 * example's `app/api/mcp/route.ts` as the file is, which the example's e2e/mcp.test.mjs drives.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { parseProxyConfig } from "../../src/mcp/proxy/proxy-config.js";
import { tempFolder } from "../support/temp-folder.js";
import { structured } from "./support/proxy-scenario.js";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = readFileSync(join(ROOT, "docs/mcp.md"), "utf8");
const NOTES_SERVER = fileURLToPath(new URL("./fixtures/notes-server.mjs", import.meta.url));

/** The page's ```json blocks, in order. */
function jsonBlocks(): string[] {
  return [...PAGE.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe("docs/mcp.md", () => {
  it("has the servers.json, the host entry and the passEnv example, each accepted by parseProxyConfig", () => {
    const [servers, host, passEnv] = jsonBlocks();
    expect(jsonBlocks()).toHaveLength(3);
    const parsed = parseProxyConfig(servers!, { GITHUB_TOKEN: "t0ken" }, "servers.json");
    expect(parsed.mcpServers["github"]).toMatchObject({
      headers: { Authorization: "Bearer t0ken" },
      needsApproval: true,
      readOnly: ["get_issue", "list_issues", "search_code"],
    });
    expect(parsed.startTimeoutMs).toBe(15000);
    expect(parseProxyConfig(host!, {}, "claude_desktop_config.json").mcpServers["codemode_proxy"]).toMatchObject({
      command: "npx",
    });
    expect(parseProxyConfig(passEnv!, {}, "servers.json").mcpServers["memory"]).toMatchObject({
      passEnv: expect.arrayContaining(["HTTPS_PROXY", "NODE_EXTRA_CA_CERTS"]),
    });
  });

  it("shows the Next.js route exactly as the example runs it", () => {
    const route = readFileSync(join(ROOT, "examples/nextjs/app/api/mcp/route.ts"), "utf8");
    const block = /```ts\n(\/\/ app\/api\/mcp\/route\.ts[\s\S]*?)```/.exec(PAGE)?.[1];
    expect(block).toBe(route);
    expect(route).toMatch(/sessions: false/);
  });

  it("launches the host entry's command line as a desktop host does, and serves a program through it", async () => {
    const project = tempFolder("codemode-docs-host-");
    // A project with ai-codemode installed (as `npm install ai-codemode` leaves it), so npx runs it offline.
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    symlinkSync(ROOT, join(project, "node_modules", "ai-codemode"));
    symlinkSync("../ai-codemode/dist/cli.js", join(project, "node_modules", ".bin", "ai-codemode"));
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ private: true, dependencies: { "ai-codemode": "*" } }),
    );
    const servers = join(project, "servers.json");
    writeFileSync(
      servers,
      JSON.stringify({
        store: `file:${join(project, "codemode.db")}`,
        mcpServers: {
          notes: { command: process.execPath, args: [NOTES_SERVER], env: { NOTES_SECRET: "${GITHUB_TOKEN}" } },
        },
      }),
    );
    const entry = (
      JSON.parse(jsonBlocks()[1]!) as {
        mcpServers: { codemode_proxy: { command: string; args: string[]; env: Record<string, string> } };
      }
    ).mcpServers.codemode_proxy;
    // The page's placeholder path is the one thing a reader changes.
    const args = entry.args.map((arg) => (arg.endsWith("servers.json") ? servers : arg));
    const transport = new StdioClientTransport({
      command: "/usr/bin/env",
      args: [
        "-i",
        `PATH=${process.env["PATH"] ?? ""}`,
        `HOME=${project}`,
        ...Object.entries(entry.env).map(([key, value]) => `${key}=${value}`),
        entry.command,
        ...args,
      ],
      cwd: project,
      stderr: "pipe",
    });
    const client = new Client({ name: "docs-host", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("codemode");
      const out = await client.callTool({
        name: "codemode",
        arguments: { code: "async () => notes.secret_length({})" },
      });
      expect(structured(out)).toMatchObject({
        status: "completed",
        result: { length: entry.env["GITHUB_TOKEN"]!.length },
      });
    } finally {
      await client.close();
    }
  });
});
