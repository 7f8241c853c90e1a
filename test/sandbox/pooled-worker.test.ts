import type { WorkerOptions } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { compiledQuickJSWasm } from "../../src/sandbox/quickjs-module-pool.js";
import { PooledWorker } from "../../src/sandbox/pooled-worker.js";
import type { CodeBindingNamespace } from "../../src/sandbox/types.js";
import type { WorkerStartData } from "../../src/sandbox/worker-protocol.js";

/** Every worker thread started in this file: whether the compiled wasm came with its start data. */
const started = vi.hoisted(() => [] as Array<{ withModule: boolean }>);

vi.mock("../../src/sandbox/worker-entry.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/sandbox/worker-entry.js")>();
  return {
    startQuickJSWorker: (options: WorkerOptions) => {
      started.push({ withModule: (options.workerData as WorkerStartData).wasmModule !== undefined });
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
  it("starts at once with the compiled wasm (no asynchronous compile first)", async () => {
    expect(compiledQuickJSWasm()).toBeUndefined();
    const starting = PooledWorker.start(64 * MIB, () => undefined);
    // The thread is booting before start() yields: nothing waits for a turn of the main thread.
    expect(started).toEqual([{ withModule: true }]);
    const worker = await starting;
    workers.push(worker);
    expect(worker.dead).toBe(false);
  });

  it("a later worker gets the same compiled module, and runs programs", async () => {
    const compiled = compiledQuickJSWasm();
    const executor = new QuickJSExecutor({ poolSize: 3 });
    const result = await executor.run({ program: "(await host.one()) + 1", bindings });
    expect(result.value).toBe(2);
    expect(started.slice(1)).toEqual([{ withModule: true }]);
    expect(compiledQuickJSWasm()).toBe(compiled);
    await executor.dispose();
  });
});
