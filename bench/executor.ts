/**
 * Sandbox cost, side by side in one run: warm per-execution overhead, per-call bridge cost
 * (10,000 awaited host calls, one at a time and ten at a time with `Promise.all`), cold start in a fresh process, and the host event-loop stall while a
 * program spins. Rows: our `QuickJSExecutor` in-process and through its worker pool, the `run`
 * package (the QuickJS runtime behind the AI SDK's own code mode), isolated-vm (a context per run,
 * and an isolate per run), node:vm (reference only: not a security boundary), and the QuickJS
 * floor: a bare runtime + context created, `1 + 1` evaluated and disposed (no budgets, bindings or
 * console: what any sandbox with a fresh QuickJS context per run pays at least).
 *
 * Run: `node --import tsx bench/executor.ts` (or through `bench/index.ts`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import vm from "node:vm";
import variantImport from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { COLD_START_SCRIPTS } from "./executor/cold-start-scripts.js";
import { collectGarbage } from "./gc.js";
import { loadIsolatedVm, loadRunPackage, type IsolatedVm, type RunPackage } from "./executor/optional-engines.js";

const BRIDGE_CALLS = 10_000;
/** Calls awaited together (`Promise.all`) in the batched bridge measurement. */
const TOGETHER = 10;
/** A program's loop awaiting `TOGETHER` calls of `call` at a time, `BRIDGE_CALLS` in all. */
const together = (call: string): string =>
  `for (let i = 0; i < ${BRIDGE_CALLS / TOGETHER}; i++) await Promise.all(Array.from({ length: ${TOGETHER} }, () => ${call}));`;
const SPIN_MS = 500;
/** Measurements are interleaved: each round gives every engine a slice, so machine load hits all rows alike. */
const ROUNDS = 7;
const WARM_SLICE_MS = 300;
const WARM_MAX_SAMPLES = 3_000;
const COLD_SAMPLES = 5;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** One sandbox under test. Each measurement is optional (a row shows "n/a" without it). */
interface Engine {
  name: string;
  /** One trivial program, fresh context each time. */
  once?: () => Promise<unknown>;
  /** One program making one awaited host call with an object argument and an object result. */
  onceWithCall?: () => Promise<unknown>;
  /** One program making `BRIDGE_CALLS` sequential awaited host calls. */
  bridge?: () => Promise<unknown>;
  /** The same calls, `TOGETHER` at a time (`Promise.all`). */
  bridgeTogether?: () => Promise<unknown>;
  /** One program spinning until a `SPIN_MS` budget stops it. */
  spin?: () => Promise<unknown>;
  /** Key of a script in `COLD_START_SCRIPTS`. */
  cold?: string;
  dispose?: () => Promise<void>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Runs `task` repeatedly for about `budgetMs` (at least `minimum` times), returning each duration in ms. */
async function timeRepeatedly(task: () => Promise<unknown>, budgetMs: number, minimum: number): Promise<number[]> {
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < WARM_MAX_SAMPLES && (performance.now() - started < budgetMs || samples.length < minimum)) {
    const before = performance.now();
    await task();
    samples.push(performance.now() - before);
  }
  return samples;
}

/** The longest gap between 1 ms ticks of the host event loop while `spin` runs. */
async function sampleStall(spin: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  worst = 0;
  last = performance.now();
  await spin();
  worst = Math.max(worst, performance.now() - last);
  clearInterval(ticker);
  return worst;
}

