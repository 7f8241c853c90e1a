/**
 * Progress streaming (issue 16): a program making many connector calls, through the `codemode`
 * tool's `execute` with progress on (default throttle) and off, side by side. Reports the run time
 * (median), how many snapshots were yielded and the largest snapshot's JSON size — the throttle
 * and the caps keep both bounded however many calls the program makes.
 *
 * Run alone: `node --import tsx -e "import('./bench/progress.ts').then((m) => m.run()).then(console.log)"`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { tool } from "ai";
import { z } from "zod";
import { createCodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";

const CALLS = 10_000;
const REPEATS = 3;
const PROGRAM = `async () => { let total = 0; for (let i = 0; i < ${CALLS}; i++) total += await tools.inc({ n: i }); return total; }`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function once(progress: boolean, directory: string, executor: QuickJSExecutor, index: number) {
  const runtime = createCodemodeRuntime({
    tools: {
      inc: tool({ description: "n + 1", inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => n + 1 }),
    },
    store: `file:${path.join(directory, `bench-${progress}-${index}.db`)}`,
    executor,
    // A measured program, not a runaway: over the default call budget (1,000) on purpose.
    limits: { maxCalls: CALLS },
  });
  const codemode = runtime.tool({ progress });
  const started = performance.now();
  const result = await codemode.execute!({ code: PROGRAM }, { toolCallId: "bench", messages: [], context: undefined });
  let snapshots = 0;
  let largest = 0;
  let final: unknown = result;
  if (progress) {
    for await (const value of result as AsyncIterable<{ status: string }>) {
      final = value;
      if (value.status !== "running") continue;
      snapshots += 1;
      largest = Math.max(largest, JSON.stringify(value).length);
    }
  }
  const ms = performance.now() - started;
  await runtime.close();
  if ((final as { status?: string }).status !== "completed")
    throw new Error(`bench run failed: ${JSON.stringify(final).slice(0, 300)}`);
  return { ms, snapshots, largest };
}

/** The markdown section. */
export async function run(): Promise<string> {
  const directory = mkdtempSync(path.join(tmpdir(), "codemode-bench-progress-"));
  const executor = new QuickJSExecutor({ isolation: "in-process", timeoutMs: 600_000 });
  try {
    const rows: string[] = [];
    let baseline = Number.NaN;
    for (const progress of [false, true]) {
      const runs = [];
      for (let index = 0; index < REPEATS; index++) runs.push(await once(progress, directory, executor, index));
      const ms = median(runs.map((r) => r.ms));
      if (!progress) baseline = ms;
      rows.push(
        `| ${progress ? "on (100 ms, 50 calls, 50 lines)" : "off"} | ${ms.toFixed(0)} ms | ${(ms / baseline).toFixed(2)}× | ` +
          `${progress ? median(runs.map((r) => r.snapshots)) : "–"} | ${progress ? `${Math.max(...runs.map((r) => r.largest))} B` : "–"} |`,
      );
    }
    return [
      `## Progress streaming (${CALLS.toLocaleString("en")} connector calls in one program, median of ${REPEATS})`,
      "",
      "| progress | run time | ratio | snapshots yielded | largest snapshot |",
      "| --- | --- | --- | --- | --- |",
      ...rows,
    ].join("\n");
  } finally {
    await executor.dispose();
    rmSync(directory, { recursive: true, force: true });
  }
}
