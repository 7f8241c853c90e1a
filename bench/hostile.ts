/**
 * Hostile programs against the host (issue 14): what logging past the cap costs, and the largest
 * host event-loop gap while programs send values the host must decode (each class of
 * `test/sandbox/host-stall-classes.ts`), with the default worker isolation. The gap is reported
 * twice: wall clock (includes the OS not scheduling the main thread on a shared machine) and the
 * main thread's own running time within that gap (the host's work).
 *
 * Run: `npm run bench -- hostile` (or `node --import tsx bench/hostile.ts`).
 */
import { fileURLToPath } from "node:url";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { watchEventLoop } from "../test/support/event-loop-watch.js";
import { STALL_CLASSES } from "../test/sandbox/host-stall-classes.js";

const LINES = 100_000;
const ROUNDS = 5;
const bindings = [{ global: "host", functions: { echo: async (value: unknown) => value, ok: async () => "ok" } }];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(executor: QuickJSExecutor, program: string): Promise<number> {
  const started = performance.now();
  const result = await executor.run({ program, bindings });
  if (result.error) throw new Error(`bench program failed: ${result.error.message}`);
  return performance.now() - started;
}

async function logCap(): Promise<string> {
  const executor = new QuickJSExecutor({ timeoutMs: 120_000 });
  const loop = (body: string): string => `let s = 0; for (let i = 0; i < ${LINES}; i++) { s += i % 7; ${body} } s`;
  const bare = loop("");
  const logging = loop("console.log('line', i);");
  await timed(executor, bare);
  const bareMs: number[] = [];
  const loggingMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareMs.push(await timed(executor, bare));
    loggingMs.push(await timed(executor, logging));
  }
  await executor.dispose();
  const [b, l] = [median(bareMs), median(loggingMs)];
  return [
    `Log cap (default 65,536 characters), worker isolation, median of ${ROUNDS}: the same ${LINES.toLocaleString("en-US")}-iteration loop`,
    "with and without `console.log('line', i)` (about 6,000 lines fit under the cap; the rest are dropped inside the sandbox).",
    "",
    "| Program | Median ms | Ratio |",
    "| --- | ---: | ---: |",
    `| loop without logging | ${b.toFixed(0)} | 1.00× |`,
    `| loop logging ${LINES.toLocaleString("en-US")} lines | ${l.toFixed(0)} | ${(l / b).toFixed(2)}× |`,
  ].join("\n");
}

async function stalls(): Promise<string> {
  const executor = new QuickJSExecutor({ timeoutMs: 120_000 });
  await executor.run({ program: "1", bindings });
  const rows: string[] = [];
  const control = watchEventLoop();
  await executor.run({ program: "const t = Date.now(); while (Date.now() < t + 1000) {}", bindings });
  const seen = control.stop();
  rows.push(
    `| control: a program spinning 1 s in its worker | ${seen.largestGapMs.toFixed(0)} | ${seen.largestBusyGapMs.toFixed(1)} | completed |`,
  );
  for (const entry of STALL_CLASSES) {
    const monitor = watchEventLoop();
    const result = await executor.run({ program: entry.program, bindings });
    const gap = monitor.stop();
    const outcome = result.error ? `${result.error.kind}: ${result.error.message.slice(0, 70)}…` : "completed";
    rows.push(
      `| ${entry.name} | ${gap.largestGapMs.toFixed(0)} | ${gap.largestBusyGapMs.toFixed(1)} | ${outcome.replaceAll("|", "\\|")} |`,
    );
  }
  await executor.dispose();
  return [
    "Largest host event-loop gap per class (5 ms interval monitor, default worker isolation, one run each).",
    "",
    "| Program | Largest gap ms (wall) | Main thread running within it ms | Outcome |",
    "| --- | ---: | ---: | --- |",
    ...rows,
  ].join("\n");
}

/** The markdown section. */
export async function run(): Promise<string> {
  return ["## Hostile programs (issue 14)", "", await logCap(), "", await stalls()].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`);
  process.exit(0);
}
