import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { defineConfig } from "tsup";
import { generatedSourcesPlugin } from "./scripts/generated-sources.js";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// A function of the command line's options: `tsup --out-dir X` (the executor bench's own build) puts the worker in X too.
export default defineConfig((cli) => ({
  entry: {
    index: "src/index.ts",
    ui: "src/ui.ts",
    openapi: "src/openapi.ts",
    test: "src/test/index.ts",
    sandbox: "src/sandbox.ts",
    inspector: "src/inspector.ts",
    mcp: "src/mcp.ts",
    // Code Mode inside the Workflow SDK (the optional peer `workflow` loads only here).
    workflow: "src/workflow.ts",
    // React hooks (`react` is an optional peer: only this entry imports it).
    react: "src/react.ts",
    // The `ai-codemode` executable (package.json `bin`).
    cli: "src/cli/bin.ts",
  },
  format: ["esm"],
  target: "node22",
  platform: "node",
  // Members tagged `@internal` (the `_internal` test seams of options objects) stay out of the published types.
  dts: { compilerOptions: { stripInternal: true } },
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
  // The sandbox's own JavaScript (`src/sandbox/guest/`) and the inspector page's script, bundled to text now: those
  // modules are generated, not committed (`scripts/generated-sources.ts`).
  esbuildPlugins: [generatedSourcesPlugin()],
  // The version the MCP server reports (`src/mcp/package-version.ts`), from package.json.
  define: { __AI_CODEMODE_VERSION__: JSON.stringify(version) },
  // After the entries (and their `clean`): the QuickJS worker thread's entry.
  onSuccess: () => buildWorker(cli.outDir ?? "dist"),
}));

/**
 * The QuickJS worker thread's entry as one CommonJS file, QuickJS's glue bundled in (`dist/quickjs-worker.cjs`,
 * located at run time beside the chunk that starts it: `src/sandbox/worker/worker-entry.ts`). A worker thread boots with
 * an empty module cache, so every file of an ES module graph costs it a resolution, a read and a compile on the
 * critical path of a cold start: one file started ~25 ms sooner on Node 22 (~18 ms on Node 24) than the same code as
 * six ES modules (docs/decisions/sandbox-executor.md). `quickjs-emscripten-core` and the wasm variant are pinned to
 * one exact version in package.json, so the glue bundled here always matches the `.wasm` file the main thread
 * compiles from `node_modules` and posts to the worker.
 */
async function buildWorker(outdir: string): Promise<void> {
  await build({
    entryPoints: { "quickjs-worker": "src/sandbox/worker/quickjs-worker.ts" },
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node22",
    sourcemap: true,
    logLevel: "warning",
    plugins: [generatedSourcesPlugin()],
    // `compileQuickJSWasm` locates the wasm file from `import.meta.url`; the worker never calls it (its module comes
    // from the main thread), but the name must still mean this file.
    define: { __AI_CODEMODE_VERSION__: JSON.stringify(version), "import.meta.url": "__workerFileUrl" },
    banner: { js: '"use strict";\nconst __workerFileUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
}
