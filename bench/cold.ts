/**
 * Cold start, as a serverless function pays it (issue 15): a fresh `node`
 * process, spawn → first result, five processes per variant (interleaved),
 * medians. The package is used as users get it: built to `dist/` first.
 * - ai-codemode: `import("ai")`, import the package, open a runtime on a
 *   fresh `file:` database, run a one-call program (`app.greet({})`);
 * - bare quickjs-emscripten: `import("ai")` too (the app pays it anyway),
 *   load the QuickJS wasm module, run the same program with one async host
 *   function. The ratio of the two is the cost the package adds (target ≤ 1.2).
 * Then the import time of each entry point and of the heavy dependencies,
 * measured inside fresh processes. Child scripts: bench/cold-scripts.ts.
 *
 * Run: `npm run bench -- cold` (or `node --import tsx bench/cold.ts`).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { COLD_VARIANTS, IMPORT_TARGETS, importScript, workerBootScript, type ColdUrls } from "./cold-scripts.js";

const RUNS = 5;
const TARGET_RATIO = 1.2;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Spawns `node script` and resolves with ms from spawn to the first stdout line, and that line. */
function timeToFirstLine(script: string, cwd: string): Promise<{ ms: number; line: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let settled = false;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline !== -1 && !settled) {
        settled = true;
        resolve({ ms: performance.now() - started, line: out.slice(0, newline) });
        child.kill();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) => {
      if (!settled) reject(new Error(`${script} exited with ${String(code)} before a result: ${err}`));
    });
  });
}

function urls(): ColdUrls {
  const resolve = (specifier: string) => import.meta.resolve(specifier);
  return {
    ai: resolve("ai"),
    dist: pathToFileURL(join(ROOT, "dist")).href,
    quickjsCore: resolve("quickjs-emscripten-core"),
    quickjsVariant: resolve("@jitl/quickjs-wasmfile-release-sync"),
    resolve,
  };
}

function format(ms: number): string {
  return `${ms.toFixed(0)} ms`;
}

/** The `median | runs` cells of a table row: the median, then every run in ms. */
function medianAndRuns(values: number[]): string {
  return `${format(median(values))} | ${values.map((value) => value.toFixed(0)).join(", ")}`;
}

/** Spawn → first result, RUNS rounds of every variant. */
async function coldRuns(folder: string, links: ColdUrls): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(COLD_VARIANTS.map((variant) => [variant.name, []]));
  for (let round = 0; round < RUNS; round += 1) {
    for (const variant of COLD_VARIANTS) {
      // A fresh database folder per run, made before the clock starts (an explicit file: path's folder must exist).
      const databaseFolder = join(folder, `db-${variant.key}-${round}`);
      mkdirSync(databaseFolder);
      const database = join(databaseFolder, "codemode.db");
      const script = join(folder, `${variant.key}.mjs`);
      writeFileSync(script, variant.script(links, `file:${database}`));
      const { ms, line } = await timeToFirstLine(script, folder);
      if (line !== variant.expect) throw new Error(`${variant.name}: expected ${variant.expect}, got ${line}`);
      times.get(variant.name)!.push(ms);
    }
  }
  return times;
}

/** Import time inside a fresh process, RUNS rounds of every target. */
async function importRuns(folder: string, links: ColdUrls): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(IMPORT_TARGETS.map((target) => [target.name, []]));
  for (let round = 0; round < RUNS; round += 1) {
    for (const target of IMPORT_TARGETS) {
      const script = join(folder, `import-${target.key}.mjs`);
      writeFileSync(script, importScript(target.url(links), target.afterAi === false ? undefined : links.ai));
      const { line } = await timeToFirstLine(script, folder);
      times.get(target.name)!.push(Number(line));
    }
  }
  return times;
}

/** ms from `new Worker` to the first message of an empty worker, RUNS fresh processes. */
async function workerBootRuns(folder: string): Promise<number[]> {
  const script = join(folder, "worker-boot.mjs");
  writeFileSync(script, workerBootScript());
  const times: number[] = [];
  for (let round = 0; round < RUNS; round += 1) times.push(Number((await timeToFirstLine(script, folder)).line));
  return times;
}

/** The markdown section. */
export async function run(): Promise<string> {
  execFileSync("npx", ["tsup", "--silent"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-cold-"));
  try {
    const links = urls();
    const cold = await coldRuns(folder, links);
    const imports = await importRuns(folder, links);
    const workerBoot = await workerBootRuns(folder);
    const base = median(cold.get(COLD_VARIANTS[0]!.name)!);
    const ours = median(cold.get(COLD_VARIANTS[1]!.name)!);
    const runPackage = median(cold.get(COLD_VARIANTS.find((variant) => variant.key === "run")!.name)!);
    const lines = [
      "## Cold start (serverless)",
      "",
      `Spawn → first result of a fresh \`node\` process, median of ${RUNS} (variants interleaved). Every variant imports \`ai\`; the`,
      "package is the built `dist/`. Program: one connector call (`app.greet({})`) returning a string.",
      "",
      "| variant | median | runs | ratio |",
      "| --- | ---: | --- | ---: |",
      ...COLD_VARIANTS.map((variant) => {
        const values = cold.get(variant.name)!;
        return `| ${variant.name} | ${medianAndRuns(values)} | ${(median(values) / base).toFixed(2)}× |`;
      }),
      "",
      `**Ratio ai-codemode / bare quickjs-emscripten: ${(ours / base).toFixed(2)}×** (target ≤ ${TARGET_RATIO}: at most ` +
        `${(base * (TARGET_RATIO - 1)).toFixed(0)} ms over bare; measured ${(ours - base).toFixed(0)} ms).`,
      `**Ratio ai-codemode / \`run\` (AI SDK code mode's runtime): ${(ours / runPackage).toFixed(2)}×** (target < 1).`,
      "",
      `Import time inside a fresh process, median of ${RUNS}: one \`await import(…)\` after \`import("ai")\` (not counted: the app`,
      "loads it anyway), so each row is what that module adds. The entry points are the built package.",
      "",
      "| module | median | runs |",
      "| --- | ---: | --- |",
      ...IMPORT_TARGETS.map((target) => `| ${target.name} | ${medianAndRuns(imports.get(target.name)!)} |`),
      `| an empty worker thread: \`new Worker\` → first message (reference) | ${medianAndRuns(workerBoot)} |`,
    ];
    return lines.join("\n");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(`${await run()}\n`);
}
