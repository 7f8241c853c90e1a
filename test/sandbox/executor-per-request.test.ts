import { describe, expect, it } from "vitest";
import { fds, settle, threads } from "../support/process-resources.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { sharedWorkerThreads } from "../../src/sandbox/worker/shared-worker-pool.js";
import type { CodeBindingNamespace } from "../../src/sandbox/types.js";

const MIB = 1024 * 1024;
const REQUESTS = 200;

const bindings: CodeBindingNamespace[] = [
  { global: "host", functions: { add: async (args) => (args as { n: number }).n + 1 } },
];

// Issue 12, item 1: `codemodeTool({ tools })` made per request builds an executor per request and
// never closes it. Before: ~2 threads, ~10 fds and 25–30 MB per executor.
describe.each(["worker-thread", "in-process"] as const)("an executor per request, never disposed (%s)", (isolation) => {
  it(`${REQUESTS} executors, one program each: threads, fds and RSS stay flat`, async () => {
    const warm = new QuickJSExecutor({ isolation });
    expect((await warm.run({ program: "await host.add({ n: 1 })", bindings })).value).toBe(2);
    await settle();
    const before = { threads: threads(), fds: fds(), rss: process.memoryUsage().rss };
    for (let request = 0; request < REQUESTS; request++) {
      const executor = new QuickJSExecutor({ isolation });
      const result = await executor.run({ program: `await host.add({ n: ${request} })`, bindings });
      expect(result.value).toBe(request + 1);
    }
    const during = { threads: threads(), workers: sharedWorkerThreads() };
    await settle();
    const after = { threads: threads(), fds: fds(), rss: process.memoryUsage().rss };
    console.info(
      `${isolation}: threads ${before.threads} → ${during.threads} (pool ${during.workers}) → ${after.threads} after GC; ` +
        `fds ${before.fds} → ${after.fds}; RSS ${(before.rss / MIB).toFixed(0)} → ${(after.rss / MIB).toFixed(0)} MiB`,
    );
    expect(during.threads).toBeLessThanOrEqual(before.threads + 4);
    expect(after.threads).toBeLessThanOrEqual(before.threads + 2);
    expect(after.fds).toBeLessThanOrEqual(before.fds + 4);
    expect(after.rss - before.rss).toBeLessThan(120 * MIB);
    await warm.dispose();
  });
});

describe("the shared worker pool", () => {
  it("terminates its idle workers once no executor is left", async () => {
    const first = new QuickJSExecutor();
    const second = new QuickJSExecutor({ memoryLimitBytes: 32 * MIB });
    const [a, b] = await Promise.all([
      first.run({ program: "1", bindings: [] }),
      second.run({ program: "2", bindings: [] }),
    ]);
    expect([a.value, b.value]).toEqual([1, 2]);
    expect(sharedWorkerThreads()).toBeGreaterThan(0);
    await first.dispose();
    expect((await second.run({ program: "'still here'", bindings: [] })).value).toBe("still here");
    await second.dispose();
    await settle();
    expect(sharedWorkerThreads()).toBe(0);
  });
});
