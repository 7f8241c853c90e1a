/**
 * What an install of the package brings: `ai` is the only AI SDK package it depends on (a peer), `@libsql/client`
 * is an optional peer (the package's own drivers open `file:` and plain remote URLs), and what the built code
 * imports is declared. Read from package.json and the source, so a dependency added back fails here first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

interface Manifest {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}

const ROOT = resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The packages `src/` imports (static, dynamic and type-only), by name. */
function importedPackages(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(ROOT, "src"))) {
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (specifier.startsWith(".") || specifier.startsWith("node:")) continue;
      const parts = specifier.split("/");
      names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
    }
  }
  return names;
}

describe("dependencies", () => {
  it("ai is the only AI SDK package, a peer; no @ai-sdk/ package is a dependency", () => {
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith("@ai-sdk/") || name === "ai")).toEqual(
      [],
    );
    expect(manifest.peerDependencies["ai"]).toBeDefined();
    // The MCP proxy's client: an optional peer, loaded only when a proxy starts.
    const aiSdkPeers = Object.keys(manifest.peerDependencies).filter((name) => name.startsWith("@ai-sdk/"));
    for (const name of aiSdkPeers) expect(manifest.peerDependenciesMeta[name]?.optional).toBe(true);
  });

  it("@libsql/client is an optional peer, not a dependency; the embedded driver is a dependency", () => {
    expect(manifest.dependencies["@libsql/client"]).toBeUndefined();
    expect(manifest.peerDependencies["@libsql/client"]).toBeDefined();
    expect(manifest.peerDependenciesMeta["@libsql/client"]?.optional).toBe(true);
    expect(manifest.dependencies["libsql"]).toBeDefined();
  });

  it("every package src/ imports is a dependency or a peer", () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    expect([...importedPackages()].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });
});
