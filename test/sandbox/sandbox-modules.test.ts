import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import type { CodeRunRequest, CodeRunResult } from "../../src/sandbox/types.js";
import { bundledPackages } from "../support/bundled-modules.js";

const ISOLATIONS = ["in-process", "worker-thread"] as const;

const CSV = "name,team\\nada,core\\nalan,core\\ngrace,ui";

/** A module reaching for everything a host might have left within reach, reporting what it found. */
const HOSTILE = `
const found = {};
for (const name of ["process", "require", "module", "Buffer", "setTimeout", "setInterval", "fetch", "WebAssembly", "std", "os", "__codemode_host"]) {
  found[name] = typeof globalThis[name];
}
found.globals = Object.getOwnPropertyNames(globalThis).sort();
found.importMeta = Object.keys(import.meta ?? {}).sort();
let escaped = "no";
try { escaped = String((() => {}).constructor("return typeof process")()); } catch (error) { escaped = "threw " + error.message; }
found.viaFunction = escaped;
Object.prototype.polluted = "yes";
Array.prototype.map = () => "patched";
globalThis.leftBehind = true;
export default found;
`;

describe.each(ISOLATIONS)("modules in the sandbox (%s)", (isolation) => {
  let executor: QuickJSExecutor;
  let modules: Record<string, string>;
  const run = (program: string, extra: Partial<CodeRunRequest> = {}): Promise<CodeRunResult> =>
    executor.run({ program, bindings: [], modules, ...extra });

  beforeAll(async () => {
    executor = new QuickJSExecutor({ isolation, timeoutMs: 10_000 });
    modules = {
      ...(await bundledPackages()),
      counter: "export const state = { count: 0 }; export function bump() { return ++state.count; }",
      "uses-counter": 'import { bump } from "counter"; export const twice = () => (bump(), bump());',
      "reaches-out": 'import fs from "fs"; export default fs;',
      hostile: HOSTILE,
    };
  });
  afterAll(async () => {
    await executor.dispose();
  });

  it("imports three bundled npm packages statically, and reports the modules it loaded", async () => {
    const result = await run(
      `import { groupBy, sumBy } from "lodash-es";
import { format, addDays } from "date-fns";
import Papa from "papaparse";
const rows = Papa.parse("${CSV}", { header: true }).data;
const teams = groupBy(rows, "team");
return { core: teams.core.length, ui: teams.ui.length, total: sumBy([1, 2, 3], (n) => n), day: format(addDays(new Date(0), 1), "yyyy-MM-dd") };`,
      { environment: { epochMs: 0, randomSeed: "s" } },
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ core: 2, ui: 1, total: 6, day: "1970-01-02" });
    expect(result.modules).toEqual(["lodash-es", "date-fns", "papaparse"]);
  });

  it("imports with await import() and in an async arrow function", async () => {
    const dynamic = await run(`const { chunk } = await import("lodash-es");\nchunk([1, 2, 3, 4, 5], 2)`);
    expect(dynamic.value).toEqual([[1, 2], [3, 4], [5]]);
    const arrow = await run(
      `import { differenceInCalendarDays, parseISO } from "date-fns";\nasync () => differenceInCalendarDays(parseISO("2024-03-01"), parseISO("2024-02-01"))`,
    );
    expect(arrow.value).toBe(29);
    const expression = await run(`(await import("papaparse")).default.parse("a,b\\n1,2").data`);
    expect(expression.value).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("runs TypeScript programs that import modules (types-only imports are dropped)", async () => {
    const result = await run(
      `import type { Something } from "not-a-module";
import { sortBy, uniq } from "lodash-es";
interface Person { name: string; age: number }
const people: Person[] = [{ name: "b", age: 3 }, { name: "a", age: 1 }];
const names: string[] = sortBy(people, (p: Person) => p.age).map((p) => p.name);
return uniq([...names, ...names]) as string[];`,
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual(["a", "b"]);
    expect(result.modules).toEqual(["lodash-es"]);
  });

  it("lets a module import another given module, and nothing else", async () => {
    expect((await run('import { twice } from "uses-counter";\ntwice()')).value).toBe(2);
    const reaching = await run('import fs from "reaches-out";\nfs');
    expect(reaching.error?.message).toContain('Cannot import "fs"');
  });

  it.each([
    "fs",
    "node:fs",
    "https://esm.sh/lodash-es",
    "./lodash-es",
    "/lodash-es",
    "lodash",
    "__proto__",
    "constructor",
  ])("refuses %s, listing what is available", async (specifier) => {
    for (const program of [
      `import x from ${JSON.stringify(specifier)};\nx`,
      `await import(${JSON.stringify(specifier)})`,
    ]) {
      const result = await run(program);
      expect(result.error?.kind).toBe("exception");
      expect(result.error?.message).toContain(`Cannot import ${JSON.stringify(specifier)}`);
      expect(result.error?.message).toContain('"lodash-es", "date-fns", "papaparse"');
    }
  });

  it("says no modules are available when none were given", async () => {
    const result = await run('import { readFileSync } from "fs";\nreadFileSync', { modules: {} });
    expect(result.error?.message).toContain("no modules are available");
    const without = await executor.run({ program: 'await import("lodash-es")', bindings: [] });
    expect(without.error?.message).toContain('Cannot import "lodash-es": no modules are available');
  });

  it("an import built at run time (eval) is told it is not supported, not that no modules exist", async () => {
    for (const program of [
      'await eval("imp" + "ort(\\"lodash-es\\")")',
      'const name = "date-fns"; await eval("imp" + "ort(name)")',
    ]) {
      const result = await run(program);
      expect(result.error?.kind).toBe("exception");
      expect(result.error?.message).not.toContain("no modules are available");
      expect(result.error?.message).toMatch(
        /an import built while the program runs \(through eval, new Function or a computed string\) is not supported/,
      );
      expect(result.error?.message).toContain('"lodash-es", "date-fns", "papaparse"');
    }
    // Written in the program's text, the same import works.
    const written = await run('const { groupBy } = await import("lodash-es"); return typeof groupBy');
    expect(written.value).toBe("function");
  });

  it("gives a hostile module nothing a program lacks, and its damage ends with the run", async () => {
    const seen = await run('import found from "hostile";\nfound');
    const own = await run(
      "({ globals: Object.getOwnPropertyNames(globalThis).filter((name) => name !== 'polluted' && name !== 'leftBehind').sort(), process: typeof process, setTimeout: typeof setTimeout, require: typeof require, fetch: typeof fetch })",
    );
    expect(seen.error).toBeUndefined();
    const found = seen.value as Record<string, unknown>;
    const program = own.value as Record<string, unknown>;
    // The module saw exactly the program's globals, and no host object, timer, Node or `codemode` internal.
    expect(found.globals).toEqual(program.globals);
    for (const name of [
      "process",
      "require",
      "module",
      "Buffer",
      "setTimeout",
      "setInterval",
      "fetch",
      "WebAssembly",
      "std",
      "os",
      "__codemode_host",
    ]) {
      expect(found[name], name).toBe("undefined");
    }
    expect(found.viaFunction).toBe("undefined");
    expect(found.importMeta).toEqual([]);
    // What it patched is gone in the next run (a fresh context), imported or not.
    const after = await run("({ polluted: ({}).polluted, map: [1].map((n) => n + 1), leftBehind: typeof leftBehind })");
    expect(after.value).toEqual({ polluted: undefined, map: [2], leftBehind: "undefined" });
  });

  it("gives each run fresh module instances: a program's mutations do not leak into the next run", async () => {
    const first = await run('import { state, bump } from "counter";\nbump(); bump(); state.count += 10; state.count');
    expect(first.value).toBe(12);
    const second = await run('import { bump } from "counter";\nbump()');
    expect(second.value).toBe(1);
    const patched = await run('import Papa from "papaparse";\nPapa.parse = () => "hijacked";\nPapa.parse("a")');
    expect(patched.value).toBe("hijacked");
    const clean = await run('import Papa from "papaparse";\nPapa.parse("a,b").data');
    expect(clean.value).toEqual([["a", "b"]]);
  });

  it("loads nothing for a program that imports nothing", async () => {
    const result = await run("1 + 1");
    expect(result.value).toBe(2);
    expect(result.modules).toBeUndefined();
  });

  it("keeps the program's line numbers in errors after its imports", async () => {
    const result = await run('import { chunk } from "lodash-es";\n\nthrow new Error("on line 3");');
    expect(result.error?.message).toContain("on line 3");
    const syntax = await run('import { chunk } from "lodash-es";\nconst = 1;');
    expect(syntax.error?.message).toMatch(/SyntaxError/);
  });
});
