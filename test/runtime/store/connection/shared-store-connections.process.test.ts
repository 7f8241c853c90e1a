import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../../../src/runtime/durable-runtime.js";
import { openStore } from "../../../../src/runtime/store/connection/open-store.js";
import { storeConnectionCounts } from "../../../../src/runtime/store/connection/shared-store-connections.js";
import { startHranaServer } from "../../../support/hrana-server.js";
import { tempFolder } from "../../../support/temp-folder.js";
import { sharedExecutor } from "../../runtime-fixture.js";

function openFds(): number {
  return readdirSync("/proc/self/fd").length;
}

describe("one store connection per URL per process", () => {
  it("shares one connection among runtimes on the same file, however many and never closed", async () => {
    const url = `file:${join(tempFolder("codemode-shared-store-"), "db.sqlite")}`;
    const before = storeConnectionCounts();
    const first = createDurableRuntime({ store: url, executor: sharedExecutor() });
    expect(await first.execute({ code: "1 + 1" })).toMatchObject({ status: "completed", result: 2 });
    const fds = openFds();
    for (let request = 0; request < 300; request += 1) {
      // Per request, the way a route handler builds the drop-in, and never closed.
      const runtime = createDurableRuntime({ store: url, executor: sharedExecutor() });
      expect(await runtime.execute({ code: `${request} * 2` })).toMatchObject({
        status: "completed",
        result: request * 2,
      });
    }
    expect(storeConnectionCounts().opened - before.opened).toBe(1);
    expect(openFds()).toBeLessThanOrEqual(fds + 2);
    // One database: the first runtime sees what the last one wrote.
    expect((await first.executions(1))[0]?.code).toBe("299 * 2");
    await first.close();
  });

  it("a runtime built per request on a shared remote connection skips the schema check the first one made", async () => {
    const folder = tempFolder("codemode-shared-schema-");
    const server = await startHranaServer({ path: join(folder, "root.db") });
    try {
      const url = server.databaseUrl("schema");
      const passOf = async (): Promise<{ pipelines: number; reads: number }> => {
        const before = { pipelines: server.stats.pipelines, reads: server.stats.requests["execute"] ?? 0 };
        const runtime = createDurableRuntime({ store: url, executor: sharedExecutor() });
        expect(await runtime.execute({ code: "1 + 1" })).toMatchObject({ status: "completed", result: 2 });
        await runtime.close();
        return {
          pipelines: server.stats.pipelines - before.pipelines,
          reads: (server.stats.requests["execute"] ?? 0) - before.reads,
        };
      };
      const first = createDurableRuntime({ store: url, executor: sharedExecutor() });
      await first.executions(1); // the new database is migrated; `first` keeps the connection open
      // The pass alone: its start (with the snippets) and its end; no `SELECT MAX(version)` of its own.
      expect(await passOf()).toEqual({ pipelines: 2, reads: 1 });
      expect(await passOf()).toEqual({ pipelines: 2, reads: 1 });
      await first.close();
    } finally {
      await server.close();
    }
  });

  it("a closed handle leaves the connection to the runtimes still using it; the last one closes it", async () => {
    const url = `file:${join(tempFolder("codemode-shared-store-"), "db.sqlite")}`;
    const before = storeConnectionCounts();
    const a = openStore({ url });
    const b = openStore({ url });
    await a.client.execute("CREATE TABLE t (x)");
    a.client.close();
    await b.client.execute("INSERT INTO t VALUES (1)");
    expect((await b.client.execute("SELECT count(*) AS n FROM t")).rows[0]).toEqual({ n: 1 });
    expect(storeConnectionCounts()).toEqual({ open: before.open + 1, opened: before.opened + 1 });
    await expect(a.client.execute("SELECT 1")).rejects.toThrow("closed");
    b.client.close();
    expect(storeConnectionCounts().open).toBe(before.open);
    // A later runtime on the same URL opens a new connection.
    const c = openStore({ url });
    expect((await c.client.execute("SELECT count(*) AS n FROM t")).rows[0]).toEqual({ n: 1 });
    c.client.close();
    expect(storeConnectionCounts()).toEqual({ open: before.open, opened: before.opened + 2 });
  });

  it("shares file URLs by absolute path and never shares :memory:", async () => {
    const folder = tempFolder("codemode-shared-store-");
    const before = storeConnectionCounts();
    const absolute = openStore({ url: `file:${join(folder, "db.sqlite")}` });
    const relative = openStore({ url: `file:${join(folder, "x", "..", "db.sqlite")}` });
    await absolute.client.execute("SELECT 1");
    await relative.client.execute("SELECT 1");
    expect(storeConnectionCounts().opened - before.opened).toBe(1);
    const one = openStore({ url: ":memory:" });
    const two = openStore({ url: ":memory:" });
    await one.client.execute("CREATE TABLE only_in_one (x)");
    await expect(two.client.execute("SELECT * FROM only_in_one")).rejects.toThrow("no such table");
    for (const opened of [absolute, relative, one, two]) opened.client.close();
    expect(storeConnectionCounts().open).toBe(before.open);
  });

  it("closes a connection whose runtimes were garbage-collected without close(), after the idle delay", () => {
    // A child process: garbage collection on demand needs --expose-gc.
    const folder = tempFolder("codemode-shared-store-");
    const script = join(folder, "collect.mts");
    const src = resolve("src/runtime");
    writeFileSync(
      script,
      `
      import { createDurableRuntime } from ${JSON.stringify(join(src, "durable-runtime.ts"))};
      import { storeConnectionPolicy, storeConnectionCounts } from ${JSON.stringify(join(src, "store/connection/shared-store-connections.ts"))};
      import { QuickJSExecutor } from ${JSON.stringify(resolve("src/sandbox/quickjs-executor.ts"))};
      storeConnectionPolicy.idleCloseMs = 50;
      const executor = new QuickJSExecutor({ isolation: "worker-thread", poolSize: 1 });
      const url = "file:${join(folder, "db.sqlite")}";
      // In a function, so no runtime stays reachable from the module's scope.
      async function requests() {
        for (let i = 0; i < 20; i += 1) {
          const out = await createDurableRuntime({ store: url, executor }).execute({ code: "1" });
          if (out.status !== "completed") throw new Error(JSON.stringify(out));
        }
      }
      await requests();
      const during = storeConnectionCounts();
      for (let i = 0; i < 20 && storeConnectionCounts().open > 0; i += 1) {
        globalThis.gc();
        await new Promise((done) => setTimeout(done, 100));
      }
      console.log(JSON.stringify({ during, after: storeConnectionCounts() }));
      await executor.dispose();
    `,
    );
    const output = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { encoding: "utf8" });
    const { during, after } = JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as Record<
      string,
      { open: number; opened: number }
    >;
    expect(during).toEqual({ open: 1, opened: 1 });
    expect(after).toEqual({ open: 0, opened: 1 });
  });
});
