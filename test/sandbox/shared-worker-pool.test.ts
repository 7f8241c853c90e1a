import { afterEach, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { sharedWorkerPool } from "../../src/sandbox/shared-worker-pool.js";
import type { CodeBindingNamespace } from "../../src/sandbox/types.js";

const bindings: CodeBindingNamespace[] = [{ global: "host", functions: { one: async () => 1 } }];
const executors: QuickJSExecutor[] = [];

/** An executor on a pool of its own: pools are process-wide per size, so each test uses a size no other test does. */
function executorOnFreshPool(poolSize: number): QuickJSExecutor {
  expect(sharedWorkerPool(poolSize).threadCount).toBe(0);
  const executor = new QuickJSExecutor({ poolSize });
  executors.push(executor);
  return executor;
}

afterEach(async () => {
  await Promise.all(executors.splice(0).map((executor) => executor.dispose()));
});

// Issue 15 (cold start): the first run must not wait for a whole pool, nor start a second thread
// beside the one started ahead of need (both would boot at once and the first result come later).
describe("the shared worker pool on a cold start", () => {
  it("the first run takes the worker started ahead of need: one thread when its result arrives", async () => {
    const executor = executorOnFreshPool(5);
    expect(sharedWorkerPool(5).threadCount).toBe(1);
    const result = await executor.run({ program: "await host.one()", bindings });
    expect(result.value).toBe(1);
    expect(sharedWorkerPool(5).threadCount).toBe(1);
  });

  it("runs started together: the first takes the warm worker, the others start their own (up to poolSize)", async () => {
    const executor = executorOnFreshPool(6);
    const results = await Promise.all(
      [1, 2, 3].map((n) => executor.run({ program: `(await host.one()) + ${n}`, bindings })),
    );
    expect(results.map((result) => result.value)).toEqual([2, 3, 4]);
    expect(sharedWorkerPool(6).threadCount).toBe(3);
  });

  it("a run aborted while the warm worker starts leaves that worker to the next run", async () => {
    const executor = executorOnFreshPool(7);
    const controller = new AbortController();
    const aborted = executor.run({ program: "await host.one()", bindings, signal: controller.signal });
    setImmediate(() => controller.abort());
    expect((await aborted).error?.kind).toBe("abort");
    const next = await executor.run({ program: "(await host.one()) + 1", bindings });
    expect(next.value).toBe(2);
    expect(sharedWorkerPool(7).threadCount).toBe(1);
  });
});
