import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

describe("an idle process with executors it never disposed", () => {
  it("exits on its own (idle workers do not keep it alive)", () => {
    const script = `
      const { QuickJSExecutor } = await import("./src/sandbox/quickjs-executor.ts");
      const { WORKER_IDLE_MS } = await import("./src/sandbox/worker/shared-worker-pool.ts");
      if (typeof WORKER_IDLE_MS !== "number") throw new Error("WORKER_IDLE_MS is not exported");
      for (const isolation of ["worker-thread", "in-process"]) {
        const executor = new QuickJSExecutor({ isolation });
        const result = await executor.run({ program: "await host.one()", bindings: [{ global: "host", functions: { one: async () => 1 } }] });
        console.log(isolation, result.value);
      }
      // An unref'd timer fires only if something else keeps the process alive for that long: a worker
      // kept referenced until it is reaped as idle (WORKER_IDLE_MS, longer than this) would let it print.
      setTimeout(() => console.log("still alive"), WORKER_IDLE_MS - 1_000).unref();`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toBe("");
    // Nothing keeps the event loop alive once the runs are over: the idle worker is unref'd (it is
    // terminated only later, after WORKER_IDLE_MS), so the process ends before the unref'd timer fires.
    expect(child.stdout.trim().split("\n")).toEqual(["worker-thread 1", "in-process 1"]);
    // Killed by the timeout it would have signal SIGTERM and no status.
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
  });
});
