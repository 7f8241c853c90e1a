/**
 * What a cold start loads: a fresh process imports `ai` and the built package and runs one validated connector call
 * with the defaults (worker-thread executor) on a `file:` store and on a remote one (the Hrana test server over
 * HTTP). A module hook (for `import` and `require`, in every thread) logs each module loaded, so a dependency made
 * eager again — tracing, TypeScript stripping, OpenAPI, MCP, YAML, a driver the URL does not need, `fetch`'s undici or
 * TLS for a plain-HTTP store — fails here, naming it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHranaServer, type HranaServer } from "../support/hrana-server.js";

let folder = "";
let server: HranaServer;

const HOOKS = `
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { threadId } from "node:worker_threads";
registerHooks({
  load(url, context, next) {
    appendFileSync(process.env.LOAD_LOG, threadId + " " + url + "\\n");
    return next(url, context);
  },
});
`;

/**
 * Packages no first run needs, whatever its store. `@opentelemetry/api` is not among them: with tracing on (the
 * default) the runtime asks its public API whether a tracer provider is registered (docs/decisions/tracing.md);
 * with none registered nothing else of tracing loads, and the worker thread never loads it (checked below).
 */
const NEVER_ON_A_FIRST_RUN = [
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/context-async-hooks",
  "sucrase",
  "js-yaml",
  "@apidevtools/json-schema-ref-parser",
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/server",
  "@ai-sdk/mcp",
  "@libsql/client",
  "@libsql/hrana-client",
  "ws",
  // Optional peers of ai-codemode/react alone.
  "react",
  "react-dom",
  "@ai-sdk/react",
];

interface Loaded {
  /** Packages (by `node_modules` folder) each thread loaded: `main` and `worker`. */
  main: Set<string>;
  worker: Set<string>;
  /** Every module file (not a Node built-in) the worker thread loaded. */
  workerFiles: string[];
  /** Node's built-in modules of the main thread that name undici or TLS. */
  builtins: string[];
  result: unknown;
}

function packageOf(url: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
}

/** Runs the one-call program in a fresh process on `store`; what each thread loaded. */
async function firstRun(store: string): Promise<Loaded> {
  const log = join(folder, `loaded-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, "");
  const program = `const { jsonSchema, tool } = await import("ai");
const { connector, createCodemodeRuntime } = await import(${JSON.stringify(pathToFileURL(resolve("dist/index.js")).href)});
const greet = tool({
  description: "Greets",
  inputSchema: jsonSchema({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
  execute: async ({ name }) => "hi " + name,
});
const runtime = createCodemodeRuntime({ connectors: { app: connector({ greet }) }, store: ${JSON.stringify(store)} });
const output = await runtime.execute({ code: "async () => app.greet({ name: 'Ada' })" });
await runtime.close();
const builtins = process.moduleLoadList.filter((name) => /undici|\\btls\\b/.test(name));
console.log(JSON.stringify({ result: output.status === "completed" ? output.result : output, builtins }));
process.exit(0);
`;
  const hooks = pathToFileURL(join(folder, "hooks.mjs")).href;
  // Asynchronous: the Hrana server answers from this process meanwhile.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", hooks, "--input-type=module", "-e", program],
    { env: { ...process.env, LOAD_LOG: log }, encoding: "utf8", timeout: 60_000 },
  );
  const { result, builtins } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Pick<
    Loaded,
    "result" | "builtins"
  >;
  const main = new Set<string>();
  const worker = new Set<string>();
  const workerFiles: string[] = [];
  for (const line of readFileSync(log, "utf8").split("\n")) {
    const [thread, url = ""] = line.split(" ");
    if (thread !== "0" && url.startsWith("file:")) workerFiles.push(url);
    const name = packageOf(url);
    if (name !== undefined) (thread === "0" ? main : worker).add(name);
  }
  return { main, worker, workerFiles, builtins, result };
}

describe("a cold start loads what its first run needs, and nothing else", () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-cold-loads-"));
    writeFileSync(join(folder, "hooks.mjs"), HOOKS);
    server = await startHranaServer({ path: join(folder, "remote.db") });
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("on a file: store: the embedded driver, the parser and the validator, and no optional subsystem", async () => {
    const loaded = await firstRun(`file:${join(folder, "local.db")}`);
    expect(loaded.result).toBe("hi Ada");
    // The hook sees the modules the run needs (so an empty log cannot pass).
    expect([...loaded.main]).toEqual(expect.arrayContaining(["libsql", "acorn", "@cfworker/json-schema"]));
    for (const name of NEVER_ON_A_FIRST_RUN) expect(loaded.main, name).not.toContain(name);
    expect(loaded.worker, "@opentelemetry/api in the worker").not.toContain("@opentelemetry/api");
  });

  it("on a remote store: no database package, no undici and no TLS for a plain-HTTP URL", async () => {
    const loaded = await firstRun(server.databaseUrl("cold"));
    expect(loaded.result).toBe("hi Ada");
    for (const name of [...NEVER_ON_A_FIRST_RUN, "libsql", "@neon-rs/load", "detect-libc"]) {
      expect(loaded.main, name).not.toContain(name);
    }
    expect(loaded.builtins).toEqual([]);
  });

  it("importing the package loads no node:crypto (hashes and tokens load it at first use, while the worker boots)", async () => {
    const program = `await import("ai");
await import(${JSON.stringify(pathToFileURL(resolve("dist/index.js")).href)});
console.log(JSON.stringify(process.moduleLoadList.filter((name) => /\\bcrypto\\b/.test(name))));
process.exit(0);
`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", program], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "null")).toEqual([]);
  });

  it("the sandbox worker loads one file, QuickJS's glue bundled in: no package, nothing of the runtime or of ai", async () => {
    const loaded = await firstRun(`file:${join(folder, "worker.db")}`);
    expect(loaded.result).toBe("hi Ada");
    // A worker thread boots with an empty module cache: each further file is a resolution, a read and a compile on
    // the way to the first result (tsup.config.ts).
    expect(loaded.workerFiles).toEqual([pathToFileURL(resolve("dist/quickjs-worker.cjs")).href]);
    expect([...loaded.worker]).toEqual([]);
  });
});
