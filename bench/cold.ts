/**
 * Cold start, as a serverless function pays it (issues 15 and 38): a fresh `node`
 * process, spawn → first result, several processes per variant (interleaved),
 * medians. The package is used as users get it: built to `dist/` first.
 * - ai-codemode: `import("ai")`, import the package, open a runtime on a
 *   fresh `file:` database, or on a database of the Hrana test server over
 *   HTTP (started here on loopback; its schema is current, as a deployed
 *   function finds it), and run a one-call program (`app.greet({})`);
 * - `@ai-sdk/code-mode` (bench/peers, with the `ai` it pins): the same call
 *   through `experimental_runCodeMode` (target: ai-codemode ≤ 0.8× of it);
 * - bare quickjs-emscripten: `import("ai")` too (the app pays it anyway),
 *   load the QuickJS wasm module, run the same program with one async host
 *   function: the floor.
 * Then the import time of each entry point and of the heavy dependencies,
 * measured inside fresh processes. Child scripts: bench/cold-scripts.ts.
 *
 * Run: `npm run bench -- cold` (or `node --import tsx bench/cold.ts`).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startHranaServer, type HranaServer } from "../test/support/hrana-server.js";
import {
  COLD_VARIANTS,
  IMPORT_TARGETS,
  importScript,
  workerBootScript,
  type ColdUrls,
  type ColdVariant,
} from "./cold-scripts.js";
import { loadCodeModePeer, PEER_MISSING } from "./peers/code-mode-peer.js";

const RUNS = 7;
/**
 * Rounds of the spawn → first result table: more than the import table's, since its ratio to the peer is judged
 * against a target and single runs on this shared 2-core machine spread by ±20%.
 */
