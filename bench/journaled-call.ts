/**
 * The journaled host call beside `@ai-sdk/code-mode`, measured side by side in one process (issue 38):
 * the same zod-validated tool called N times in sequence by the peer (no journal), by the full runtime
 * (`createCodemodeRuntime`, `file:` store) with the default worker executor and with the in-process one, the tool
 * as an effect (its `executing` row durable before it runs) and marked `readOnly` (its row rides with the next
 * write). Each variant's trivial run (no call) is subtracted, so the figure is µs per call; rounds interleave the
 * variants so a busy machine slows them alike. The end-to-end program (20 calls, an approval, resumed by another
 * process) is `journaled-call-e2e.ts`.
 *
 * Run: `npm run bench -- journaled-call` (or `node --expose-gc --import tsx bench/journaled-call.ts`).
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tool } from "ai";
import { z } from "zod";
import { connector } from "../src/connectors/connector.js";
import { createCodemodeRuntime, type CodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { collectGarbage } from "./gc.js";
import { endToEndSection } from "./journaled-call-e2e.js";
import { loadCodeModePeer, PEER_MISSING, type CodeModePeer } from "./peers/code-mode-peer.js";
import { benchFolder, median } from "./journaled-call-support.js";

const CALLS = 200;
const ROUNDS = 15;
/** The issue's target: a journaled call at most half the peer's unjournaled one. */
const TARGET_RATIO = 0.5;

/** The tool every variant calls: zod-validated input, a small object back. */
function incTool() {
  return tool({
    description: "Adds one.",
    inputSchema: z.object({ i: z.number().int() }),
    execute: async ({ i }: { i: number }) => ({ i: i + 1 }),
  });
}

const BODY = (calls: number) =>
  `let sum = 0; for (let i = 0; i < ${calls}; i++) sum += (await tools.inc({ i })).i; return sum;`;

/** Sum of `i + 1` for i < calls: what every variant must return. */
const expected = (calls: number) => (calls * (calls + 1)) / 2;

interface Variant {
  name: string;
  /** Runs the program with `calls` calls; resolves with ms. */
  time(calls: number): Promise<number>;
  close(): Promise<void>;
}

function peerVariant(peer: CodeModePeer): Variant {
  const tools = { inc: incTool() };
  return {
    name: `\`@ai-sdk/code-mode\` ${peer.version} (no journal)`,
    async time(calls) {
      const started = performance.now();
      const value = await peer.run(BODY(calls), tools);
      const ms = performance.now() - started;
      if (value !== expected(calls)) throw new Error(`peer returned ${JSON.stringify(value)}`);
      return ms;
    },
    close: async () => {},
  };
}

/** The executor alone with a plain binding that calls the tool's `execute`: no validation, no journal (the floor). */
function executorVariant(name: string, isolation: "worker-thread" | "in-process"): Variant {
  const executor = new QuickJSExecutor({ isolation });
  const inc = incTool();
  const functions = {
    inc: async (args: unknown) =>
      inc.execute?.(args as { i: number }, { toolCallId: "bench", messages: [], context: {} }),
  };
  return {
    name,
    async time(calls) {
      const started = performance.now();
      const out = await executor.run({
        program: `async () => { ${BODY(calls)} }`,
        bindings: [{ global: "tools", functions }],
      });
      const ms = performance.now() - started;
      if (out.error !== undefined || out.value !== expected(calls)) throw new Error(`${name}: ${JSON.stringify(out)}`);
      return ms;
    },
    close: () => executor.dispose(),
  };
}

function runtimeVariant(
  name: string,
  folder: string,
  { isolation, readOnly }: { isolation: "worker-thread" | "in-process"; readOnly: boolean },
): Variant {
  const executor = isolation === "in-process" ? new QuickJSExecutor({ isolation: "in-process" }) : undefined;
  const tools = { inc: incTool() };
  const runtime: CodemodeRuntime = createCodemodeRuntime({
    connectors: { tools: readOnly ? connector(tools, { methods: { inc: { readOnly: true } } }) : tools },
    store: `file:${join(folder, `${isolation}-${readOnly ? "read" : "effect"}.db`)}`,
    ...(executor === undefined ? {} : { executor }),
  });
  return {
    name,
    async time(calls) {
      const started = performance.now();
      const out = await runtime.execute({ code: `async () => { ${BODY(calls)} }` });
      const ms = performance.now() - started;
      if (out.status !== "completed" || out.result !== expected(calls))
        throw new Error(`${name}: ${JSON.stringify(out).slice(0, 300)}`);
      return ms;
    },
    async close() {
      await runtime.close();
      await executor?.dispose();
    },
  };
}

