/**
 * Which vitest project a test file belongs to (`vitest.config.ts`). The `dist` project holds the tests of the package
 * as users get it and the tests that start processes; its global setup builds `dist/` once. Every other test is in
 * the `unit` project, which needs no build (`npx vitest run --project unit`). The rule, by path:
 * - every test under the folders below: the packaging and examples tests, and the scripts that read `dist/` (the API
 *   report, the README's samples);
 * - elsewhere, a test file that starts a process (the CLI, a tsx child, an MCP server over stdio, a browser) is named
 *   `*.process.test.ts`. `test/architecture/test-projects.test.ts` checks that no unit test starts one or reads `dist/`.
 */

/** Folders whose every test is in the `dist` project. */
export const DIST_FOLDERS = ["test/packaging/", "test/examples/", "test/scripts/"] as const;

/** The name ending of a test file that starts processes. */
export const PROCESS_TEST_SUFFIX = ".process.test.ts";

/** The `dist` project's files, as globs. */
export const DIST_TESTS: string[] = [
  ...DIST_FOLDERS.map((folder) => `${folder}**/*.test.ts`),
  `test/**/*${PROCESS_TEST_SUFFIX}`,
];

/** Whether a test file (a path relative to the repository, `/`-separated) is in the `dist` project. */
export function isDistTest(path: string): boolean {
  return DIST_FOLDERS.some((folder) => path.startsWith(folder)) || path.endsWith(PROCESS_TEST_SUFFIX);
}