const FIRST_RESULT_RUNS = 15;
/** ai-codemode's spawn → first result over the `@ai-sdk/code-mode` peer's, measured side by side (issue 38). */
const TARGET_PEER_RATIO = 0.8;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Spawns `node script` and resolves with ms from spawn to the first stdout line, and that line. */
export function timeToFirstLine(script: string, cwd: string): Promise<{ ms: number; line: string }> {
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

async function urls(): Promise<ColdUrls> {
  const resolve = (specifier: string) => import.meta.resolve(specifier);
  return {
    ai: resolve("ai"),
    dist: pathToFileURL(join(ROOT, "dist")).href,
    quickjsCore: resolve("quickjs-emscripten-core"),
    quickjsVariant: resolve("@jitl/quickjs-wasmfile-release-sync"),
    resolve,
    peer: (await loadCodeModePeer())?.urls,
  };
}

/** The variants this machine can run (the peer's only when bench/peers is installed). */
function runnable<T extends { needsPeer?: boolean }>(list: T[], links: ColdUrls): T[] {
  return list.filter((item) => item.needsPeer !== true || links.peer !== undefined);
}

function format(ms: number): string {
  return `${ms.toFixed(0)} ms`;
}

/** The `median | runs` cells of a table row: the median, then every run in ms. */
function medianAndRuns(values: number[]): string {
  return `${format(median(values))} | ${values.map((value) => value.toFixed(0)).join(", ")}`;
}

/** The store URL a variant's run is given: a fresh `file:` database, or the server's (already migrated). */
function storeUrl(variant: ColdVariant, folder: string, round: number, remote: string): string {
  if (variant.store === "remote") return remote;
  if (variant.store === "none") return "";
  // A fresh database folder per run, made before the clock starts (an explicit file: path's folder must exist).
  const databaseFolder = join(folder, `db-${variant.key}-${round}`);
  mkdirSync(databaseFolder);
  return `file:${join(databaseFolder, "codemode.db")}`;
}

/** Spawn → first result of one variant; throws unless it printed what it should. */
async function coldRun(variant: ColdVariant, links: ColdUrls, folder: string, store: string): Promise<number> {
  const script = join(folder, `${variant.key}.mjs`);
  writeFileSync(script, variant.script(links, store));
  const { ms, line } = await timeToFirstLine(script, folder);
  if (line !== variant.expect) throw new Error(`${variant.name}: expected ${variant.expect}, got ${line}`);
  return ms;
}

/** Spawn → first result, FIRST_RESULT_RUNS rounds of every variant (interleaved, so load changes hit all of them alike). */
async function coldRuns(
  folder: string,
  links: ColdUrls,
  variants: ColdVariant[],
  server: HranaServer,
): Promise<Map<string, number[]>> {
  const remote = server.databaseUrl("cold");
  // Untimed: the remote database gets its schema, as a deployed function finds it.
  const remoteVariant = variants.find((variant) => variant.store === "remote");
  if (remoteVariant !== undefined) await coldRun(remoteVariant, links, folder, remote);
  const times = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  for (let round = 0; round < FIRST_RESULT_RUNS; round += 1) {
    for (const variant of variants) {
      const ms = await coldRun(variant, links, folder, storeUrl(variant, folder, round, remote));
      times.get(variant.name)!.push(ms);
    }
  }
  return times;
}

/** Import time inside a fresh process, RUNS rounds of every target. */
async function importRuns(folder: string, links: ColdUrls): Promise<Map<string, number[]>> {
  const targets = runnable(IMPORT_TARGETS, links);
  const times = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < RUNS; round += 1) {
    for (const target of targets) {
      const script = join(folder, `import-${target.key}.mjs`);
      const after = target.after?.(links) ?? (target.afterAi === false ? undefined : links.ai);
      writeFileSync(script, importScript(target.url(links), after));
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
    const links = await urls();
    const variants = runnable(COLD_VARIANTS, links);
    const loadBefore = loadavg()[0] ?? 0;
    const server = await startHranaServer({ path: join(folder, "remote.db") });
    let cold: Map<string, number[]>;
    try {
      cold = await coldRuns(folder, links, variants, server);
    } finally {
      await server.close();
    }
    const loadAfter = loadavg()[0] ?? 0;
    const imports = await importRuns(folder, links);
    const workerBoot = await workerBootRuns(folder);
    const medianOf = (key: string): number | undefined => {
      const variant = variants.find((candidate) => candidate.key === key);
      return variant === undefined ? undefined : median(cold.get(variant.name)!);
    };
    const base = medianOf("bare")!;
    const peer = medianOf("peer");
    const major = process.versions.node.split(".")[0];
    const lines = [
      `## Cold start (serverless)${major === "22" ? "" : `, Node ${major}`}`,
      "",
      `Spawn → first result of a fresh \`node\` process, median of ${FIRST_RESULT_RUNS} (variants interleaved; load average`,
      `${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after). Every variant imports \`ai\`; the package is the`,
      "built `dist/`. Program: one connector call (`app.greet({})`) returning a string. The remote store is a database",
      "of the Hrana test server on loopback whose schema is current (as a deployed function finds it); each `file:` run",
      "opens a new database.",
      "",
      "| variant | median | runs | ratio |",
      "| --- | ---: | --- | ---: |",
      ...variants.map((variant) => {
        const values = cold.get(variant.name)!;
        return `| ${variant.name} | ${medianAndRuns(values)} | ${(median(values) / base).toFixed(2)}× |`;
      }),
      "",
      ...(peer === undefined
        ? [`Not measured beside \`@ai-sdk/code-mode\`: ${PEER_MISSING}.`]
        : [
            ["codemode", "`file:` store"],
            ["codemode-remote", "remote store"],
          ].map(([key, label]) => {
            const ours = medianOf(key!)!;
            const ratio = ours / peer;
            return (
              `**ai-codemode (${label}) / \`@ai-sdk/code-mode\`: ${ratio.toFixed(2)}×** (target ≤ ${TARGET_PEER_RATIO}: ` +
              `${(peer * TARGET_PEER_RATIO).toFixed(0)} ms; measured ${ours.toFixed(0)} ms).`
            );
          })),
      "",
      `Import time inside a fresh process, median of ${RUNS}: one \`await import(…)\` after \`import("ai")\` (not counted: the app`,
      "loads it anyway), so each row is what that module adds. The entry points are the built package.",
      "",
      "| module | median | runs |",
      "| --- | ---: | --- |",
      ...runnable(IMPORT_TARGETS, links).map(
        (target) => `| ${target.name} | ${medianAndRuns(imports.get(target.name)!)} |`,
      ),
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
