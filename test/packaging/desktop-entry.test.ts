/**
 * The Claude Desktop / Cursor entry of docs/mcp.md, launched as a host launches it, from the packed
 * package: `npm pack`, then the packages the entry's `-p` flags name installed globally into a temp
 * prefix (what `npx -y -p …` fetches into its cache), then the entry's command line started with a
 * minimal environment (`env -i` with PATH and HOME) from another folder, with an upstream that hangs
 * in the config. It must answer `initialize` and `tools/list` while that upstream still hangs.
 * What differs from the host: npx resolves the `-p` packages from the registry before it runs the
 * `ai-codemode` bin; here the bin of the global install runs directly (offline, and never the
 * registry's `ai-codemode`).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const SILENT_SERVER = fileURLToPath(new URL("../mcp/fixtures/silent-server.mjs", import.meta.url));
const versions = JSON.parse(
  execFileSync("npm", ["pkg", "get", "devDependencies"], { cwd: root, encoding: "utf8" }),
) as Record<string, string>;

/** The host entry docs/mcp.md gives for Claude Desktop and Cursor (the first one running `npx … --proxy`). */
function documentedEntry(): { command: string; args: string[] } {
  const page = readFileSync(join(root, "docs/mcp.md"), "utf8");
  for (const [, block] of page.matchAll(/```json\n([\s\S]*?)```/g)) {
    const entry = Object.values((JSON.parse(block!) as { mcpServers: Record<string, unknown> }).mcpServers)[0] as {
      command?: string;
      args?: string[];
    };
    if (entry.command === "npx" && entry.args?.includes("--proxy")) return { command: entry.command, args: entry.args };
  }
  throw new Error("docs/mcp.md has no host entry running npx");
}

/** The entry's npx flags: the packages `-p` names, and the command after them. */
function npxParts(args: string[]): { packages: string[]; command: string[] } {
  const packages: string[] = [];
  let index = 0;
  for (; index < args.length; index++) {
    if (args[index] === "-y") continue;
    if (args[index] === "-p") packages.push(args[++index]!);
    else break;
  }
  return { packages, command: args.slice(index) };
}

describe("the documented desktop entry, from the packed package, as a host launches it", () => {
  const work = mkdtempSync(join(tmpdir(), "codemode-desktop-entry-"));
  const prefix = join(work, "prefix");
  const home = join(work, "home");
  const elsewhere = join(work, "elsewhere");
  const { args } = documentedEntry();
  const { packages, command } = npxParts(args);

  beforeAll(() => {
    mkdirSync(home);
    mkdirSync(elsewhere);
    // dist/ was built by the global setup; --ignore-scripts keeps prepack from rebuilding it under the other tests.
    const packed = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", work], {
      cwd: root,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1)!;
    // What the entry's -p flags name, at the versions this checkout tests: the packed tarball for ai-codemode.
    const specs = packages.map((name) =>
      name === "ai-codemode" ? join(work, packed) : `${name}@${versions[name] ?? "latest"}`,
    );
    execFileSync(
      "npm",
      [
        "install",
        "--global",
        "--prefix",
        prefix,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
      ].concat(specs),
      { cwd: work, stdio: "ignore" },
    );
  }, 300_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("names the MCP peers with -p (npx does not fetch optional peers) and runs ai-codemode mcp --proxy", () => {
    expect(args[0]).toBe("-y");
    expect(packages).toEqual(["ai-codemode", "@modelcontextprotocol/server", "@ai-sdk/mcp"]);
    expect(command.slice(0, 3)).toEqual(["ai-codemode", "mcp", "--proxy"]);
  });

  it("answers initialize and tools/list while an upstream still hangs (minimal environment, another folder)", async () => {
    const servers = join(work, "servers.json");
    writeFileSync(
      servers,
      JSON.stringify({
        store: `file:${join(work, "codemode.db")}`,
        mcpServers: { hung: { command: process.execPath, args: [SILENT_SERVER] } },
      }),
    );
    // The entry's command after npx's flags, with this test's servers.json for the documented path.
    const [bin, ...rest] = command;
    const entryArgs = [...rest.slice(0, -1), servers];
    const transport = new StdioClientTransport({
      command: "/usr/bin/env",
      args: [
        "-i",
        `PATH=${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/bin:/bin`,
        `HOME=${home}`,
        join(prefix, "bin", bin!),
        ...entryArgs,
      ],
      cwd: elsewhere,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "desktop-host", version: "1.0.0" });
    const began = performance.now();
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const elapsedMs = performance.now() - began;
      // The figure (process start → tools/list answered), reported, not asserted: the machine is shared.
      console.info(`desktop entry: tools/list answered ${Math.round(elapsedMs)} ms after the process started`);
      expect(tools.map((tool) => tool.name)).toContain("codemode");
      const catalog = tools.find((tool) => tool.name === "codemode")?.description ?? "";
      // Answered while the upstream hangs (it is given up only after startTimeoutMs, 30 s).
      expect(catalog).toMatch(/hung: Starting: the MCP server "hung" is still starting/);
    } finally {
      await client.close();
    }
    expect(stderr).not.toMatch(/npm install|Cannot find (module|package)/);
  });
});
