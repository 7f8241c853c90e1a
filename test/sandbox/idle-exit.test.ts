import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("an idle process with executors it never disposed", () => {
  it("exits on its own (idle workers do not keep it alive)", () => {
    const script = `
      const { QuickJSExecutor } = await import("./src/sandbox/quickjs-executor.ts");
      for (const isolation of ["worker-thread", "in-process"]) {
        const executor = new QuickJSExecutor({ isolation });
        const result = await executor.run({ program: "await host.one()", bindings: [{ global: "host", functions: { one: async () => 1 } }] });
        console.log(isolation, result.value);
      }
      await new Promise((resolve) => setImmediate(resolve));
      console.log(JSON.stringify(process.getActiveResourcesInfo()));`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(child.stderr).toBe("");
    const [worker, inProcess, resources] = child.stdout.trim().split("\n");
    expect([worker, inProcess]).toEqual(["worker-thread 1", "in-process 1"]);
    // Nothing keeps the event loop alive once the runs are over: the idle worker is unref'd (it is
    // terminated only later, after WORKER_IDLE_MS).
    const alive = (JSON.parse(resources ?? "[]") as string[]).filter((type) => type !== "PipeWrap" && type !== "TTYWrap");
    expect(alive).toEqual([]);
    // Killed by the timeout it would have signal SIGTERM and no status.
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
  });
});
