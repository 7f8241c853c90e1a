/**
 * Vitest global setup: writes the generated modules of `src/` (`scripts/generated-sources.ts`, git-ignored) before
 * any test runs, fresh from their sources, so the tests, the QuickJS worker threads and the tsx child processes they
 * start all read the text the build would bundle. No build: a few esbuild bundles, written only when changed.
 */
import { writeGeneratedSources } from "../../scripts/generated-sources.js";

export default async function setup(): Promise<void> {
  await writeGeneratedSources();
}
