/**
 * What each built entry point loads: the static import closure of `dist/<entry>.js` (its chunks,
 * followed through their relative imports) and the packages it names. `ai-codemode/ui` runs in
 * route handlers next to a chat and is often bundled for the browser too: it must not pull the
 * sandbox, the store drivers or the search ranker. Dynamic `import()`s (drivers, sucrase, acorn)
 * are not followed: they load on first use.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The built package (vitest's global setup builds it). */
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));

/** Packages named by static imports anywhere in the closure of `entry`. */
function staticPackages(entry: string): string[] {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(`${DIST}${file}`, "utf8");
    for (const match of source.matchAll(
      /^(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm,
    )) {
      const specifier = match[1] ?? match[2] ?? "";
      if (specifier.startsWith("./")) visit(specifier.slice(2));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return [...packages].sort();
}

describe("entry points load only what they need", () => {
  it("ai-codemode/ui imports nothing but ai (no sandbox, store driver or search ranker)", () => {
    expect(staticPackages("ui.js")).toEqual(["ai"]);
  });

  it("the main entry loads the sandbox, not the parser, the validator or a driver (those load on first use)", () => {
    const packages = staticPackages("index.js");
    expect(packages).toContain("quickjs-emscripten-core");
    for (const lazy of ["acorn", "@cfworker/json-schema", "sucrase", "libsql", "@libsql/client"])
      expect(packages).not.toContain(lazy);
  });

  it("only ai-codemode/mcp loads the MCP SDK (an optional peer); @ai-sdk/mcp loads when a proxy starts a server", () => {
    for (const entry of ["index.js", "ui.js", "inspector.js", "openapi.js", "sandbox.js", "test.js", "cli.js"]) {
      const packages = staticPackages(entry);
      expect(packages.filter((name) => name.startsWith("@modelcontextprotocol/") || name === "@ai-sdk/mcp")).toEqual(
        [],
      );
    }
    // ai-codemode/mcp exports its functions statically (so editors show their documentation): the SDK is in the
    // entry's static closure; @ai-sdk/mcp still loads when a proxy starts a server.
    const mcp = staticPackages("mcp.js");
    expect(mcp).toContain("@modelcontextprotocol/server");
    expect(mcp.filter((name) => name.startsWith("@modelcontextprotocol/sdk"))).toEqual([]);
    expect(mcp).not.toContain("@ai-sdk/mcp");
  });

  it("only ai-codemode/react loads React (an optional peer), and it loads nothing else: no sandbox, store or ai", () => {
    for (const entry of [
      "index.js",
      "ui.js",
      "inspector.js",
      "openapi.js",
      "sandbox.js",
      "test.js",
      "cli.js",
      "mcp.js",
    ]) {
      const packages = staticPackages(entry);
      const react = packages.filter((name) =>
        ["react", "react-dom", "@ai-sdk/react"].some((peer) => name === peer || name.startsWith(`${peer}/`)),
      );
      expect(react, entry).toEqual([]);
    }
    expect(staticPackages("react.js")).toEqual(["react"]);
  });

  it("no entry imports @opentelemetry/api statically (an optional peer, loaded once a tracer provider is registered)", () => {
    for (const entry of [
      "index.js",
      "ui.js",
      "openapi.js",
      "test.js",
      "sandbox.js",
      "inspector.js",
      "cli.js",
      "mcp.js",
    ])
      expect(staticPackages(entry), entry).not.toContain("@opentelemetry/api");
  });
});
