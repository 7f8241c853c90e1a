/**
 * Vitest global setup: builds `dist/` once before any test file runs, so the tests that run
 * examples against the built package (as users get it) never race one another's build.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  execFileSync("npm", ["run", "build", "--silent"], {
    cwd: resolve(import.meta.dirname, "../.."),
    stdio: ["ignore", "ignore", "inherit"],
  });
}
