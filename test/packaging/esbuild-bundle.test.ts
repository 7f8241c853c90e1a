/**
 * The docs' esbuild path (docs/durability.md): an app that uses the built package is bundled with esbuild, with
 * `ai-codemode` external (its libSQL binding, QuickJS `.wasm` and worker file load from
 * node_modules at run time), and the bundle runs in a child process to a completed execution on
 * the default worker-thread executor.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

/** The externals the docs give for esbuild (the same list as Next.js's serverExternalPackages). */
const EXTERNALS = [
  "ai-codemode",
  "@libsql/client",
  "libsql",
  "quickjs-emscripten-core",
  "@jitl/quickjs-wasmfile-release-sync",
];

const APP = `
import { tool } from "ai";
import { z } from "zod";
import { connector, createCodemodeRuntime } from "ai-codemode";

const add = tool({
  description: "Adds two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});
const runtime = createCodemodeRuntime({
  connectors: { math: connector({ add }) },
  store: "file:" + process.argv[2],
});
const output = await runtime.execute({ code: "async () => (await math.add({ a: 1, b: 2 })) * 2" });
console.log(JSON.stringify(output));
await runtime.close();
`;

describe("bundling with esbuild", () => {
  let work = "";

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "codemode-esbuild-"));
    mkdirSync(join(work, "node_modules"));
    // A consumer's node_modules: the built package (dist/, through its exports map), ai and zod.
    symlinkSync(root, join(work, "node_modules", "ai-codemode"), "dir");
    for (const name of ["ai", "zod"])
      symlinkSync(join(root, "node_modules", name), join(work, "node_modules", name), "dir");
    writeFileSync(join(work, "package.json"), JSON.stringify({ name: "bundled-app", private: true, type: "module" }));
    writeFileSync(join(work, "app.mjs"), APP);
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("bundles ai and zod, keeps the externals, and the bundle completes an execution", async () => {
    const bundle = join(work, "out", "app.mjs");
    const result = await build({
      entryPoints: [join(work, "app.mjs")],
      outfile: bundle,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      external: EXTERNALS,
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    const code = readFileSync(bundle, "utf8");
    expect(code).toMatch(/from "ai-codemode"/);
    expect(code).not.toMatch(/from "(ai|zod)"/); // bundled in

    const run = spawnSync(process.execPath, [bundle, join(work, "codemode.db")], {
      cwd: work,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", result: 6 });
  });
});
