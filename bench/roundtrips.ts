/**
 * Store round trips per pass, as a serverless function on Turso pays them
 * (issue 15). The store is an `@libsql/client` Client on the Hrana test server
 * (test/support/hrana-server.ts) over HTTP, with 0, 5 and 20 ms added to every
 * request; each `execute`/`batch` on the Client is one round trip (counted on
 * the Client; the server's pipeline count is checked against it). Programs:
 * - 20 read calls, then 1 write that needs approval: first pass and approval pass;
 * - 100 read calls;
 * - `Promise.all` of 10 writes.
 * Two columns: today's default, and the read calls marked
 * `connector(tools, { methods: { read: { readOnly: true } } })`, measured when
 * `connector()` accepts that policy (printed as not available until then).
 * The store is migrated before measuring; one in-process executor is shared.
 *
 * Run: `npm run bench -- roundtrips` (or `node --import tsx bench/roundtrips.ts`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "@libsql/client";
import { jsonSchema, tool } from "ai";
import { connector, type ConnectorOptions } from "../src/connectors/connector.js";
import { createCodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { countingClient } from "../test/support/counting-client.js";
import { startHranaServer, type HranaServer } from "../test/support/hrana-server.js";
import { roundtripRows, type Pass, type PolicyKey, type RoundtripProgram } from "./roundtrips-programs.js";

const LATENCIES_MS = [0, 5, 20];
const SAMPLES = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The `shop` tools; `effects` counts executions per method. */
function shopTools(effects: Map<string, number>) {
  const counted = (method: string, result: (input: { i?: number }) => unknown) =>
    tool({
      description: method,
      inputSchema: jsonSchema<{ i?: number }>({ type: "object", properties: { i: { type: "number" } } }),
      execute: async (input: { i?: number }) => {
        effects.set(method, (effects.get(method) ?? 0) + 1);
        return result(input);
      },
    });
  return {
    read: counted("read", ({ i }) => ({ i, price: (i ?? 0) * 10 })),
    write: counted("write", ({ i }) => ({ written: i })),
    approvedWrite: counted("approvedWrite", ({ i }) => ({ charged: i })),
  };
}

type ShopTools = ReturnType<typeof shopTools>;

const POLICIES: Record<PolicyKey, ConnectorOptions<ShopTools>> = {
  today: { methods: { approvedWrite: { needsApproval: true } } },
  readOnly: { methods: { approvedWrite: { needsApproval: true }, read: { readOnly: true } } },
};

/**
 * Whether `connector()` implements the `readOnly` method policy (it lands
 * later): the built method must carry it. Today `connector()` accepts the key
 * and drops it, so accepting alone proves nothing.
 */
function readOnlySupported(): boolean {
  try {
    const built = connector(shopTools(new Map()), POLICIES.readOnly);
    return (built.methods["read"] as { readOnly?: unknown } | undefined)?.readOnly === true;
  } catch {
    return false;
  }
}

interface Measured {
  roundTrips: number;
  ms: number;
  readsRerun: number;
}

/** One sample of one program: fresh database, migrated first, then each pass counted. */
async function sample(
  server: HranaServer,
  executor: QuickJSExecutor,
  program: RoundtripProgram,
  policy: PolicyKey,
  name: string,
): Promise<Record<Pass, Measured>> {
  const effects = new Map<string, number>();
  const inner = createClient({ url: server.databaseUrl(name) });
  const { client, roundTrips } = countingClient(inner);
  const runtime = createCodemodeRuntime({
    store: client,
    executor,
    connectors: { shop: connector(shopTools(effects), POLICIES[policy]) },
  });
  try {
    await runtime.execute({ code: "async () => 0" }); // migrations and first statements out of the count
    const measured: Partial<Record<Pass, Measured>> = {};
    let executionId = "";
    for (const pass of program.passes) {
      const before = { trips: roundTrips(), pipelines: server.stats.pipelines, reads: effects.get("read") ?? 0 };
      const started = performance.now();
      const out =
        pass === "first" ? await runtime.execute({ code: program.code }) : await runtime.approve({ executionId });
      const ms = performance.now() - started;
      executionId = out.executionId;
      if (out.status !== program.expect[pass]) throw new Error(`${program.name} ${pass}: ${JSON.stringify(out)}`);
      const trips = roundTrips() - before.trips;
      if (server.stats.pipelines - before.pipelines !== trips)
        throw new Error("client and server round-trip counts differ");
      measured[pass] = {
        roundTrips: trips,
        ms,
        readsRerun: pass === "approval" ? (effects.get("read") ?? 0) - before.reads : 0,
      };
    }
    return measured as Record<Pass, Measured>;
  } finally {
    await runtime.close();
    inner.close();
  }
}

