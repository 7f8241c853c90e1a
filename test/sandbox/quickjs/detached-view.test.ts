import { describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";

// quickjs-emscripten-core 0.32 read newPromise()/executePendingJobs() outputs through a view the
// call's memory growth detached (docs/upstream/quickjs-emscripten-detached-view.md).
describe.each(["in-process", "worker-thread"] as const)("memory growth during a host-call burst (%s)", (isolation) => {
  it("Promise.all of 40,000 trivial host calls completes", async () => {
    // Over the default maxCallsInFlight (10,000) on purpose: the burst must grow the memory.
    const executor = new QuickJSExecutor({ isolation, timeoutMs: 100_000, maxCallsInFlight: 40_000 });
    try {
      const result = await executor.run({
        program:
          "const r = await Promise.all(Array.from({ length: 40000 }, (_, i) => host.ok(i))); return r.length + r[39999]",
        bindings: [{ global: "host", functions: { ok: async (i) => i } }],
      });
      expect(result.error).toBeUndefined();
      expect(result.value).toBe(40_000 + 39_999);
      const after = await executor.run({ program: "1 + 1", bindings: [] });
      expect(after.value).toBe(2);
    } finally {
      await executor.dispose();
    }
  });
});
