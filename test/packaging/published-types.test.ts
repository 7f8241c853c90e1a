/**
 * What a user's editor reads: the built declarations (`dist/*.d.ts`) show plain option interfaces, never the
 * validator behind them (`OptionsOf`, `OptionField`, `ResolvedOf`), the `_internal` test seams, or a re-export
 * typed as `typeof` another value (which hides the function's own documentation).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The built package (vitest's global setup builds it). */
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));

function declarations(): Array<{ file: string; text: string }> {
  return readdirSync(DIST)
    .filter((file) => file.endsWith(".d.ts"))
    .map((file) => ({ file, text: readFileSync(`${DIST}${file}`, "utf8") }));
}

/** Lines of the declarations matching `pattern`, as `file:line: text`. */
function offending(pattern: RegExp): string[] {
  return declarations().flatMap(({ file, text }) =>
    text.split("\n").flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe("the published declarations", () => {
  it("exist for every entry", () => {
    const files = declarations().map(({ file }) => file);
    for (const entry of ["index", "ui", "openapi", "test", "sandbox", "inspector", "mcp", "react"])
      expect(files).toContain(`${entry}.d.ts`);
  });

  it("name no validator type and no _internal test seam", () => {
    expect(offending(/\b(OptionsOf|OptionField|OptionFieldsFor|ResolvedOf|DeclaredOptions)\b|_internal/)).toEqual([]);
  });

  it("re-export no value as `typeof` another (each export is declared with its own documentation)", () => {
    expect(offending(/declare const \w+\s*:\s*typeof\b|:\s*typeof\s+\w+\.\w+\s*;/)).toEqual([]);
  });

  it("keep each option's documentation and default (the runtime's timeoutMs as an example)", () => {
    const all = declarations()
      .map(({ text }) => text)
      .join("\n");
    expect(all).toMatch(
      /Wall-clock budget of one run, in milliseconds\.\s*\n\s*\* @default 30_000\s*\n\s*\*\/\s*\n\s*timeoutMs\?: number;/,
    );
  });
});
