/**
 * Runs every benchmark suite in order and writes `bench/RESULTS.md` with the machine, the Node
 * version and the date. Each suite is a module exporting `async function run(): Promise<string>`
 * that returns a markdown section. Add a suite: one import and one entry in `SUITES`.
 *
 * Run: `npm run bench` (all suites) or `npm run bench -- executor tokens` (some, by name).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { arch, cpus, loadavg, platform, release, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { run as cold } from "./cold.js";
import { mergeSections } from "./merge-sections.js";
import { run as executor } from "./executor.js";
import { run as hostile } from "./hostile.js";
import { run as journal } from "./journal.js";
import { run as journaledCall } from "./journaled-call.js";
import { run as journalScale } from "./journal-scale.js";
import { run as modules } from "./modules.js";
import { run as openapi } from "./openapi.js";
import { run as roundtrips } from "./roundtrips.js";
import { run as search } from "./search.js";
import { run as storeDriver } from "./store-driver.js";
import { run as progress } from "./progress.js";
import { run as tokens } from "./tokens.js";
import { run as definition } from "./tool-definition.js";

const SUITES: Array<[name: string, run: () => Promise<string>]> = [
  ["executor", executor],
  ["journal", journal],
  ["journaled-call", journaledCall],
  ["journal-scale", journalScale],
  ["tokens", tokens],
  ["openapi", openapi],
  ["cold", cold],
  ["roundtrips", roundtrips],
  ["store-driver", storeDriver],
  ["search", search],
  ["hostile", hostile],
  ["progress", progress],
  ["definition", definition],
  ["modules", modules],
];

function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${platform()} ${release()} ${arch()}`;
}

async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2));
  const loadAtStart = loadavg()[0] ?? 0;
  const sections: string[] = [];
  for (const [name, run] of SUITES) {
    if (wanted.size > 0 && !wanted.has(name)) continue;
    const started = performance.now();
    process.stderr.write(`bench: ${name}…\n`);
    sections.push(await run());
    process.stderr.write(`bench: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const header = [
    "# Benchmark results",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machine()}`,
    `- Node: ${process.version}`,
    `- Load average (1 min) at start: ${loadAtStart.toFixed(2)} (the machine is shared; absolute numbers move with it, ratios less)`,
    `- Command: \`npm run bench${wanted.size > 0 ? ` -- ${[...wanted].join(" ")}` : ""}\``,
    "",
    "Medians of repeated runs measured side by side in one process run; ratios are against the first row of each table.",
    "",
  ].join("\n");
  const text = `${header}\n${sections.join("\n\n")}\n`;
  const file = fileURLToPath(new URL("./RESULTS.md", import.meta.url));
  // A partial run (`npm run bench -- search`) replaces only its own sections and keeps the others' last results.
  writeFileSync(file, wanted.size === 0 ? text : mergeSections(readPrevious(file), sections, runNote()));
  process.stdout.write(text);
  // Worker pools and MCP clients may hold handles; the results are written.
  process.exit(0);
}

function runNote(): string {
  return `_Run alone: ${new Date().toISOString()}, Node ${process.version}, load ${(loadavg()[0] ?? 0).toFixed(2)}._`;
}

function readPrevious(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "# Benchmark results\n";
}

await main();
