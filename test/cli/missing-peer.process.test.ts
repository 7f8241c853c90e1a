/**
 * `ai-codemode mcp` without its optional peers: the built CLI, in a fresh process whose resolve hook makes the
 * peers unresolvable from the package (as when they are not installed), names each missing package once and the
 * command that installs them, instead of Node's "Cannot find package" from a hashed chunk. `import("ai-codemode/mcp")`
 * has static exports (so editors show their documentation): there Node's own error names the package.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingPackage } from "../../src/shared/missing-peer.js";

const DIST = pathToFileURL(resolve("dist")).href;

/** Node's own error for a package that is not installed, for the specifiers listed in MISSING. */
const HOOKS = `
export async function resolve(specifier, context, next) {
  const fromPackage = (context.parentURL ?? "").startsWith(${JSON.stringify(DIST)});
  const missing = (process.env.MISSING ?? "").split(",").filter(Boolean);
  const name = missing.find((peer) => specifier === peer || specifier.startsWith(peer + "/"));
  if (fromPackage && name !== undefined) {
    const error = new Error("Cannot find package '" + name + "' imported from " + context.parentURL);
    throw Object.assign(error, { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}
`;

let folder = "";

function mcpCommand(args: string[], missing: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(
    process.execPath,
    ["--import", pathToFileURL(join(folder, "register.mjs")).href, resolve("dist/cli.js"), "mcp", ...args],
    { cwd: folder, env: { ...process.env, MISSING: missing.join(",") }, encoding: "utf8", timeout: 60_000 },
  );
  return { status: result.status, stderr: result.stderr };
}

function count(text: string, word: string): number {
  return text.split(word).length - 1;
}

describe("ai-codemode mcp without its optional peers", () => {
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "codemode-missing-peer-"));
    writeFileSync(join(folder, "hooks.mjs"), HOOKS);
    writeFileSync(
      join(folder, "register.mjs"),
      `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(join(folder, "hooks.mjs")).href)});`,
    );
    writeFileSync(join(folder, "runtime.mjs"), "export const runtime = {};\n");
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("names @modelcontextprotocol/server once, with the install command", () => {
    const { status, stderr } = mcpCommand(["--runtime", "./runtime.mjs"], ["@modelcontextprotocol/server"]);
    expect(status).not.toBe(0);
    expect(stderr).toContain(
      "ai-codemode mcp needs @modelcontextprotocol/server, which is not installed: npm install @modelcontextprotocol/server",
    );
    expect(stderr).not.toMatch(/chunk-|mcp-command-/);
  });

  it("with --proxy, names only the missing @ai-sdk/mcp, once", () => {
    writeFileSync(join(folder, "servers.json"), JSON.stringify({ mcpServers: {} }));
    const { status, stderr } = mcpCommand(["--proxy", "./servers.json"], ["@ai-sdk/mcp"]);
    expect(status).not.toBe(0);
    expect(stderr).toContain(
      "ai-codemode mcp --proxy needs @ai-sdk/mcp, which is not installed: npm install @ai-sdk/mcp",
    );
    expect(count(stderr, "@ai-sdk/mcp")).toBe(2);
    expect(stderr).not.toContain("@modelcontextprotocol/server");
  });

  it("with --proxy and neither installed, names both once and installs both", () => {
    const { stderr } = mcpCommand(["--proxy", "./servers.json"], ["@modelcontextprotocol/server", "@ai-sdk/mcp"]);
    expect(stderr).toContain(
      "needs @modelcontextprotocol/server and @ai-sdk/mcp, which are not installed: npm install @modelcontextprotocol/server @ai-sdk/mcp",
    );
  });

  it("import('ai-codemode/mcp') fails with Node's own error naming @modelcontextprotocol/server (its exports are static)", () => {
    const entry = pathToFileURL(resolve("dist/mcp.js")).href;
    const result = spawnSync(
      process.execPath,
      [
        "--import",
        pathToFileURL(join(folder, "register.mjs")).href,
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(entry)});`,
      ],
      {
        cwd: folder,
        env: { ...process.env, MISSING: "@modelcontextprotocol/server" },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("ERR_MODULE_NOT_FOUND");
    expect(result.stderr).toContain("Cannot find package '@modelcontextprotocol/server'");
  });

  it("only a missing package counts as missing", () => {
    const missingSdk = Object.assign(new Error("Cannot find package '@ai-sdk/mcp' imported from /x/chunk-A1.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    expect(missingPackage(missingSdk, ["@ai-sdk/mcp"])).toBe("@ai-sdk/mcp");
    expect(missingPackage(missingSdk, ["@modelcontextprotocol/server"])).toBeUndefined();
    expect(missingPackage(new SyntaxError("Unexpected token"), ["@ai-sdk/mcp"])).toBeUndefined();
  });
});
