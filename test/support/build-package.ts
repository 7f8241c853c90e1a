/**
 * Vitest global setup of the `dist` project (`vitest.config.ts`): builds `dist/` once before any of its test files
 * runs, so the tests that run examples against the built package (as users get it) never race one another's build.
 * The `unit` project needs no build.
 * `CODEMODE_TEST_SKIP_BUILD=1` keeps an existing `dist/` (a quick run of unit tests while developing).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export default function setup(): void {
  const root = resolve(import.meta.dirname, "../..");
  if (process.env.CODEMODE_TEST_SKIP_BUILD === "1" && existsSync(resolve(root, "dist/index.js"))) return;
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}
