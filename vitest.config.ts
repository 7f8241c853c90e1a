import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { SummaryReporter } from "./test/support/summary-reporter.js";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  // As tsup's `define`: the version the MCP server reports, for the sources the tests import.
  define: { __AI_CODEMODE_VERSION__: JSON.stringify(version) },
  test: {
    include: ["test/**/*.test.ts"],
    // Type tests (`*.test-d.ts`, `expectTypeOf`) of the public generic types run with every `vitest run`.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    // private-tmpdir first: its teardown runs last and fails the run if a test left temp files.
    globalSetup: ["test/support/private-tmpdir.ts", "test/support/generated-sources.ts", "test/support/build-package.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    retry: 0,
    pool: "forks",
    reporters: ["default", new SummaryReporter()],
  },
});
