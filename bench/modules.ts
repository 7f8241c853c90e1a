/**
 * What sandbox modules cost: a trivial program with and without `modules` given (a program that imports nothing
 * must not pay for them), and the first and repeated import of a ~100 KB bundle (all of lodash-es, bundled and
 * minified with esbuild), in-process and through the worker pool. QuickJS keeps no compiled module across contexts
 * and the wasm build exposes no bytecode, so every run that imports parses the bundle again: "repeated" is that cost.
 *
 * Run: `node --import tsx bench/modules.ts` (or `npm run bench -- modules`).
 */
import { fileURLToPath } from "node:url";
import { bundleModule } from "../test/support/bundled-modules.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { collectGarbage } from "./gc.js";

const ROUNDS = 5;
const SLICE_MS = 300;
const TRIVIAL = "1 + 1";
const IMPORTING = 'import { chunk } from "lodash-es";\nchunk([1, 2, 3], 2).length';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

async function samples(task: () => Promise<unknown>, budgetMs: number): Promise<number[]> {
  const out: number[] = [];
  const started = performance.now();
  while (out.length < 5 || performance.now() - started < budgetMs) out.push(await timed(task));
  return out;
}

interface Row {
  isolation: string;
  plain: number[];
  withModules: number[];
  first: number;
  repeated: number[];
}

async function measure(isolation: "in-process" | "worker-thread", modules: Record<string, string>): Promise<Row> {
  const executor = new QuickJSExecutor({ isolation, timeoutMs: 30_000 });
  const run = (program: string, given?: Record<string, string>) =>
    executor.run({ program, bindings: [], ...(given === undefined ? {} : { modules: given }) }).then((result) => {
      if (result.error !== undefined) throw new Error(result.error.message);
    });
  // Warm the executor (worker started, parser loaded) without importing anything.
  for (let index = 0; index < 20; index++) await run(TRIVIAL);
  const first = await timed(() => run(IMPORTING, modules));
  const row: Row = { isolation, plain: [], withModules: [], first, repeated: [] };
  for (let round = 0; round < ROUNDS; round++) {
    collectGarbage();
    row.plain.push(median(await samples(() => run(TRIVIAL), SLICE_MS)));
    row.withModules.push(median(await samples(() => run(TRIVIAL, modules), SLICE_MS)));
    row.repeated.push(median(await samples(() => run(IMPORTING, modules), SLICE_MS)));
  }
  await executor.dispose();
  return row;
}

const ms = (value: number): string => `${value.toFixed(3)} ms`;

export async function run(): Promise<string> {
  // The whole of lodash-es, bundled as the tests bundle their packages.
  const source = await bundleModule('export * from "lodash-es";');
  const modules = { "lodash-es": source };
  const rows: Row[] = [];
  for (const isolation of ["in-process", "worker-thread"] as const) rows.push(await measure(isolation, modules));
  const lines = [
    "## Sandbox modules",
    "",
    `A trivial program (\`${TRIVIAL}\`) without \`modules\`, and with a ${Math.round(source.length / 1000)} KB bundle given but not imported; the first run that imports it (right after 20 warm-up runs that do not), and every later one (\`import { chunk } from "lodash-es"\`: QuickJS parses and instantiates the whole bundle again in each run's fresh context). Medians of ${ROUNDS} rounds, each a median of ${SLICE_MS} ms of runs.`,
    "",
    "| Isolation | Trivial, no modules | Trivial, modules given | First import | Repeated import |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map(
      (row) =>
        `| ${row.isolation} | ${ms(median(row.plain))} | ${ms(median(row.withModules))} | ${ms(row.first)} | ${ms(median(row.repeated))} |`,
    ),
    "",
  ];
  return lines.join("\n");
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${await run()}\n`);
}
