/**
 * The package's version, sent as the MCP server's `serverInfo.version`: `package.json`'s, put in at build time by
 * tsup's `define` (and by vitest's in tests), so there is no second copy to keep in step.
 */
declare const __AI_CODEMODE_VERSION__: string | undefined;

/** `0.0.0-source` only when the sources run unbuilt outside the test runner (e.g. `tsx bench/…`). */
export const PACKAGE_VERSION: string =
  typeof __AI_CODEMODE_VERSION__ === "string" ? __AI_CODEMODE_VERSION__ : "0.0.0-source";
