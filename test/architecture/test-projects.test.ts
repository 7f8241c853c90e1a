/**
 * The `unit` project needs no build and starts no process (`test/support/test-projects.ts`): no test file in it, nor
 * a test helper it imports, imports `node:child_process`, starts an MCP server over stdio or names the built package
 * (`dist/`). A test that does belongs in the `dist` project: name it `*.process.test.ts`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DIST_TESTS, isDistTest, PROCESS_TEST_SUFFIX } from "../support/test-projects.js";

const ROOT = resolve(import.meta.dirname, "../..");

function files(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    return entry.isDirectory() ? files(path) : [path];
  });
}

const TEST_FILES = files("test").filter((path) => path.endsWith(".test.ts"));

/** What starts a process or needs the build, with a name for the report. */
const MARKERS: Array<[string, RegExp]> = [
  [
    "node:child_process",
    /^import\s+(?!type\b)[^;]*from\s+["']node:child_process["']|import\(["']node:child_process["']\)/m,
  ],
  ["an MCP server over stdio", /^import\s+\{[^}]*\b(StdioClientTransport|Experimental_StdioMCPTransport)\b[^}]*\}/m],
  ["the built package", /["'`(](\.\.?\/)*dist(\/|["'`])/],
];

/** Each marker found in `file` or in a helper under test/ it imports (transitively), as `marker (in helper)`. */
function markersOf(file: string, seen = new Set<string>()): string[] {
  // A specifier inside a sample program's text names no file here.
  if (seen.has(file) || !existsSync(join(ROOT, file))) return [];
  seen.add(file);
  // Comments may name anything; only code counts.
  const text = readFileSync(join(ROOT, file), "utf8").replace(/^\s*\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  const found = MARKERS.filter(([, pattern]) => pattern.test(text)).map(([name]) => `${name} (in ${file})`);
  for (const [, specifier] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']/gm)) {
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), specifier!)).replace(/\.js$/, ".ts");
    if (target.startsWith("test/") && !isDistTest(target)) found.push(...markersOf(target, seen));
  }
  return found;
}

describe("the vitest projects", () => {
  it("put the packaging, examples, scripts and *.process.test.ts files in the dist project, every other test in unit", () => {
    const dist = TEST_FILES.filter(isDistTest);
    expect(dist).toContain("test/packaging/entry-imports.test.ts");
    expect(dist).toContain(`test/cli/bin${PROCESS_TEST_SUFFIX}`);
    expect(dist.length).toBeGreaterThan(30);
    expect(TEST_FILES.filter((path) => !isDistTest(path))).toContain("test/architecture/test-projects.test.ts");
    expect(DIST_TESTS).toContain(`test/**/*${PROCESS_TEST_SUFFIX}`);
  });

  it("find what they look for (so an empty list below means something)", () => {
    expect(markersOf(`test/cli/bin${PROCESS_TEST_SUFFIX}`)).toContain(
      `node:child_process (in test/cli/bin${PROCESS_TEST_SUFFIX})`,
    );
    expect(markersOf("test/packaging/entry-imports.test.ts").join()).toContain("the built package");
  });

  it("leave the unit project needing no build and starting no process", () => {
    const offending = TEST_FILES.filter((path) => !isDistTest(path)).flatMap((path) =>
      markersOf(path).map((marker) => `${path}: ${marker}`),
    );
    expect(offending).toEqual([]);
  });
});