/** Per-call µs of each variant: median over rounds of (N-call run − trivial run) / N, rounds interleaved. */
async function perCall(variants: Variant[]): Promise<number[]> {
  for (const variant of variants) {
    await variant.time(0);
    await variant.time(CALLS);
  }
  const samples = variants.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, variant] of variants.entries()) {
      collectGarbage();
      const trivial = await variant.time(0);
      const loaded = await variant.time(CALLS);
      samples[index]?.push(((loaded - trivial) / CALLS) * 1000);
    }
  }
  return samples.map(median);
}

/** The per-call table. */
async function perCallSection(): Promise<string> {
  const peer = await loadCodeModePeer();
  const folder = benchFolder("codemode-bench-call-");
  const variants: Variant[] = [
    ...(peer === undefined ? [] : [peerVariant(peer)]),
    runtimeVariant("ai-codemode, worker (default), effect", folder.path, {
      isolation: "worker-thread",
      readOnly: false,
    }),
    runtimeVariant("ai-codemode, worker (default), `readOnly`", folder.path, {
      isolation: "worker-thread",
      readOnly: true,
    }),
    runtimeVariant("ai-codemode, in-process, effect", folder.path, { isolation: "in-process", readOnly: false }),
    runtimeVariant("ai-codemode, in-process, `readOnly`", folder.path, { isolation: "in-process", readOnly: true }),
    executorVariant("`QuickJSExecutor` alone, worker: plain binding, no validation, no journal", "worker-thread"),
    executorVariant("`QuickJSExecutor` alone, in-process: plain binding, no validation, no journal", "in-process"),
  ];
  const load = loadavg()[0] ?? 0;
  let figures: number[];
  try {
    figures = await perCall(variants);
  } finally {
    for (const variant of variants) await variant.close();
    folder.cleanup();
  }
  const loadAfter = loadavg()[0] ?? 0;
  const peerFigure = peer === undefined ? undefined : figures[0];
  const rows = variants.map((variant, index) => {
    const us = figures[index] ?? Number.NaN;
    const ratio = peerFigure === undefined ? "–" : `${(us / peerFigure).toFixed(2)}×`;
    return `| ${variant.name} | ${us.toFixed(1)} | ${ratio} |`;
  });
  return [
    "## The journaled call beside `@ai-sdk/code-mode`",
    "",
    `The same zod-validated tool (\`tools.inc({ i })\`) called ${CALLS} times in sequence; each variant's trivial run (no call) subtracted; median of ${ROUNDS} interleaved rounds. ai-codemode runs the full runtime (\`createCodemodeRuntime\`, a \`file:\` store): every call validated and journaled (an effect: its \`executing\` row durable before the tool runs, \`applied\` riding with the next write; \`readOnly\`: one row with the result, riding with the next write). The executor alone (a plain binding calling the same \`execute\`) is the floor under each isolation: the runtime's figure minus it is what validation and the journal cost. Target: ≤ ${TARGET_RATIO}× the peer. Load average (1 min): ${load.toFixed(2)} before, ${loadAfter.toFixed(2)} after.`,
    "",
    ...(peer === undefined ? [`_${PEER_MISSING}._`, ""] : []),
    "| variant | µs per call | ratio to the peer |",
    "|---|---:|---:|",
    ...rows,
  ].join("\n");
}

/** Runs the suite and returns its markdown sections. */
export async function run(): Promise<string> {
  const calls = await perCallSection();
  const e2e = await endToEndSection();
  return [calls, "", e2e].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`);
  process.exit(0);
}
