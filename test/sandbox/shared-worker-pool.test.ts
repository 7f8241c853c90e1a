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

/** Waits (polling each turn, up to a generous bound) until `done()` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 6_000 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!done()) throw new Error(`never happened: ${what}`);
}

/** Runs that wait on gates the test opens: `wait({ id })` resolves when `open(id)` is called; `started` in order. */
function gates(): { bindings: CodeBindingNamespace[]; started: string[]; open: (id: string) => void } {
  const waiting = new Map<string, () => void>();
  const opened = new Set<string>();
  const started: string[] = [];
  const wait = async (args: unknown): Promise<string> => {
    const { id } = args as { id: string };
    started.push(id);
    if (!opened.has(id)) await new Promise<void>((resolve) => waiting.set(id, resolve));
    return id;
  };
  const open = (id: string): void => {
    opened.add(id);
    waiting.get(id)?.();
  };
  return { bindings: [{ global: "slow", functions: { wait } }], started, open };
}

describe("the shared worker pool across owners (fairnessKey)", () => {
  it("an owner's runs blocked on a connector leave a worker for another owner's one-line program", async () => {
    const executor = executorOnFreshPool(3);
    const { bindings: slow, started, open } = gates();
    const ids = ["a1", "a2", "a3", "a4"];
    const alice = ids.map((id) =>
      executor.run({ program: `await slow.wait({ id: "${id}" })`, bindings: slow, fairnessKey: "alice" }),
    );
    // Alice holds her share (all workers but one) and her other runs wait.
    await until(() => started.length === 2, "alice's first runs started");
    const bob = await executor.run({ program: "1 + 1", bindings, fairnessKey: "bob" });
    expect(bob.value).toBe(2);
    // Alice's runs were blocked all along.
    expect(started.length).toBe(2);
    for (const id of ids) open(id);
    expect((await Promise.all(alice)).map((result) => result.value)).toEqual(ids);
  });

  it("runs waiting for a worker are served in turn across owners, not first come first served", async () => {
    const executor = executorOnFreshPool(4);
    const { bindings: slow, started, open } = gates();
    const run = (id: string, fairnessKey: string) =>
      executor.run({ program: `await slow.wait({ id: "${id}" })`, bindings: slow, fairnessKey });
    // Alice holds three workers (her share), bob the fourth.
    const runs = [run("a1", "alice"), run("a2", "alice"), run("a3", "alice"), run("b1", "bob")];
    await until(() => started.length === 4, "the pool is busy");
    expect([...started].sort()).toEqual(["a1", "a2", "a3", "b1"]);
    // Queued in this order: bob twice, then carol.
    const pool = sharedWorkerPool(4);
    runs.push(run("b2", "bob"));
    await until(() => pool.queued === 1, "b2 queued");
    runs.push(run("b3", "bob"));
    await until(() => pool.queued === 2, "b3 queued");
    runs.push(run("c1", "carol"));
    await until(() => pool.queued === 3, "c1 queued");
    open("b1");
    await until(() => started.length === 5, "the next run started");
    open("b2");
    await until(() => started.length === 6, "the next run started");
    // Bob was served, so carol's turn came before bob's second waiting run.
    expect(started.slice(4)).toEqual(["b2", "c1"]);
    for (const id of ["a1", "a2", "a3", "b3", "c1"]) open(id);
    expect((await Promise.all(runs)).every((result) => result.error === undefined)).toBe(true);
  });

  it("refuses a fairnessKey that is not a string", async () => {
    const executor = new QuickJSExecutor({ isolation: "in-process" });
    executors.push(executor);
    const result = await executor.run({ program: "1", bindings, fairnessKey: 7 as unknown as string });
    expect(result.error).toEqual({ kind: "exception", message: "fairnessKey must be a string (who the run is for)." });
  });
});
