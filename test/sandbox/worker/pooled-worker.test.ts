import type { WorkerOptions } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { compiledQuickJSWasm } from "../../../src/sandbox/quickjs/quickjs-module-pool.js";
import { PooledWorker } from "../../../src/sandbox/worker/pooled-worker.js";
import type { CodeBindingNamespace } from "../../../src/sandbox/types.js";
import type { WorkerStartData } from "../../../src/sandbox/worker/worker-protocol.js";

/**
 * Every worker thread started in this file: whether the wasm was compiled in this process when the thread started,
 * and whether it came with the start data (it follows as the first message instead).
 */
const started = vi.hoisted(() => [] as Array<{ compiledBefore: boolean; inStartData: boolean }>);

vi.mock("../../../src/sandbox/worker/worker-entry.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/sandbox/worker/worker-entry.js")>();
  return {
    startQuickJSWorker: (options: WorkerOptions) => {
      started.push({
        compiledBefore: compiledQuickJSWasm() !== undefined,
        inStartData: "wasmModule" in (options.workerData as WorkerStartData),
      });
      return original.startQuickJSWorker(options);
    },
  };
});

const MIB = 1024 * 1024;
const bindings: CodeBindingNamespace[] = [{ global: "host", functions: { one: async () => 1 } }];
const workers: PooledWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()));
});

// Issue 15 (cold start). Vitest runs each test file in a fresh process: nothing is compiled yet
// when the first test starts, and the tests run in order.
describe("a worker thread on a cold start", () => {
  it("starts the thread first, then compiles the wasm while it boots (no asynchronous compile)", async () => {
    expect(compiledQuickJSWasm()).toBeUndefined();
    const starting = PooledWorker.start(64 * MIB, () => undefined);
    // The thread was started before the compile, and both happened before start() yields: nothing waits for a
    // turn of the main thread.
    expect(started).toEqual([{ compiledBefore: false, inStartData: false }]);
    expect(compiledQuickJSWasm()).toBeInstanceOf(WebAssembly.Module);
    const worker = await starting;
    workers.push(worker);
    expect(worker.dead).toBe(false);
  });

  it("a later worker gets the same compiled module, and runs programs", async () => {
    const compiled = compiledQuickJSWasm();
    const executor = new QuickJSExecutor({ poolSize: 3 });
    const result = await executor.run({ program: "(await host.one()) + 1", bindings });
    expect(result.value).toBe(2);
    expect(started.slice(1)).toEqual([{ compiledBefore: true, inStartData: false }]);
    expect(compiledQuickJSWasm()).toBe(compiled);
    await executor.dispose();
  });
});
