/**
 * The sandbox's own JavaScript is bundled to text the same way for the build and for everything that runs from the
 * sources: the generated `src/sandbox/guest-sources.js` (never committed; vitest's global setup writes it) is what
 * `scripts/guest-sources.ts` makes of `src/sandbox/guest/` now, and the build bundles it afresh, with or without
 * that file on disk.
 */
import { readdirSync, readFileSync } from "node:fs";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { GENERATED_MODULES, generatedSourcesPlugin } from "../../scripts/generated-sources.js";
import { bundleGuestSources, GUEST_MODULES, guestSourcesModule } from "../../scripts/guest-sources.js";
import { createSandboxModule } from "../../src/sandbox/quickjs/quickjs-module-pool.js";
import { GUEST_SOURCES } from "../../src/sandbox/guest-sources.js";

const ROOT = new URL("../..", import.meta.url).pathname;

describe("the guest modules bundled to text", () => {
  it("are each type-checked by `npm run typecheck` (`// @ts-check` first) and bundled from src/sandbox/guest/", () => {
    const folder = new URL("../../src/sandbox/guest/", import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith(".js"));
    const unchecked = files.filter((name) => !readFileSync(new URL(name, folder), "utf8").startsWith("// @ts-check\n"));
    expect(unchecked).toEqual([]);
    const bundled = new Set<string>(Object.values(GUEST_MODULES).map(({ file }) => file));
    // Every module is a factory bundled to text, or imported by one (guest-types.js holds only JSDoc types).
    const imported = files.filter((name) => !bundled.has(name));
    expect(imported.sort()).toEqual(["guest-types.js", "value-codec.js"]);
  });

  it("are the generated src/sandbox/guest-sources.js the sources import, made now and git-ignored", async () => {
    const fresh = guestSourcesModule(await bundleGuestSources());
    expect(readFileSync(new URL("../../src/sandbox/guest-sources.js", import.meta.url), "utf8")).toBe(fresh);
    expect(GENERATED_MODULES.map((module) => module.path)).toContain("src/sandbox/guest-sources.js");
    const ignored = readFileSync(new URL("../../.gitignore", import.meta.url), "utf8").split("\n");
    expect(GENERATED_MODULES.filter((module) => !ignored.includes(module.path))).toEqual([]);
  });

  it("are one expression each whose value is the module's factory, needing no bundler helper", async () => {
    expect(Object.keys(GUEST_SOURCES).sort()).toEqual(Object.keys(GUEST_MODULES).sort());
    const sandbox = await createSandboxModule(32 * 1024 * 1024);
    const runtime = sandbox.module.newRuntime();
    const kinds: Record<string, string> = {};
    for (const [name, text] of Object.entries(GUEST_SOURCES)) {
      expect(text, name).toMatch(/^\(function\(\)\{"use strict";/);
      expect(text, name).not.toMatch(/\b__(defProp|export|toESM|toCommonJS|require|name)\b/);
      const context = runtime.newContext();
      const evaluated = context.evalCode(text, `${name}.js`);
      kinds[name] = evaluated.error ? "error" : context.typeof(evaluated.value);
      evaluated.dispose();
      context.dispose();
    }
    runtime.dispose();
    expect(kinds).toEqual(Object.fromEntries(Object.keys(GUEST_MODULES).map((name) => [name, "function"])));
  });

  it("are bundled afresh by the build's plugin, whatever is on disk", async () => {
    const result = await build({
      stdin: {
        contents:
          'import { GUEST_SOURCES } from "./src/sandbox/guest-sources.js"; export const plain = GUEST_SOURCES.plain;',
        resolveDir: ROOT,
        loader: "ts",
      },
      bundle: true,
      write: false,
      format: "esm",
      plugins: [
        generatedSourcesPlugin([
          {
            path: "src/sandbox/guest-sources.js",
            source: async () =>
              guestSourcesModule(
                Object.fromEntries(Object.keys(GUEST_MODULES).map((name) => [name, `bundled now: ${name}`])) as never,
              ),
          },
        ]),
      ],
    });
    expect(result.outputFiles[0]?.text).toContain("bundled now: plain");
  });

  it("build without a generated file on disk (the plugin resolves the import itself)", async () => {
    const result = await build({
      stdin: {
        contents: 'export { GUEST_SOURCES } from "./src/sandbox/no-such-file.js";',
        resolveDir: ROOT,
        loader: "ts",
      },
      bundle: true,
      write: false,
      format: "esm",
      plugins: [
        generatedSourcesPlugin([
          { path: "src/sandbox/no-such-file.js", source: async () => "export const GUEST_SOURCES = 1;" },
        ]),
      ],
    });
    expect(result.outputFiles[0]?.text).toContain("GUEST_SOURCES = 1");
  });
});
