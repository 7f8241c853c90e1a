/**
 * The remote store's driver, measured side by side in one run against the Hrana test server on loopback: the
 * store's own Hrana client (a URL given as `store`) beside Turso's fetch-only `@tursodatabase/serverless`
 * (its `@libsql/client`-compatible `compat` entry, a Client given as `store`) and `@libsql/client`'s `http` and
 * `web` entries (references). Two figures, the two a remote store's user pays:
 * - cold start: a fresh `node` process, spawn → first result of a one-call program (`app.greet({})`) on a
 *   database whose schema is current, variants interleaved, median;
 * - a journaled call: the runtime warm, a 200-call program (each call an effect: its row durable before the tool
 *   runs), the trivial program's time subtracted, median µs per call over interleaved rounds.
 * The alternatives live in bench/peers (`npm run bench:peers`); a missing one is left out and said so.
 * The decision these figures back: docs/decisions/store-remote-driver.md.
 *
 * Run: `npm run bench -- store-driver` (or `node --expose-gc --import tsx bench/store-driver.ts`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { jsonSchema, tool } from "ai";
import { createCodemodeRuntime, type CodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { startHranaServer, type HranaServer } from "../test/support/hrana-server.js";
import { timeToFirstLine } from "./cold.js";
import { collectGarbage } from "./gc.js";
import { median } from "./journaled-call-support.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PEERS = fileURLToPath(new URL("./peers/", import.meta.url));
const COLD_RUNS = 15;
const CALLS = 200;
const ROUNDS = 9;
/** The stream expiry of the idle probe's server (the test server's default, 10 s, scaled down). */
const IDLE_PROBE_MS = 500;

/** A driver of the remote store: how a program opens it, in a child script and in this process. */
interface Driver {
  key: string;
  name: string;
  /** The module whose `createClient` opens it; `undefined`: the store's own client (the URL is the `store`). */
  specifier: string | undefined;
  /** Where `specifier` resolves from: bench/peers, or the package's own dependencies. */
  from: "peers" | "root";
}

const DRIVERS: Driver[] = [
  { key: "ours", name: "ours (`hrana-http-client.ts`, a URL as `store`)", specifier: undefined, from: "root" },
  {
    key: "turso",
    name: "`@tursodatabase/serverless/compat` 1.4.0 (a Client as `store`)",
    specifier: "@tursodatabase/serverless/compat",
    from: "peers",
  },
  {
    key: "libsql-http",
    name: "`@libsql/client/http` (a Client as `store`)",
    specifier: "@libsql/client/http",
    from: "root",
  },
  {
    key: "libsql-web",
    name: "`@libsql/client/web` (a Client as `store`)",
    specifier: "@libsql/client/web",
    from: "root",
  },
];

/** The `file:` URL of a driver's module, or `undefined` when it is not installed. */
function driverUrl(driver: Driver): string | undefined {
  if (driver.specifier === undefined) return undefined;
  const require = createRequire(join(driver.from === "peers" ? PEERS : ROOT, "package.json"));
  try {
    return pathToFileURL(require.resolve(driver.specifier)).href;
  } catch {
    return undefined;
  }
}

function installed(driver: Driver): boolean {
  return driver.specifier === undefined || driverUrl(driver) !== undefined;
}

/** The child script: import `ai` and the package, open the runtime on the remote database, run one call. */
function coldScript(driver: Driver, url: string): string {
  const index = JSON.stringify(pathToFileURL(join(ROOT, "dist", "index.js")).href);
  const module = driverUrl(driver);
  const store =
    module === undefined
      ? JSON.stringify(url)
      : `(await import(${JSON.stringify(module)})).createClient({ url: ${JSON.stringify(url)} })`;
  return `const { jsonSchema, tool } = await import(${JSON.stringify(import.meta.resolve("ai"))});
const tools = {
  greet: tool({ description: "Greets", inputSchema: jsonSchema({ type: "object", properties: {} }), execute: async () => "hi" }),
};
const { connector, createCodemodeRuntime } = await import(${index});
const runtime = createCodemodeRuntime({ connectors: { app: connector(tools) }, store: ${store} });
const out = await runtime.execute({ code: "async () => app.greet({})" });
console.log(out.status === "completed" ? out.result : JSON.stringify(out));
`;
}

async function coldRuns(drivers: Driver[], folder: string, server: HranaServer): Promise<number[][]> {
  const url = server.databaseUrl("cold");
  const scripts = drivers.map((driver) => {
    const script = join(folder, `cold-${driver.key}.mjs`);
    writeFileSync(script, coldScript(driver, url));
    return script;
  });
  // Untimed: the database gets its schema (as a deployed function finds it), and each driver runs once.
  for (const script of scripts) await timeToFirstLine(script, folder);
  const times = drivers.map((): number[] => []);
  for (let round = 0; round < COLD_RUNS; round += 1) {
    for (const [index, script] of scripts.entries()) {
      const { ms, line } = await timeToFirstLine(script, folder);
      if (line !== "hi") throw new Error(`${drivers[index]!.name}: expected hi, got ${line}`);
      times[index]!.push(ms);
    }
  }
  return times;
}

const BODY = (calls: number) =>
  `async () => { let sum = 0; for (let i = 0; i < ${calls}; i++) sum += (await tools.inc({ i })).i; return sum; }`;

interface Warm {
  time(calls: number): Promise<number>;
  close(): Promise<void>;
}

