import { defineConfig } from "vitest/config";
import { SummaryReporter } from "./test/support/summary-reporter.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Type tests (`*.test-d.ts`, `expectTypeOf`) of the public generic types run with every `vitest run`.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    globalSetup: ["test/support/build-package.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    retry: 0,
    pool: "forks",
    reporters: ["default", new SummaryReporter()],
  },
});
