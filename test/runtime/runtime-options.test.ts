import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { DEFAULT_MAX_EXECUTIONS, resolveRuntimeOptions } from "../../src/runtime/runtime-options.js";
import { defaultStoreOptions } from "../../src/runtime/store/open-store.js";
import { memoryClient, sharedExecutor } from "./runtime-fixture.js";
import { tempFolder } from "../support/temp-folder.js";

describe("resolveRuntimeOptions", () => {
  it("fills defaults", () => {
    const executor = sharedExecutor();
    const resolved = resolveRuntimeOptions({ executor, _internal: { env: {} } });
    expect(resolved).toMatchObject({ name: "default", maxExecutions: DEFAULT_MAX_EXECUTIONS, store: { url: "file:.codemode/codemode.db" }, ownsExecutor: false });
    expect(resolved.connectors).toEqual({});
  });

  it("picks the store from the environment in order", () => {
    expect(defaultStoreOptions({ CODEMODE_DATABASE_URL: "file:a.db", TURSO_DATABASE_URL: "libsql://x" })).toEqual({ url: "file:a.db" });
    expect(defaultStoreOptions({ TURSO_DATABASE_URL: "libsql://x.turso.io", TURSO_AUTH_TOKEN: "t" })).toEqual({ url: "libsql://x.turso.io", authToken: "t" });
    expect(defaultStoreOptions({})).toEqual({ url: "file:.codemode/codemode.db" });
  });

  it("accepts a URL, a Client or { url, authToken }", () => {
    const executor = sharedExecutor();
    const client = memoryClient();
    expect(resolveRuntimeOptions({ executor, store: "file:x.db" }).store).toEqual({ url: "file:x.db" });
    expect(resolveRuntimeOptions({ executor, store: client }).store).toBe(client);
    expect(resolveRuntimeOptions({ executor, store: { url: "libsql://h", authToken: "k" } }).store).toEqual({ url: "libsql://h", authToken: "k" });
  });

  it("throws InvalidOptionError naming the path", () => {
    const executor = sharedExecutor();
    const cases: Array<[unknown, string]> = [
      [{ maxExecutions: 0 }, "maxExecutions"],
      [{ name: "" }, "name"],
      [{ store: 42 }, "store"],
      [{ store: { url: "file:x", authToken: 1 } }, "store.authToken"],
      [{ limits: { timeoutMs: -1 } }, "limits.timeoutMs"],
      [{ transformResult: "no" }, "transformResult"],
      [{ connectors: { tools: { methods: {} } }, tools: {} }, "tools"],
    ];
    for (const [options, path] of cases) {
      let thrown: unknown;
      try {
        resolveRuntimeOptions({ executor, ...(options as object) });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidOptionError.isInstance(thrown), path).toBe(true);
      expect((thrown as InvalidOptionError).path).toBe(path);
    }
  });

  it("creates the folder of a file: store and exposes `tools` as a connector", async () => {
    const folder = join(tempFolder("codemode-"), "nested", "deeper");
    const runtime = createDurableRuntime({
      store: `file:${join(folder, "db.sqlite")}`,
      executor: sharedExecutor(),
      tools: {},
      connectors: { math: { methods: { add: { execute: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b } } } },
    });
    const out = await runtime.execute({ code: "async () => math.add({ a: 2, b: 3 })" });
    expect(out).toMatchObject({ status: "completed", result: 5 });
    expect(existsSync(join(folder, "db.sqlite"))).toBe(true);
    await runtime.close();
  });
});
