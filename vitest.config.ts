import { readFileSync } from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";
import { SummaryReporter } from "./test/support/summary-reporter.js";
import { DIST_TESTS } from "./test/support/test-projects.js";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

/** What both projects share. */
const common = {
  // As tsup's `define`: the version the MCP server reports, for the sources the tests import.
  define: { __AI_CODEMODE_VERSION__: JSON.stringify(version) },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    retry: 0,
    pool: "forks",
  },
} as const;

// Two projects (`test/support/test-projects.ts` says which file goes where): `unit` needs no build
// (`npx vitest run --project unit`); `dist` holds the packaging, examples and process tests and builds `dist/` once.
// A bare `vitest run` (the end of `npm test`) runs both.
export default defineConfig({
  test: {
    // Run once per vitest run, whichever projects run. private-tmpdir first: its teardown runs last and fails the run if
    // a test left temp files. Then the generated modules of src/ (guest and inspector page texts), written fresh.
    globalSetup: ["test/support/private-tmpdir.ts", "test/support/generated-sources.ts"],
    reporters: ["default", new SummaryReporter()],
    projects: [
      {
        ...common,
        test: {
          ...common.test,
          name: "unit",
          // `.test.tsx`: React hook and component tests (each file opts into jsdom with `// @vitest-environment jsdom`).
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: [...configDefaults.exclude, ...DIST_TESTS],
          // Type tests (`*.test-d.ts`, `expectTypeOf`) of the public generic types.
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
        },
      },
      {
        ...common,
        test: {
          ...common.test,
          name: "dist",
          include: DIST_TESTS,
          globalSetup: ["test/support/build-package.ts"],
        },
      },
    ],
  },
});
