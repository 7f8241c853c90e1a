/**
 * The inspector's browser script is checked modules (`src/inspector/page/`) bundled to text: the generated
 * `src/inspector/inspector-page-source.js` (never committed; vitest's global setup writes it, the build bundles it
 * afresh) is what `scripts/inspector-page-sources.ts` makes of them now, every module is `// @ts-check`ed, and the
 * page's script is that text started with the time axis.
 */
import { readdirSync, readFileSync } from "node:fs";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { GENERATED_MODULES, generatedSourcesPlugin } from "../../scripts/generated-sources.js";
import { bundleInspectorPage, inspectorPageSourceModule } from "../../scripts/inspector-page-sources.js";
import { INSPECTOR_PAGE_SOURCE } from "../../src/inspector/inspector-page-source.js";
import { INSPECTOR_SCRIPT } from "../../src/inspector/inspector-page-script.js";
import { timelineScale } from "../../src/inspector/timeline-scale.js";

describe("the inspector page's script", () => {
  it("is modules type-checked by `npm run typecheck` (`// @ts-check` first)", () => {
    const folder = new URL("../../src/inspector/page/", import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith(".js"));
    expect(files.length).toBeGreaterThan(3);
    const unchecked = files.filter((name) => !readFileSync(new URL(name, folder), "utf8").startsWith("// @ts-check\n"));
    expect(unchecked).toEqual([]);
  });

  it("is the generated src/inspector/inspector-page-source.js the sources import, made now", async () => {
    const fresh = inspectorPageSourceModule(await bundleInspectorPage());
    expect(readFileSync(new URL("../../src/inspector/inspector-page-source.js", import.meta.url), "utf8")).toBe(fresh);
  });

  it("is bundled afresh by the build's plugin", async () => {
    const page = GENERATED_MODULES.find((module) => module.path === "src/inspector/inspector-page-source.js")!;
    const result = await build({
      stdin: {
        contents: 'export { INSPECTOR_PAGE_SOURCE } from "./src/inspector/inspector-page-source.js";',
        resolveDir: new URL("../..", import.meta.url).pathname,
        loader: "ts",
      },
      bundle: true,
      write: false,
      format: "esm",
      plugins: [generatedSourcesPlugin([{ ...page, source: async () => inspectorPageSourceModule("bundled now") }])],
    });
    expect(result.outputFiles[0]?.text).toContain('"bundled now"');
  });

  it("is that text started with the time axis's source, one strict script with no bundler helper", () => {
    expect(INSPECTOR_SCRIPT).toBe(`"use strict";\n${INSPECTOR_PAGE_SOURCE}(${timelineScale.toString()});\n`);
    expect(INSPECTOR_PAGE_SOURCE).toMatch(/^\(function\(\)\{"use strict";/);
    expect(INSPECTOR_PAGE_SOURCE).not.toMatch(/\b__(defProp|export|toESM|toCommonJS|require|name)\b/);
    // It parses as a script (the page has no module loader).
    expect(() => new Function(INSPECTOR_SCRIPT)).not.toThrow();
  });
});
