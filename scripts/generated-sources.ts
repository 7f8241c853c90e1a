/**
 * The modules of `src/` that are generated, never committed: the guest modules (`src/sandbox/guest/`) and the
 * inspector page's script (`src/inspector/page/`) and the MCP approval card's (`src/mcp/card/`) bundled to text. Each is declared by a committed `.d.ts` beside
 * it, so type-checking needs no generated file, and made:
 * - by the build, afresh and in memory (`generatedSourcesPlugin`, an esbuild plugin in `tsup.config.ts`);
 * - on disk (git-ignored) by every vitest run (`test/support/generated-sources.ts`) and by `npm run generate`, for
 *   everything that runs the TypeScript sources: tests, the QuickJS worker threads and child processes they start
 *   through tsx, and `tsx bench/…` (`npm run bench` generates first).
 *
 * Run: `node --import tsx scripts/generated-sources.ts` (`npm run generate`).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { bundleGuestSources, guestSourcesModule } from "./guest-sources.js";
import { bundleInspectorPage, inspectorPageSourceModule } from "./inspector-page-sources.js";
import { approvalCardSourceModule, bundleApprovalCard } from "./approval-card-sources.js";

/** A generated module: its path in the repository and how to make its source. */
export interface GeneratedModule {
  path: string;
  source(): Promise<string>;
}

export const GENERATED_MODULES: readonly GeneratedModule[] = [
  { path: "src/sandbox/guest-sources.js", source: async () => guestSourcesModule(await bundleGuestSources()) },
  {
    path: "src/inspector/inspector-page-source.js",
    source: async () => inspectorPageSourceModule(await bundleInspectorPage()),
  },
  { path: "src/mcp/approval-card-source.js", source: async () => approvalCardSourceModule(await bundleApprovalCard()) },
];

const ROOT = new URL("../", import.meta.url);
const absolute = (path: string) => fileURLToPath(new URL(path, ROOT));

/** Writes each generated module that is missing or differs (atomically: a process may be reading it); returns those written. */
export async function writeGeneratedSources(modules: readonly GeneratedModule[] = GENERATED_MODULES): Promise<string[]> {
  const sources = await Promise.all(modules.map((module) => module.source()));
  return modules.flatMap(({ path }, index) => {
    const file = absolute(path);
    const text = sources[index]!;
    let current: string | undefined;
    try {
      current = readFileSync(file, "utf8");
    } catch {
      current = undefined;
    }
    if (current === text) return [];
    writeFileSync(`${file}.${process.pid}.tmp`, text);
    renameSync(`${file}.${process.pid}.tmp`, file);
    return [path];
  });
}

/**
 * The build's esbuild plugin: an import of a generated module resolves to its source made now, whether or not a
 * generated file is on disk. `modules` is a test seam.
 */
export function generatedSourcesPlugin(modules: readonly GeneratedModule[] = GENERATED_MODULES): Plugin {
  const byFile = new Map(modules.map((module) => [absolute(module.path), module]));
  return {
    name: "generated-sources",
    setup(esbuild) {
      esbuild.onResolve({ filter: /\.js$/ }, ({ path, resolveDir }) => {
        if (!path.startsWith(".")) return undefined;
        const file = fileURLToPath(new URL(path, pathToFileURL(`${resolveDir}/`)));
        return byFile.has(file) ? { path: file, namespace: "generated-source" } : undefined;
      });
      esbuild.onLoad({ filter: /.*/, namespace: "generated-source" }, async ({ path }) => ({
        contents: await byFile.get(path)!.source(),
        loader: "js",
      }));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const written = await writeGeneratedSources();
  process.stdout.write(written.length === 0 ? "generated sources are up to date\n" : `wrote ${written.join(", ")}\n`);
}
