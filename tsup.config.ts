import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
import { guestSourcesPlugin } from "./scripts/guest-sources.js";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  entry: {
    index: "src/index.ts",
    ui: "src/ui.ts",
    openapi: "src/openapi.ts",
    test: "src/test/index.ts",
    sandbox: "src/sandbox.ts",
    inspector: "src/inspector.ts",
    mcp: "src/mcp.ts",
    // The `ai-codemode` executable (package.json `bin`).
    cli: "src/cli/bin.ts",
    // The QuickJS worker thread's entry, located at run time beside the chunk that starts it.
    "quickjs-worker": "src/sandbox/quickjs-worker.ts",
  },
  format: ["esm"],
  target: "node20",
  platform: "node",
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
  // The sandbox's own JavaScript (`src/sandbox/guest/`) is bundled to text afresh, not read from the committed
  // `guest-sources.ts` (which a test keeps equal to it).
  esbuildPlugins: [guestSourcesPlugin()],
  // The version the MCP server reports (`src/mcp/package-version.ts`), from package.json.
  define: { __AI_CODEMODE_VERSION__: JSON.stringify(version) },
});
