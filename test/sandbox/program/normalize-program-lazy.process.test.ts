/**
 * Cold start: the TypeScript stripper (`sucrase`, ~70 ms to import) loads only
 * for a program that is not plain JavaScript. Checked in a fresh process,
 * where `sucrase` (a CommonJS package) shows up in `require.cache` once loaded.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MODULE = fileURLToPath(new URL("../../../src/sandbox/program/normalize-program.ts", import.meta.url));
/** The built package (vitest's global setup builds it). */
const DIST = fileURLToPath(new URL("../../../dist/index.js", import.meta.url));

const CHILD = `
import { createRequire } from "node:module";
const { normalizeProgram } = await import(${JSON.stringify(MODULE)});
const require = createRequire(import.meta.url);
const loaded = () => Object.keys(require.cache).some((path) => path.includes("/node_modules/sucrase/"));
const seen = [loaded()];
for (const program of ["async () => 1", "const x = await f();\\nreturn x", "{ a: 1 }", "\`\`\`js\\n1 + 1\\n\`\`\`"]) {
  if (!(await normalizeProgram(program)).ok) throw new Error("plain JavaScript refused: " + program);
}
seen.push(loaded());
const typed = await normalizeProgram("async () => { const n: number = 1; return n as number; }");
if (!typed.ok) throw new Error(typed.message);
seen.push(loaded());
console.log(JSON.stringify(seen));
`;

describe("normalizeProgram loads the TypeScript stripper lazily", () => {
  it("plain JavaScript programs never load sucrase; the first TypeScript program does", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
      encoding: "utf8",
    });
    expect(JSON.parse(out.trim())).toEqual([false, false, true]);
  });

  it("importing the built package and running a plain JavaScript program does not load sucrase", () => {
    const child = `
      import { createRequire } from "node:module";
      const { QuickJSExecutor } = await import(${JSON.stringify(DIST)});
      const executor = new QuickJSExecutor({ isolation: "in-process" });
      const result = await executor.run({ program: "async () => 1 + 1", bindings: [] });
      await executor.dispose();
      const require = createRequire(import.meta.url);
      console.log(JSON.stringify([result.value, Object.keys(require.cache).some((path) => path.includes("/node_modules/sucrase/"))]));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", child], { encoding: "utf8" });
    expect(JSON.parse(out.trim())).toEqual([2, false]);
  });
});

describe("the parser is imported when an executor is made", () => {
  it("so a first run's parse overlaps the worker's start and the store's opening (acorn resolved with no run)", () => {
    // Resolution hooks see every import; the executor runs nothing, so only a preload can have asked for acorn.
    const child = `
      import { registerHooks } from "node:module";
      const seen = [];
      registerHooks({ resolve(specifier, context, next) { if (specifier === "acorn") seen.push(specifier); return next(specifier, context); } });
      const { QuickJSExecutor } = await import(${JSON.stringify(DIST)});
      const before = seen.length;
      const executor = new QuickJSExecutor({ isolation: "in-process" });
      process.once("beforeExit", () => executor.dispose().then(() => console.log(JSON.stringify([before, seen.length]))));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", child], { encoding: "utf8" });
    expect(JSON.parse(out.trim())).toEqual([0, 1]);
  });
});