function buildPackage(cacheDir: string): string | undefined {
  const outDir = join(cacheDir, "dist");
  const result = spawnSync("npx", ["tsup", "--out-dir", outDir, "--no-dts", "--no-sourcemap"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return result.status === 0 ? outDir : undefined;
}

function sampleCold(cacheDir: string, key: string): number | undefined {
  const source = COLD_START_SCRIPTS[key];
  if (source === undefined) return undefined;
  const file = join(cacheDir, `cold-${key}.mjs`);
  writeFileSync(file, source);
  const samples: number[] = [];
  for (let index = 0; index < COLD_SAMPLES; index++) {
    const before = performance.now();
    const result = spawnSync(process.execPath, [file], { cwd: cacheDir, encoding: "utf8" });
    const elapsed = performance.now() - before;
    if (result.status !== 0 || !result.stdout.includes("ok")) return undefined;
    samples.push(elapsed);
  }
  return median(samples);
}

function ours(isolation: "in-process" | "worker-thread"): Engine {
  const executor = new QuickJSExecutor({ isolation, poolSize: 1 });
  const spinner = new QuickJSExecutor({ isolation, poolSize: 1, timeoutMs: SPIN_MS });
  let counter = 0;
  const bindings = [
    { global: "host", functions: { next: async () => ++counter, echo: async (value: unknown) => value } },
  ];
  const check = async (program: string, options: { spin?: boolean } = {}) => {
    const result = await (options.spin ? spinner : executor).run({ program, bindings });
    if (options.spin ? result.error?.kind !== "timeout" : result.error)
      throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };
  return {
    name: `QuickJSExecutor ${isolation} (ours)`,
    once: () => check("1 + 1"),
    onceWithCall: () => check("(await host.echo({ id: 1, tags: ['a'] })).id"),
    bridge: () => check(`for (let i = 0; i < ${BRIDGE_CALLS}; i++) await host.next(); 1`),
    bridgeTogether: () => check(`${together("host.next()")} 1`),
    spin: () => check("while (true) {}", { spin: true }),
    cold: isolation,
    dispose: async () => {
      await Promise.all([executor.dispose(), spinner.dispose()]);
    },
  };
}

/** The least a fresh QuickJS context per run costs: create runtime + context, evaluate, dispose. Not a usable sandbox. */
async function quickjsFloorEngine(): Promise<Engine> {
  // Typed as CommonJS; under ESM the default export is the variant itself.
  const variant =
    (variantImport as unknown as { default?: QuickJSSyncVariant }).default ??
    (variantImport as unknown as QuickJSSyncVariant);
  const module = await newQuickJSWASMModuleFromVariant(variant);
  return {
    name: "QuickJS floor: bare runtime + context per run (reference, nothing else)",
    once: async () => {
      const runtime = module.newRuntime();
      const context = runtime.newContext();
      try {
        const handle = context.unwrapResult(context.evalCode("1 + 1"));
        const value: unknown = context.dump(handle);
        handle.dispose();
        return value;
      } finally {
        context.dispose();
        runtime.dispose();
      }
    },
  };
}

function runPackageEngine(run: RunPackage): Engine {
  const runner = run.createRunner({ limits: { maxBridgeRequests: BRIDGE_CALLS + 10 } });
  const spinner = run.createRunner({ limits: { timeoutMs: SPIN_MS } });
  let counter = 0;
  const hostFunctions = { host: { next: async () => ++counter, echo: async (value: unknown) => value } };
  const check = async (source: string, status = "completed", on = runner) => {
    const result = (await on.run({ source, hostFunctions })) as { status: string };
    if (result.status !== status) throw new Error(`run: unexpected ${JSON.stringify(result).slice(0, 300)}`);
  };
  return {
    name: "`run` 2.1.5 (AI SDK code mode's runtime)",
    once: () => check("return 1 + 1"),
    onceWithCall: () => check("return (await host.echo({ id: 1, tags: ['a'] })).id"),
    bridge: () => check(`for (let i = 0; i < ${BRIDGE_CALLS}; i++) await host.next(); return 1`),
    bridgeTogether: () => check(`${together("host.next()")} return 1`),
    spin: async () => {
      // `run` rejects when its time limit stops a program.
      const result = (await spinner
        .run({ source: "while (true) {}", hostFunctions })
        .catch(() => ({ status: "stopped" }))) as { status: string };
      if (result.status === "completed") throw new Error("run: spin completed");
    },
    cold: "run",
  };
}

function isolatedVmContextEngine(ivm: IsolatedVm): Engine {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  let counter = 0;
  const next = new ivm.Reference(async () => ++counter);
  const echo = new ivm.Reference(async (value: unknown) => value);
  const withContext = async <T>(
    use: (context: Awaited<ReturnType<typeof isolate.createContext>>) => Promise<T>,
  ): Promise<T> => {
    const context = await isolate.createContext();
    try {
      return await use(context);
    } finally {
      context.release();
    }
  };
  return {
    name: "isolated-vm 5.0.4, a context per run",
    once: () => withContext((context) => context.eval("1 + 1")),
    onceWithCall: () =>
      withContext(async (context) => {
        await context.global.set("echo", echo);
        return context.eval(
          "(async () => (await echo.apply(undefined, [{ id: 1, tags: ['a'] }], { arguments: { copy: true }, result: { promise: true, copy: true } })).id)()",
          { promise: true },
        );
      }),
    bridge: () =>
      withContext(async (context) => {
        await context.global.set("next", next);
        return context.eval(
          `(async () => { for (let i = 0; i < ${BRIDGE_CALLS}; i++) await next.apply(undefined, [], { result: { promise: true, copy: true } }); return 1 })()`,
          { promise: true },
        );
      }),
    bridgeTogether: () =>
      withContext(async (context) => {
        await context.global.set("next", next);
        return context.eval(
          `(async () => { ${together("next.apply(undefined, [], { result: { promise: true, copy: true } })")} return 1 })()`,
          { promise: true },
        );
      }),
    spin: () => withContext((context) => context.eval("while (true) {}", { timeout: SPIN_MS }).catch(() => undefined)),
    cold: "isolated-vm",
    dispose: async () => {
      isolate.dispose();
    },
  };
}

function isolatedVmIsolateEngine(ivm: IsolatedVm): Engine {
  return {
    name: "isolated-vm 5.0.4, an isolate per run",
    once: async () => {
      const isolate = new ivm.Isolate({ memoryLimit: 64 });
      try {
        const context = await isolate.createContext();
        return await context.eval("1 + 1");
      } finally {
        isolate.dispose();
      }
    },
  };
}

function nodeVmEngine(): Engine {
  let counter = 0;
  const next = async () => ++counter;
  const echo = async (value: unknown) => structuredClone(value);
  return {
    name: "node:vm, a context per run (reference, not a sandbox)",
    once: async () => vm.runInNewContext("1 + 1"),
    onceWithCall: async () => vm.runInNewContext("(async () => (await echo({ id: 1, tags: ['a'] })).id)()", { echo }),
    bridge: async () =>
      vm.runInNewContext(`(async () => { for (let i = 0; i < ${BRIDGE_CALLS}; i++) await next(); return 1 })()`, {
        next,
      }),
    bridgeTogether: async () => vm.runInNewContext(`(async () => { ${together("next()")} return 1 })()`, { next }),
    spin: async () => {
      try {
        vm.runInNewContext("while (true) {}", {}, { timeout: SPIN_MS });
      } catch {
        // stopped by the timeout, as intended
      }
    },
    cold: "node-vm",
  };
}

function formatMs(ms: number | undefined, digits = 3): string {
  return ms === undefined ? "n/a" : `${ms.toFixed(digits)} ms`;
}

function formatUs(ms: number | undefined): string {
  return ms === undefined ? "n/a" : `${(ms * 1000).toFixed(1)} µs`;
}

function ratio(value: number | undefined, base: number | undefined): string {
  return value === undefined || base === undefined ? "" : ` (${(value / base).toFixed(1)}×)`;
}

/** Runs the executor benchmark and returns its markdown section. */
export async function run(): Promise<string> {
  const notes: string[] = [];
  const engines: Engine[] = [ours("in-process"), ours("worker-thread")];
  const runPackage = await loadRunPackage();
  if (typeof runPackage === "string") notes.push(`- \`run\` row skipped: ${runPackage}`);
  else engines.push(runPackageEngine(runPackage));
  const ivm = await loadIsolatedVm();
  if (typeof ivm === "string") notes.push(`- isolated-vm rows skipped: ${ivm}`);
  else engines.push(isolatedVmContextEngine(ivm), isolatedVmIsolateEngine(ivm));
  engines.push(nodeVmEngine(), await quickjsFloorEngine());

  const cacheDir = join(ROOT, "node_modules", ".cache", "ai-codemode-bench");
  mkdirSync(cacheDir, { recursive: true });
  const dist = buildPackage(cacheDir);
  if (dist === undefined) notes.push("- cold start of our executor skipped: `tsup` could not build the package.");
  const coldBaseline = sampleCold(cacheDir, "baseline");

  type Row = {
    name: string;
    warm?: number;
    warmCall?: number;
    bridge?: number;
    bridgeTogether?: number;
    stall?: number;
    cold?: number;
  };
  const rows: Row[] = engines.map((engine) => ({ name: engine.name }));
  const samples = engines.map(() => ({
    warm: [] as number[],
    warmCall: [] as number[],
    bridge: [] as number[],
    bridgeTogether: [] as number[],
  }));
  const failed = new Set<number>();
  const bridgeRounds: string[] = [];
  const attempt = async (index: number, measure: () => Promise<void>): Promise<void> => {
    if (failed.has(index)) return;
    try {
      await measure();
    } catch (error) {
      failed.add(index);
      notes.push(
        `- ${engines[index]?.name}: measurement failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  // Warm-up: JIT tiers, modules and workers ready.
  for (const [index, engine] of engines.entries()) {
    await attempt(index, async () => {
      for (let count = 0; count < 100; count++) await engine.once?.();
      for (let count = 0; count < 50; count++) await engine.onceWithCall?.();
      await engine.bridge?.();
      await engine.bridgeTogether?.();
    });
  }
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`  round ${round + 1}/${ROUNDS}\n`);
    for (const [index, engine] of engines.entries()) {
      const into = samples[index] as (typeof samples)[number];
      collectGarbage();
      await attempt(index, async () => {
        if (engine.once) into.warm.push(...(await timeRepeatedly(engine.once, WARM_SLICE_MS, 20)));
        if (engine.onceWithCall) into.warmCall.push(...(await timeRepeatedly(engine.onceWithCall, WARM_SLICE_MS, 20)));
        if (engine.bridge)
          into.bridge.push(...(await timeRepeatedly(engine.bridge, 0, 1)).map((ms) => ms / BRIDGE_CALLS));
        if (engine.bridgeTogether)
          into.bridgeTogether.push(
            ...(await timeRepeatedly(engine.bridgeTogether, 0, 1)).map((ms) => ms / BRIDGE_CALLS),
          );
      });
    }
  }
  for (const [index, engine] of engines.entries()) {
    const row = rows[index] as Row;
    const into = samples[index] as (typeof samples)[number];
    if (!failed.has(index)) {
      if (into.warm.length > 0) row.warm = median(into.warm);
      if (into.warmCall.length > 0) row.warmCall = median(into.warmCall);
      if (into.bridge.length > 0) row.bridge = median(into.bridge);
      if (into.bridgeTogether.length > 0) row.bridgeTogether = median(into.bridgeTogether);
      if (into.bridge.length > 0)
        bridgeRounds.push(`${engine.name}: ${into.bridge.map((ms) => (ms * 1000).toFixed(1)).join(", ")}`);
    }
    await attempt(index, async () => {
      if (engine.spin) row.stall = await sampleStall(engine.spin);
    });
    const ownBuildNeeded = engine.cold === "in-process" || engine.cold === "worker-thread";
    const cold = engine.cold && (dist !== undefined || !ownBuildNeeded) ? sampleCold(cacheDir, engine.cold) : undefined;
    if (cold !== undefined) row.cold = cold;
    await engine.dispose?.();
  }

  const base = rows[0];
  const lines = [
    "## Executor",
    "",
    `Measured in ${ROUNDS} interleaved rounds (each engine in turn, a full GC before each engine's slice${typeof (globalThis as { gc?: unknown }).gc === "function" ? "" : " — skipped: run with `node --expose-gc`"}), after a warm-up. Warm: median wall time of one trivial program (\`1 + 1\`) with a fresh context each run; with one host call: \`(await host.echo({ id: 1, tags: ["a"] })).id\` (object argument and result). Bridge: median over rounds of the cost per call of a program making ${BRIDGE_CALLS.toLocaleString("en-US")} sequential awaited host calls; ${TOGETHER} together: the same calls awaited ${TOGETHER} at a time with \`Promise.all\` (calls in flight together cross the worker boundary in one message each way). ` +
      `Stall: the longest the host event loop went without a 1 ms tick while a \`while (true) {}\` ran under a ${SPIN_MS} ms budget. ` +
      `Cold: median wall time of a fresh \`node\` process that loads the sandbox and runs one program (${COLD_SAMPLES} runs; an empty \`node\` process takes ${formatMs(coldBaseline, 0)}). ` +
      "Ratios are against our in-process row.",
    "",
    `| sandbox | warm per run | warm per run, one host call | bridge per call | bridge per call, ${TOGETHER} together | event-loop stall | cold start (process) |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (row) =>
        `| ${row.name} | ${formatMs(row.warm)}${ratio(row.warm, base?.warm)} | ${formatMs(row.warmCall)}${ratio(row.warmCall, base?.warmCall)} | ${formatUs(row.bridge)}${ratio(row.bridge, base?.bridge)} | ${formatUs(row.bridgeTogether)}${ratio(row.bridgeTogether, base?.bridgeTogether)} | ${formatMs(row.stall, 0)} | ${formatMs(row.cold, 0)} |`,
    ),
    "",
    "Targets: warm <= 0.5 ms in-process and <= 1 ms through the worker; bridge <= 30 µs per call in-process; >= 10× faster per execution than an isolated-vm context per run.",
  ];
  const floor = rows.find((row) => row.name.startsWith("QuickJS floor"))?.warm;
  const ivmContext = rows.find(
    (row) => row.name.includes("a context per run") && row.name.startsWith("isolated-vm"),
  )?.warm;
  if (floor !== undefined && ivmContext !== undefined) {
    lines.push(
      "",
      `A tenth of an isolated-vm context per run is ${formatMs(ivmContext / 10)}; creating a bare QuickJS runtime and context, ` +
        `with nothing else, takes ${formatMs(floor)} here (${(floor / (ivmContext / 10)).toFixed(1)}× that budget), so no sandbox that gives ` +
        "every run a fresh QuickJS context (the contract: runs share nothing) can reach the 10× target.",
    );
  }
  lines.push(
    "",
    "Bridge per call in each round (µs), to show the spread on this shared machine:",
    "",
    ...bridgeRounds.map((line) => `- ${line}`),
  );
  if (notes.length > 0) lines.push("", "Notes:", ...notes);
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await run());
  process.exit(0);
}
