import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import {
  MAX_MODULE_SOURCE_CHARS,
  MAX_MODULES,
  MAX_TOTAL_MODULE_SOURCE_CHARS,
  resolveModules,
} from "../../src/runtime/modules-option.js";
import { nextModuleRecord, pinnedModules } from "../../src/runtime/journal/module-record.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { bundledPackages } from "../support/bundled-modules.js";
import { tempFolder } from "../support/temp-folder.js";
import { workerStarter, workerWorkspace } from "./fixtures/worker-workspace.js";
import { memoryClient, memoryStoreRuntime, testRuntime } from "./runtime-fixture.js";

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

  it("records the modules a pass imported with their sources, and pins them for a resumed pass", async () => {
    const before = resolveModules({ a: "export const v = 1;", b: "export const v = 2;" });
    const record = nextModuleRecord(undefined, ["a", "a"], before);
    expect(record?.sources).toEqual([{ digest: before.hashes.get("a"), source: "export const v = 1;" }]);
    expect(nextModuleRecord(record?.text, ["a"], before)).toBeUndefined();
    const kept = new Map(record?.sources.map(({ digest, source }) => [digest, source]));
    const read = async (digests: string[]) => new Map(digests.flatMap((d) => (kept.has(d) ? [[d, kept.get(d)!]] : [])));
    // Unchanged: the current modules, nothing read.
    const same = await pinnedModules(record?.text, before, () => Promise.reject(new Error("not read")));
    expect(same).toEqual({ ok: true, modules: before });
    // b was never imported: its current source is used.
    const after = resolveModules({ a: "export const v = 10;", b: "changed" });
    const pinned = await pinnedModules(record?.text, after, read);
    expect(pinned).toMatchObject({ ok: true, modules: { sources: { a: "export const v = 1;", b: "changed" } } });
    // Removed from the runtime since: still the recorded source.
    expect(await pinnedModules(record?.text, resolveModules({}), read)).toMatchObject({
      ok: true,
      modules: { sources: { a: "export const v = 1;" } },
    });
    // Not kept (recorded before sources were kept), or kept with other text: a divergence naming it.
    const gone = await pinnedModules(record?.text, after, async () => new Map());
    expect(gone).toMatchObject({ ok: false, failure: { kind: "divergence" } });
    expect((gone as { failure: { error: string } }).failure.error).toContain('the module "a" it imported');
    const tampered = await pinnedModules(record?.text, after, async (d) => new Map(d.map((x) => [x, "other"])));
    expect(tampered).toMatchObject({ ok: false, failure: { kind: "divergence" } });
    expect(await pinnedModules("{", after, read)).toMatchObject({ ok: false, failure: { kind: "store" } });
  });

  it("resumes a paused execution with the module it imported after the runtime's modules changed", async () => {
    const client = memoryClient();
    const shop = { methods: { charge: { needsApproval: true, execute: (args: unknown) => args } } };
    const program =
      'import { price } from "pricing";\nconst c = await shop.charge({ amount: price(40) });\n[c, price(1)]';
    const kept = async () =>
      (await client.execute("SELECT digest FROM codemode_module_sources")).rows.map((row) => row["digest"]);
    const first = testRuntime({
      store: client,
      connectors: { shop },
      modules: { pricing: "export const price = (n) => n * 2;" },
    });
    const paused = await first.execute({ code: program });
    const twin = await first.execute({ code: program });
    expect(paused).toMatchObject({ status: "paused", pending: [{ args: { amount: 80 } }] });
    // Two executions that imported the same source keep it once.
    expect(await kept()).toEqual([
      resolveModules({ pricing: "export const price = (n) => n * 2;" }).hashes.get("pricing"),
    ]);
    const second = testRuntime({
      store: client,
      connectors: { shop },
      modules: { pricing: "export const price = (n) => n * 3;" },
    });
    expect(await second.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: [{ amount: 80 }, 2],
    });
    const fresh = await second.execute({ code: program });
    expect(fresh).toMatchObject({ status: "paused", pending: [{ args: { amount: 120 } }] });
    expect(await kept()).toHaveLength(2);
    expect(await second.approve({ executionId: twin.executionId })).toMatchObject({
      status: "completed",
      result: [{ amount: 80 }, 2],
    });
    // The old source is dropped once no unfinished execution needs it; the new one stays for the paused run.
    expect(await kept()).toEqual([
      resolveModules({ pricing: "export const price = (n) => n * 3;" }).hashes.get("pricing"),
    ]);
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
  return { charged: c.charged, markup: price(1) };
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

  it("resumes in another process with the modules it first imported, after a deploy changed them", async () => {
    const same = workspaceWith("2");
    const a = await startWorker(same.env);
    const paused = await a.request<CodemodeOutput>("execute", { code: PROGRAM });
    expect(paused).toMatchObject({ status: "paused", pending: [{ method: "charge", args: { amount: 80 } }] });
    await a.exit();
    const b = await startWorker(same.env);
    expect(await b.request<CodemodeOutput>("approve", { executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: { charged: 80, markup: 2 },
    });
    await b.exit();

    const changed = workspaceWith("2");
    const c = await startWorker(changed.env);
    const second = await c.request<CodemodeOutput>("execute", { code: PROGRAM });
    expect(second.status).toBe("paused");
    await c.exit();
    // The deploy: a new process with a rebuilt bundle.
    changed.write("3");
    const d = await startWorker(changed.env);
    expect(await d.request<CodemodeOutput>("approve", { executionId: second.executionId })).toMatchObject({
      status: "completed",
      result: { charged: 80, markup: 2 },
    });
    // A new execution uses the new source.
    expect(await d.request<CodemodeOutput>("execute", { code: PROGRAM })).toMatchObject({
      status: "paused",
      pending: [{ method: "charge", args: { amount: 120 } }],
    });
  });
});
