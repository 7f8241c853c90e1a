/**
 * Child scripts of the cold-start bench (bench/cold.ts): plain ES modules
 * written to a temporary folder and run by `node` with nothing preloaded.
 * Every import is an absolute file URL resolved by the parent, so the scripts
 * load exactly the installed packages and the built `dist/`. Each prints one
 * line: the program's result (or the import time in ms).
 */

/** Absolute module URLs the scripts import. */
export interface ColdUrls {
  ai: string;
  /** The built package folder (`dist/`). */
  dist: string;
  quickjsCore: string;
  quickjsVariant: string;
  resolve: (specifier: string) => string;
  /** `@ai-sdk/code-mode` and the `ai` it runs with (bench/peers), when installed. */
  peer: { codeMode: string; ai: string } | undefined;
}

/** The store a variant's runtime opens: a fresh local file, or the Hrana test server over HTTP. */
type ColdStore = "file" | "remote" | "none";

/** One variant of the spawn → first result measurement. */
export interface ColdVariant {
  key: string;
  name: string;
  /** The line the script prints when the program ran. */
  expect: string;
  /** Which store URL `script` is given (`none`: the variant keeps no journal). */
  store: ColdStore;
  /** Measured only when the `@ai-sdk/code-mode` peer is installed. */
  needsPeer?: boolean;
  script: (urls: ColdUrls, storeUrl: string) => string;
}

const GREET_TOOLS = (ai: string) => `const { jsonSchema, tool } = await import(${JSON.stringify(ai)});
const tools = {
  greet: tool({ description: "Greets", inputSchema: jsonSchema({ type: "object", properties: {} }), execute: async () => "hi" }),
};`;

function codemodeScript(urls: ColdUrls, storeUrl: string, executor: "default" | "in-process"): string {
  const index = JSON.stringify(`${urls.dist}/index.js`);
  return `${GREET_TOOLS(urls.ai)}
const { connector, createCodemodeRuntime, QuickJSExecutor } = await import(${index});
const runtime = createCodemodeRuntime({
  connectors: { app: connector(tools) },
  store: ${JSON.stringify(storeUrl)},
  ${executor === "in-process" ? 'executor: new QuickJSExecutor({ isolation: "in-process" }),' : ""}
});
const out = await runtime.execute({ code: "async () => app.greet({})" });
console.log(out.status === "completed" ? out.result : JSON.stringify(out));
`;
}

function bareScript(urls: ColdUrls): string {
  return `${GREET_TOOLS(urls.ai)}
const { newQuickJSWASMModuleFromVariant } = await import(${JSON.stringify(urls.quickjsCore)});
const variant = (await import(${JSON.stringify(urls.quickjsVariant)})).default;
const quickjs = await newQuickJSWASMModuleFromVariant(variant);
const context = quickjs.newContext();
const greet = context.newFunction("greet", (argument) => {
  const input = context.dump(argument);
  const deferred = context.newPromise();
  tools.greet.execute(input, { toolCallId: "1", messages: [] }).then((value) => {
    const handle = context.newString(value);
    deferred.resolve(handle);
    handle.dispose();
  });
  deferred.settled.then(() => context.runtime.executePendingJobs());
  return deferred.handle;
});
const app = context.newObject();
context.setProp(app, "greet", greet);
context.setProp(context.global, "app", app);
greet.dispose();
app.dispose();
const promise = context.unwrapResult(context.evalCode("(async () => app.greet({}))()"));
const settled = context.resolvePromise(promise);
promise.dispose();
context.runtime.executePendingJobs();
const result = context.unwrapResult(await settled);
console.log(context.getString(result));
`;
}

/**
 * `@ai-sdk/code-mode`, the AI SDK's own code mode, with the exact `ai` it pins (bench/peers): its
 * `experimental_runCodeMode` on a function body calling the tool. No journal, no store.
 */
function peerScript(urls: ColdUrls): string {
  const peer = urls.peer;
  if (peer === undefined) throw new Error("the @ai-sdk/code-mode peer is not installed");
  return `${GREET_TOOLS(peer.ai)}
const { experimental_runCodeMode } = await import(${JSON.stringify(peer.codeMode)});
const result = await experimental_runCodeMode({ js: "return await tools.greet({})", tools });
console.log(typeof result === "string" ? result : JSON.stringify(result));
`;
}

/**
 * `run` 2.1.5, the QuickJS runtime behind the AI SDK's own code mode (`@ai-sdk/code-mode` runs on it):
 * the same tool called as a host function, `ai` imported too. No journal, no store: the lower bound of what that
 * package pays.
 */
function runPackageScript(urls: ColdUrls): string {
  return `${GREET_TOOLS(urls.ai)}
const { run } = await import(${JSON.stringify(urls.resolve("run"))});
const result = await run({
  source: "return await app.greet({})",
  hostFunctions: { app: { greet: (input) => tools.greet.execute(input, { toolCallId: "1", messages: [] }) } },
});
console.log(result.status === "completed" ? result.value : JSON.stringify(result));
`;
}