async function measure(
  server: HranaServer,
  executor: QuickJSExecutor,
  program: RoundtripProgram,
  policy: PolicyKey,
  latencyMs: number,
  tag: string,
): Promise<Record<Pass, Measured>> {
  server.latencyMs = latencyMs;
  const samples: Array<Record<Pass, Measured>> = [];
  for (let index = 0; index < SAMPLES; index += 1)
    samples.push(await sample(server, executor, program, policy, `${tag}-${index}`));
  const out: Partial<Record<Pass, Measured>> = {};
  for (const pass of program.passes) {
    out[pass] = {
      roundTrips: median(samples.map((entry) => entry[pass].roundTrips)),
      ms: median(samples.map((entry) => entry[pass].ms)),
      readsRerun: median(samples.map((entry) => entry[pass].readsRerun)),
    };
  }
  return out as Record<Pass, Measured>;
}

/**
 * What a cold instance pays before its first pass: round trips of `execute("async () => 0")` on a new
 * runtime, over a database this package never opened and over one already at the current schema.
 */
async function coldOpen(server: HranaServer, executor: QuickJSExecutor): Promise<string[]> {
  server.latencyMs = 0;
  const trips = async (name: string): Promise<number> => {
    const inner = createClient({ url: server.databaseUrl(name) });
    const { client, roundTrips } = countingClient(inner);
    const runtime = createCodemodeRuntime({ store: client, executor, connectors: {} });
    try {
      const out = await runtime.execute({ code: "async () => 0" });
      if (out.status !== "completed") throw new Error(`cold open: ${JSON.stringify(out)}`);
      return roundTrips();
    } finally {
      await runtime.close();
      inner.close();
    }
  };
  const fresh = await trips("cold-open");
  const current = await trips("cold-open");
  return [
    "Round trips of a new runtime's first `execute` of `async () => 0` (schema check or migration, then the pass):",
    "",
    "| database | round trips |",
    "| --- | ---: |",
    `| never opened by this package | ${fresh} |`,
    `| at the current schema (every later cold start) | ${current} |`,
    "",
  ];
}

/** The markdown section. */
export async function run(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-roundtrips-"));
  const server = await startHranaServer({ path: join(folder, "root.db") });
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  try {
    const readOnly = readOnlySupported();
    let tags = 0;
    const rows = await roundtripRows(LATENCIES_MS, readOnly, (program, policy, latencyMs) =>
      measure(server, executor, program, policy, latencyMs, `m${++tags}`),
    );
    return [
      "## Store round trips (Turso over HTTP)",
      "",
      "An `@libsql/client` Client on the Hrana test server (`http://127.0.0.1`, a libsql file behind it) passed as `store`,",
      `with the latency added to every HTTP request; median of ${SAMPLES} samples, each on a fresh migrated database,`,
      "one in-process executor. Round trips: `execute`/`batch` calls on the Client (= HTTP requests, checked at the server).",
      "Wall time at 0 ms is the loopback HTTP request and the server's work alone (the machine's 1-min load average was",
      `${(loadavg()[0] ?? 0).toFixed(1)} at the end of this section: a bare loopback \`fetch\` costs more the busier it is).`,
      readOnly ? "" : "The `readOnly` method policy is not implemented yet: its columns read n/a.",
      "",
      ...(await coldOpen(server, executor)),
      "| program | pass | latency | round trips (today) | wall (today) | round trips (`readOnly`) | wall (`readOnly`) | reads re-run |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
    ]
      .filter((line, index, all) => !(line === "" && all[index - 1] === ""))
      .join("\n");
  } finally {
    await executor.dispose();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.stdout.write(`${await run()}\n`);
}
