/**
 * The sandbox's own JavaScript is bundled to text once, the same way for the build and for everything that runs
 * from the sources: `src/sandbox/guest/guest-sources.ts` must be exactly what `scripts/guest-sources.ts` makes of
 * `src/sandbox/guest/` now, and the build must bundle it afresh.
 */
import { readdirSync, readFileSync } from "node:fs";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  bundleGuestSources,
  GUEST_MODULES,
  GUEST_SOURCES_FILE,
  guestSourcesModule,
  guestSourcesPlugin,
} from "../../../scripts/guest-sources.js";
import { createSandboxModule } from "../../../src/sandbox/quickjs/quickjs-module-pool.js";
import { GUEST_SOURCES } from "../../../src/sandbox/guest/guest-sources.js";

describe("the guest modules bundled to text", () => {
  it("are each type-checked by `npm run typecheck` (`// @ts-check` first) and bundled from src/sandbox/guest/", () => {
    const folder = new URL("../../../src/sandbox/guest/", import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith(".js"));
    const unchecked = files.filter((name) => !readFileSync(new URL(name, folder), "utf8").startsWith("// @ts-check\n"));
    expect(unchecked).toEqual([]);
    const bundled = new Set<string>(Object.values(GUEST_MODULES).map(({ file }) => file));
    // Every module is a factory bundled to text, or imported by one (guest-types.js holds only JSDoc types).
    const imported = files.filter((name) => !bundled.has(name));
    expect(imported.sort()).toEqual(["guest-types.js", "value-codec.js"]);
  });

  it("are the committed src/sandbox/guest/guest-sources.ts (run `npm run build:guest` after editing src/sandbox/guest/)", async () => {
    const fresh = guestSourcesModule(await bundleGuestSources());
    expect(readFileSync(GUEST_SOURCES_FILE, "utf8")).toBe(fresh);
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

  it("are bundled afresh by the build, not read from the committed file", async () => {
    const result = await build({
      stdin: {
        contents:
          'import { GUEST_SOURCES } from "./src/sandbox/guest/guest-sources.ts"; export const plain = GUEST_SOURCES.plain;',
        resolveDir: new URL("../../..", import.meta.url).pathname,
        loader: "ts",
      },
      bundle: true,
      write: false,
      format: "esm",
      plugins: [
        guestSourcesPlugin({
          bundle: async () =>
            Object.fromEntries(Object.keys(GUEST_MODULES).map((name) => [name, `bundled now: ${name}`])) as never,
        }),
      ],
    });
    expect(result.outputFiles[0]?.text).toContain("bundled now: plain");
  });
});
