/**
 * Child-process scripts for the cold-start measurement: each loads one sandbox in a fresh `node`
 * process, runs one trivial program and prints `ok`. They run from
 * `node_modules/.cache/ai-codemode-bench/`, where the package is built to `dist/`.
 */

/** Script source by engine key. */
export const COLD_START_SCRIPTS: Record<string, string> = {
  baseline: `console.log("ok");`,
  "in-process": `import { QuickJSExecutor } from "./dist/sandbox.js";
const executor = new QuickJSExecutor({ isolation: "in-process" });
const result = await executor.run({ program: "1 + 1", bindings: [] });
if (result.value === 2) console.log("ok");
await executor.dispose();`,
  "worker-thread": `import { QuickJSExecutor } from "./dist/sandbox.js";
const executor = new QuickJSExecutor({ poolSize: 1 });
const result = await executor.run({ program: "1 + 1", bindings: [] });
if (result.value === 2) console.log("ok");
await executor.dispose();`,
  run: `import { run } from "run";
const result = await run({ source: "return 1 + 1" });
if (result.status === "completed" && result.value === 2) console.log("ok");
process.exit(0);`,
  "isolated-vm": `import ivm from "isolated-vm";
const isolate = new ivm.Isolate({ memoryLimit: 64 });
const context = await isolate.createContext();
if ((await context.eval("1 + 1")) === 2) console.log("ok");
isolate.dispose();`,
  "node-vm": `import vm from "node:vm";
if (vm.runInNewContext("1 + 1") === 2) console.log("ok");`,
};
