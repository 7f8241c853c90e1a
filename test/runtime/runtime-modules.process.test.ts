import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import {
  MAX_MODULE_SOURCE_CHARS,
  MAX_MODULES,
  MAX_TOTAL_MODULE_SOURCE_CHARS,
  resolveModules,
} from "../../src/runtime/runtime-modules.js";
import { moduleDivergence, nextModuleRecord } from "../../src/runtime/journal/module-record.js";
import type { CodeModeOutput } from "../../src/runtime/types.js";
import { bundledPackages } from "../support/bundled-modules.js";
import { tempFolder } from "../support/temp-folder.js";
import { workerStarter, workerWorkspace } from "./fixtures/worker-workspace.js";
import { memoryStoreRuntime, testRuntime } from "./runtime-fixture.js";

const startWorker = workerStarter();

function refused(modules: unknown): string {
  try {
    resolveModules(modules);
  } catch (error) {
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected the modules to be refused");
}

describe("the modules option", () => {
  it("refuses what is not a bare name or not source, and what passes the size limits, naming the module", () => {
    expect(refused("x")).toContain("modules must be an object");
    for (const specifier of ["./local", "/abs", "https://esm.sh/x", "node:fs", "", "a b"]) {
      expect(refused({ [specifier]: "export {}" })).toContain("is not a bare module name");
    }
    expect(refused({ lodash: 42 })).toContain('modules["lodash"] must be ES module source text');
    expect(refused({ lodash: { types: "" } })).toContain('modules["lodash"] must be ES module source text');
    expect(refused({ lodash: { source: "", types: 1 } })).toContain('modules["lodash"].types must be a string');
    expect(refused({ big: "x".repeat(MAX_MODULE_SOURCE_CHARS + 1) })).toMatch(
      /modules\["big"\] is 2,000,001 characters; the limit is 2,000,000/,
    );
    const many = Object.fromEntries(Array.from({ length: MAX_MODULES + 1 }, (_, index) => [`m${index}`, ""]));
    expect(refused(many)).toContain(`at most ${MAX_MODULES}`);
    const chunk = "x".repeat(MAX_MODULE_SOURCE_CHARS);
    const total = Object.fromEntries(
      Array.from({ length: MAX_TOTAL_MODULE_SOURCE_CHARS / MAX_MODULE_SOURCE_CHARS + 1 }, (_, index) => [
        `m${index}`,
        chunk,
      ]),
    );
    expect(refused(total)).toContain("characters of source together");
    expect(() => testRuntime({ modules: { "../up": "export {}" } })).toThrow(
      /modules\["\.\.\/up"\] is not a bare module name/,
    );
  });

  it("accepts scoped and nested names, hashing each source", () => {
    const resolved = resolveModules({
      "@acme/util": "export const a = 1;",
      "date-fns/locale": { source: "", types: "export {};" },
    });
    expect(Object.keys(resolved.sources)).toEqual(["@acme/util", "date-fns/locale"]);
    expect(resolved.hashes.get("@acme/util")).toMatch(/^[0-9a-f]{64}$/);
    expect(resolved.types.get("date-fns/locale")).toBe("export {};");
  });

  it("records the modules a pass imported and names a changed or missing one as a divergence", () => {
    const before = resolveModules({ a: "export const v = 1;", b: "export const v = 2;" });
    const record = nextModuleRecord(undefined, ["a"], before);
    expect(record).toBeDefined();
    expect(nextModuleRecord(record, ["a"], before)).toBeUndefined();
    expect(moduleDivergence(record, before)).toBeUndefined();
    // b was never imported: changing it is not a divergence.
    expect(moduleDivergence(record, resolveModules({ a: "export const v = 1;", b: "changed" }))).toBeUndefined();
    expect(moduleDivergence(record, resolveModules({ a: "export const v = 10;" }))).toMatchObject({
      kind: "divergence",
      error: expect.stringContaining('the module "a" it imported has changed'),
    });
    expect(moduleDivergence(record, resolveModules({}))?.error).toContain('"a" it imported is no longer among');
  });

  it("runs programs that import bundled packages through the runtime, and lets describe and search find them", async () => {
    const packages = await bundledPackages();
    const runtime = memoryStoreRuntime({
      modules: {
        "lodash-es": {
          source: packages["lodash-es"],
          types:
            "/** Groups items by a key. */\nexport function groupBy<T>(items: T[], key: string | ((item: T) => unknown)): Record<string, T[]>;",
        },
        papaparse: packages.papaparse,
      },
    });
    const output = await runtime.execute({
      code: 'import { groupBy } from "lodash-es";\nimport Papa from "papaparse";\nconst rows = Papa.parse("k\\na\\nb\\na", { header: true }).data;\nObject.keys(groupBy(rows, "k"))',
    });
    expect(output).toMatchObject({ status: "completed", result: ["a", "b"] });
    const described = await runtime.describe("lodash-es");
    expect(described).toMatchObject({ path: "lodash-es", kind: "module" });
    expect((described as { types: string }).types).toContain('declare module "lodash-es"');
    expect((described as { types: string }).types).toContain("groupBy<T>");
    const all = (await runtime.describe("modules")) as { types: string };
    expect(all.types).toContain('declare module "lodash-es"');
    expect(all.types).toContain('declare module "papaparse"');
    // The source itself never reaches the model through describe.
    expect(all.types).not.toContain(packages.papaparse.slice(0, 200));
    const found = await runtime.search("group items by key");
    expect(found.results.map((result) => result.path)).toContain("lodash-es");
    const inSandbox = await runtime.execute({ code: 'await codemode.describe("papaparse")' });
    expect(inSandbox).toMatchObject({ status: "completed", result: { path: "papaparse", kind: "module" } });
  });

  it("runs a saved snippet that imports a module from a program that does not", async () => {
    const runtime = testRuntime({ modules: { tiny: "export const twice = (n) => n * 2;" } });
    const source = await runtime.execute({ code: 'import { twice } from "tiny";\ntwice(input?.n ?? 1)' });
    expect(source).toMatchObject({ status: "completed", result: 2 });
    await runtime.saveSnippet("double", { executionId: source.executionId });
    const out = await runtime.execute({ code: 'await codemode.run("double", { n: 21 })' });
    expect(out).toMatchObject({ status: "completed", result: 42 });
  });

  it("fails an import of what the app did not give, listing what it did", async () => {
    const runtime = testRuntime({ modules: { tiny: "export const one = 1;" } });
    const output = await runtime.execute({
      code: 'import { readFileSync } from "node:fs";\nreadFileSync("/etc/passwd")',
    });
    expect(output).toMatchObject({ status: "error", error: expect.stringContaining('Cannot import "node:fs"') });
    expect((output as { error: string }).error).toContain('"tiny"');
  });
});

describe("modules across real processes", { timeout: 180_000 }, () => {
  const PROGRAM = `import { price } from "pricing";
async () => {
  const q = await shop.quote({ item: "lamp" });
  const c = await shop.charge({ amount: price(q.price) });
  return { charged: c.charged };
}`;

  function workspaceWith(version: string): { env: Record<string, string>; write: (version: string) => void } {
    const folder = tempFolder("codemode-modules-");
    const modulesFile = join(folder, "modules.json");
    const write = (markup: string): void =>
      writeFileSync(
        modulesFile,
        JSON.stringify({ pricing: `export const price = (base) => base * ${markup};`, unused: "export {};" }),
      );
    write(version);
    const { env } = workerWorkspace(`file:${join(folder, "codemode.db")}`, join(folder, "ledger.jsonl"));
    return { env: { ...env, MODULES_FILE: modulesFile }, write };
  }

  it("resumes in another process with the same modules, and diverges there when a module it imported changed", async () => {
    const same = workspaceWith("2");
    const a = await startWorker(same.env);
    const paused = await a.request<CodeModeOutput>("execute", { code: PROGRAM });
    expect(paused).toMatchObject({ status: "paused", pending: [{ method: "charge", args: { amount: 80 } }] });
    await a.exit();
    const b = await startWorker(same.env);
    expect(await b.request<CodeModeOutput>("approve", { executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: { charged: 80 },
    });
    await b.exit();

    const changed = workspaceWith("2");
    const c = await startWorker(changed.env);
    const second = await c.request<CodeModeOutput>("execute", { code: PROGRAM });
    expect(second.status).toBe("paused");
    await c.exit();
    changed.write("3");
    const d = await startWorker(changed.env);
    const resumed = await d.request<CodeModeOutput>("approve", { executionId: second.executionId });
    expect(resumed).toMatchObject({ status: "error", kind: "divergence" });
    expect((resumed as { error: string }).error).toContain('the module "pricing" it imported has changed');
  });
});
