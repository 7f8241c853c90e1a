import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { DEFAULT_TIMEOUT_MS } from "../../src/sandbox/executor-options.js";
import { resolveRuntimeOptions } from "../../src/runtime/runtime-options.js";
import { DEFAULT_MAX_EXECUTIONS, DEFAULT_RETENTION_MIN_AGE_MS } from "../../src/runtime/retention-options.js";
import { defaultStoreOptions } from "../../src/runtime/store/connection/open-store.js";
import { memoryClient, sharedExecutor } from "./runtime-fixture.js";
import { tempFolder } from "../support/temp-folder.js";

describe("resolveRuntimeOptions", () => {
  it("fills defaults", () => {
    const executor = sharedExecutor();
    const resolved = resolveRuntimeOptions({ executor, _internal: { env: {} } });
    expect(resolved).toMatchObject({
      name: "default",
      retention: { maxExecutions: DEFAULT_MAX_EXECUTIONS, maxAgeMs: undefined, minAgeMs: DEFAULT_RETENTION_MIN_AGE_MS },
      store: { url: "file:.codemode/codemode.db" },
    });
    expect(resolved.executor).toBe(executor);
    expect(resolved.limits.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(resolved.connectors).toEqual({});
  });

  it("resolves values only: no executor is built and the outbound connector is not a namespace", () => {
    const resolved = resolveRuntimeOptions({
      limits: { timeoutMs: 1234 },
      outbound: { allow: ["https://example.com"], fetch: globalThis.fetch },
    });
    expect(resolved.executor).toBeUndefined();
    expect(resolved.limits.timeoutMs).toBe(1234);
    expect(Object.keys(resolved.connectors)).toEqual([]);
    expect(resolved.outbound).toBeDefined();
  });

  it("refuses a connector named __codemode_host (the preludes' host namespace) with a clear InvalidOptionError", () => {
    const connector = { methods: { ping: { execute: async () => "pong" } } };
    expect(() =>
      resolveRuntimeOptions({ executor: sharedExecutor(), connectors: { __codemode_host: connector } }),
    ).toThrow(/connectors\.__codemode_host uses the reserved name "__codemode_host"/);
  });

  it("accepts maxOutputChars (a documented option) and validates it", () => {
    expect(resolveRuntimeOptions({ executor: sharedExecutor(), maxOutputChars: 500 }).maxOutputChars).toBe(500);
    expect(() => resolveRuntimeOptions({ executor: sharedExecutor(), maxOutputChars: 0 })).toThrow(
      /maxOutputChars must be a positive integer/,
    );
  });

  it("accepts tracing (default true), refuses anything but a boolean, and names it for a misspelt key", () => {
    expect(resolveRuntimeOptions({ executor: sharedExecutor() }).tracing).toBe(true);
    expect(resolveRuntimeOptions({ executor: sharedExecutor(), tracing: false }).tracing).toBe(false);
    expect(() => resolveRuntimeOptions({ executor: sharedExecutor(), tracing: "off" as unknown as boolean })).toThrow(
      /tracing must be true or false/,
    );
    expect(() => resolveRuntimeOptions({ executor: sharedExecutor(), tracng: false } as never)).toThrow(
      /options\.tracng .*"tracing"/,
    );
  });

  it("refuses unknown keys in the options, limits and _internal with the path and the closest known key", () => {
    const refused = (options: unknown, path: string, closest: string): void => {
      let thrown: unknown;
      try {
        resolveRuntimeOptions(options as Parameters<typeof resolveRuntimeOptions>[0]);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidOptionError.isInstance(thrown)).toBe(true);
      expect((thrown as InvalidOptionError).path).toBe(path);
      expect((thrown as InvalidOptionError).message).toContain(`"${closest}"`);
    };
    refused({ executor: sharedExecutor(), maxExecution: 3 }, "options.maxExecution", "maxExecutions");
    refused({ executor: sharedExecutor(), limits: { timeoutMS: 5 } }, "limits.timeoutMS", "timeoutMs");
    refused({ executor: sharedExecutor(), _internal: { leaseMS: 5 } }, "_internal.leaseMS", "leaseMs");
  });

  it("lists the known keys without the test seams when nothing is close to an unknown key", () => {
    let message = "";
    try {
      resolveRuntimeOptions({ executor: sharedExecutor(), executionPolicy: {} } as never);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("options.executionPolicy is not a known option (known keys: connectors, tools,");
    expect(message).not.toContain("_internal");
  });

  it("picks the store from the environment in order", () => {
    expect(defaultStoreOptions({ CODEMODE_DATABASE_URL: "file:a.db", TURSO_DATABASE_URL: "libsql://x" })).toEqual({
      url: "file:a.db",
    });
    expect(defaultStoreOptions({ TURSO_DATABASE_URL: "libsql://x.turso.io", TURSO_AUTH_TOKEN: "t" })).toEqual({
      url: "libsql://x.turso.io",
      authToken: "t",
    });
    expect(defaultStoreOptions({})).toEqual({ url: "file:.codemode/codemode.db" });
  });

  it("accepts a URL, a Client or { url, authToken }", () => {
    const executor = sharedExecutor();
    const client = memoryClient();
    expect(resolveRuntimeOptions({ executor, store: "file:x.db" }).store).toEqual({ url: "file:x.db" });
    expect(resolveRuntimeOptions({ executor, store: client }).store).toBe(client);
    expect(resolveRuntimeOptions({ executor, store: { url: "libsql://h", authToken: "k" } }).store).toEqual({
      url: "libsql://h",
      authToken: "k",
    });
    expect(resolveRuntimeOptions({ executor, store: { url: "libsql://h", requestTimeoutMs: 2_500 } }).store).toEqual({
      url: "libsql://h",
      requestTimeoutMs: 2_500,
    });
    for (const requestTimeoutMs of [0, -1, 1.5, "10"]) {
      expect(() =>
        resolveRuntimeOptions({ executor, store: { url: "libsql://h", requestTimeoutMs: requestTimeoutMs as number } }),
      ).toThrow("store.requestTimeoutMs must be a positive integer");
    }
  });

  it("throws InvalidOptionError naming the path", () => {
    const executor = sharedExecutor();
    const cases: Array<[unknown, string]> = [
      [{ maxExecutions: 0 }, "maxExecutions"],
      [{ maxExecutions: 1.5 }, "maxExecutions"],
      [{ retention: 5 }, "retention"],
      [{ retention: { maxAgeMs: 0 } }, "retention.maxAgeMs"],
      [{ retention: { minAgeMs: -1 } }, "retention.minAgeMs"],
      [{ retention: { maxAgeMs: 1000, minAgeMs: 2000 } }, "retention.maxAgeMs"],
      [{ retention: { maxAge: 1000 } }, "retention.maxAge"],
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

  it("opens a file: store in an existing folder and exposes `tools` as a connector", async () => {
    const folder = join(tempFolder("codemode-"), "nested", "deeper");
    // Only the default .codemode folder is created; an explicit path's folder must exist (test/runtime/store).
    mkdirSync(folder, { recursive: true });
    const runtime = createDurableRuntime({
      store: `file:${join(folder, "db.sqlite")}`,
      executor: sharedExecutor(),
      tools: {},
      connectors: {
        math: {
          methods: {
            add: { execute: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b },
          },
        },
      },
    });
    const out = await runtime.execute({ code: "async () => math.add({ a: 2, b: 3 })" });
    expect(out).toMatchObject({ status: "completed", result: 5 });
    expect(existsSync(join(folder, "db.sqlite"))).toBe(true);
    await runtime.close();
  });
});