/** The variants, the reference first (ratios are against it). */
export const COLD_VARIANTS: ColdVariant[] = [
  {
    key: "bare",
    name: 'bare quickjs-emscripten + `import("ai")`',
    expect: "hi",
    store: "none",
    script: (urls) => bareScript(urls),
  },
  {
    key: "codemode",
    name: "ai-codemode (defaults: worker-thread executor, `file:` store)",
    expect: "hi",
    store: "file",
    script: (urls, store) => codemodeScript(urls, store, "default"),
  },
  {
    key: "codemode-remote",
    name: "ai-codemode (defaults, remote store: the Hrana test server over `http://127.0.0.1`)",
    expect: "hi",
    store: "remote",
    script: (urls, store) => codemodeScript(urls, store, "default"),
  },
  {
    key: "codemode-in-process",
    name: 'ai-codemode, `executor: new QuickJSExecutor({ isolation: "in-process" })`, `file:` store',
    expect: "hi",
    store: "file",
    script: (urls, store) => codemodeScript(urls, store, "in-process"),
  },
  {
    key: "peer",
    name: '`@ai-sdk/code-mode` (`experimental_runCodeMode`) + its `import("ai")`',
    expect: "hi",
    store: "none",
    needsPeer: true,
    script: (urls) => peerScript(urls),
  },
  {
    key: "run",
    name: '`run` 2.1.5 (the runtime under `@ai-sdk/code-mode`) + `import("ai")`',
    expect: "hi",
    store: "none",
    script: (urls) => runPackageScript(urls),
  },
];

/** One module whose import time is measured. */
export interface ImportTarget {
  key: string;
  name: string;
  url: (urls: ColdUrls) => string;
  /** Measured with `ai` already imported (what the package adds to an app); default true. */
  afterAi?: boolean;
  /** Imported first and not counted, instead of the root's `ai`. */
  after?: (urls: ColdUrls) => string | undefined;
  /** Measured only when the `@ai-sdk/code-mode` peer is installed. */
  needsPeer?: boolean;
}

/** Entry points of the package, then the heavy dependencies for reference. */
export const IMPORT_TARGETS: ImportTarget[] = [
  { key: "index", name: "`ai-codemode`", url: (urls) => `${urls.dist}/index.js` },
  { key: "ui", name: "`ai-codemode/ui`", url: (urls) => `${urls.dist}/ui.js` },
  { key: "openapi", name: "`ai-codemode/openapi`", url: (urls) => `${urls.dist}/openapi.js` },
  { key: "test", name: "`ai-codemode/test`", url: (urls) => `${urls.dist}/test.js` },
  { key: "sandbox", name: "`ai-codemode/sandbox`", url: (urls) => `${urls.dist}/sandbox.js` },
  { key: "ai", name: "`ai` (reference, alone)", url: (urls) => urls.ai, afterAi: false },
  {
    key: "peer-ai",
    name: "`ai` 7.0.85, the peer's (reference, alone)",
    url: (urls) => urls.peer?.ai ?? "",
    afterAi: false,
    needsPeer: true,
  },
  {
    key: "peer",
    name: "`@ai-sdk/code-mode` after its `ai` (reference)",
    url: (urls) => urls.peer?.codeMode ?? "",
    after: (urls) => urls.peer?.ai,
    needsPeer: true,
  },
  {
    key: "libsql-http",
    name: "`@libsql/client/http` (reference; a remote store's driver before the store's own Hrana client)",
    url: (urls) => urls.resolve("@libsql/client/http"),
  },
  { key: "libsql-client", name: "`@libsql/client` (reference)", url: (urls) => urls.resolve("@libsql/client") },
  { key: "libsql", name: "`libsql` (reference)", url: (urls) => urls.resolve("libsql") },
  {
    key: "sucrase",
    name: "`sucrase` (reference; only for TypeScript programs)",
    url: (urls) => urls.resolve("sucrase"),
  },
  { key: "acorn", name: "`acorn` (reference; loaded by the first program)", url: (urls) => urls.resolve("acorn") },
  {
    key: "json-schema",
    name: "`@cfworker/json-schema` (reference; loaded as a run starts, when a connector validates with JSON Schema)",
    url: (urls) => urls.resolve("@cfworker/json-schema"),
  },
  { key: "quickjs", name: "`quickjs-emscripten-core` (reference)", url: (urls) => urls.quickjsCore },
];

/**
 * A script printing the ms one `import()` of `url` takes; `after` (the `ai`
 * package an app loads anyway) is imported first and not counted.
 */
export function importScript(url: string, after?: string): string {
  return `${after === undefined ? "" : `await import(${JSON.stringify(after)});\n`}const started = performance.now();
await import(${JSON.stringify(url)});
console.log((performance.now() - started).toFixed(1));
`;
}

/**
 * A script printing the ms from `new Worker(…)` to the first message of an empty CommonJS worker: the
 * floor under the default executor's first run (its worker thread boots on the second core meanwhile).
 */
export function workerBootScript(): string {
  return `import { Worker } from "node:worker_threads";
const started = performance.now();
const worker = new Worker("require('node:worker_threads').parentPort.postMessage(0)", { eval: true });
worker.once("message", () => {
  console.log((performance.now() - started).toFixed(1));
  worker.terminate();
});
`;
}