async function warmRuntime(driver: Driver, url: string): Promise<Warm> {
  const module = driverUrl(driver);
  const client =
    module === undefined
      ? undefined
      : ((await import(module)) as { createClient(config: { url: string }): { close(): void } }).createClient({ url });
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  const inc = tool({
    description: "Adds one.",
    inputSchema: jsonSchema<{ i: number }>({ type: "object", properties: { i: { type: "integer" } } }),
    execute: async ({ i }) => ({ i: i + 1 }),
  });
  const runtime: CodemodeRuntime = createCodemodeRuntime({
    connectors: { tools: { inc } },
    store: (client ?? url) as string,
    executor,
  });
  return {
    async time(calls) {
      const started = performance.now();
      const out = await runtime.execute({ code: BODY(calls) });
      const ms = performance.now() - started;
      if (out.status !== "completed" || out.result !== (calls * (calls + 1)) / 2)
        throw new Error(`${driver.name}: ${out.status === "error" ? out.error : JSON.stringify(out).slice(0, 300)}`);
      return ms;
    },
    async close() {
      await runtime.close();
      client?.close();
      await executor.dispose();
    },
  };
}

async function journaledCalls(drivers: Driver[], server: HranaServer): Promise<number[][]> {
  const warm = await Promise.all(
    drivers.map((driver) => warmRuntime(driver, server.databaseUrl(`warm-${driver.key}`))),
  );
  try {
    for (const runtime of warm) {
      await runtime.time(0);
      await runtime.time(CALLS);
    }
    const samples = drivers.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, runtime] of warm.entries()) {
        collectGarbage();
        const trivial = await runtime.time(0);
        const loaded = await runtime.time(CALLS);
        samples[index]!.push(((loaded - trivial) / CALLS) * 1000);
      }
    }
    return samples;
  } finally {
    for (const runtime of warm) await runtime.close();
  }
}

/**
 * Whether a driver's runtime still works after its connection sat idle past the server's stream expiry: one
 * program, a pause longer than the expiry, another program. The status of the second, or its error.
 */
async function afterIdle(driver: Driver, folder: string): Promise<string> {
  const server = await startHranaServer({ path: join(folder, `idle-${driver.key}.db`), streamIdleMs: IDLE_PROBE_MS });
  const warm = await warmRuntime(driver, server.databaseUrl("idle"));
  try {
    await warm.time(1);
    await new Promise((resolve) => setTimeout(resolve, IDLE_PROBE_MS * 3));
    await warm.time(1);
    return "completed";
  } catch (error) {
    return `failed: ${(error instanceof Error ? error.message : String(error)).replace(/^[^:]*: /, "").slice(0, 200)}`;
  } finally {
    await warm.close();
    await server.close();
  }
}

/** The markdown section. */
export async function run(): Promise<string> {
  execFileSync("npx", ["tsup", "--silent"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const drivers = DRIVERS.filter(installed);
  const missing = DRIVERS.filter((driver) => !installed(driver));
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-store-driver-"));
  // Streams outlive the measurement: a driver that holds one between requests is timed, not failed (see afterIdle).
  const server = await startHranaServer({ path: join(folder, "remote.db"), streamIdleMs: 3_600_000 });
  const loadBefore = loadavg()[0] ?? 0;
  let cold: number[][];
  let calls: number[][];
  const idle: string[] = [];
  try {
    cold = await coldRuns(drivers, folder, server);
    calls = await journaledCalls(drivers, server);
    for (const driver of drivers) idle.push(await afterIdle(driver, folder));
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
  const loadAfter = loadavg()[0] ?? 0;
  const coldBase = median(cold[0]!);
  const callBase = median(calls[0]!);
  return [
    "## The remote store's driver",
    "",
    `Against the Hrana test server on loopback, drivers interleaved (load average ${loadBefore.toFixed(2)} before,`,
    `${loadAfter.toFixed(2)} after). Cold start: spawn → first result of a fresh \`node\` process running a one-call`,
    `program on a remote database whose schema is current, median of ${COLD_RUNS}. Journaled call: the runtime warm`,
    `(in-process executor), a ${CALLS}-call program (each call an effect) minus the trivial one, median µs per call of`,
    `${ROUNDS} rounds. Ratios are against the first row.`,
    "",
    `The last column runs a program, leaves the connection idle past the server's stream expiry (${IDLE_PROBE_MS} ms here),`,
    "and runs another: a driver that keeps a stream (a baton) between requests finds it gone.",
    "",
    "| driver | cold start: median | runs | ratio | journaled call: µs | ratio | after an idle expiry |",
    "| --- | ---: | --- | ---: | ---: | ---: | --- |",
    ...drivers.map((driver, index) => {
      const coldMedian = median(cold[index]!);
      const callMedian = median(calls[index]!);
      return (
        `| ${driver.name} | ${coldMedian.toFixed(0)} ms | ${cold[index]!.map((ms) => ms.toFixed(0)).join(", ")} | ` +
        `${(coldMedian / coldBase).toFixed(2)}× | ${callMedian.toFixed(0)} | ${(callMedian / callBase).toFixed(2)}× | ${idle[index]} |`
      );
    }),
    ...(missing.length === 0
      ? []
      : [
          "",
          `Not installed, not measured: ${missing.map((driver) => driver.specifier).join(", ")} (run \`npm run bench:peers\`).`,
        ]),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await run()}\n`);
  process.exit(0);
}
