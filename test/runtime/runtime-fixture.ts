/**
 * Shared setup for runtime tests: an in-memory store, a deterministic clock
 * and id generator, and one in-process QuickJS executor per test file.
 */
import { createClient, type Client } from "@libsql/client";
import { afterAll } from "vitest";
import {
  createDurableRuntime,
  durableRuntimeFromResolved,
  type DurableRuntime,
} from "../../src/runtime/durable-runtime.js";
import { resolveRuntimeOptions, type DurableRuntimeOptions } from "../../src/runtime/durable-runtime-options.js";
import { LocalSqliteClient } from "../../src/runtime/store/connection/local-sqlite-client.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { createMemoryJournalStore, type MemoryJournalStore } from "../support/memory-journal-store.js";

let shared: QuickJSExecutor | undefined;

/** One in-process executor for the whole file. */
export function sharedExecutor(): QuickJSExecutor {
  shared ??= new QuickJSExecutor({ isolation: "in-process" });
  return shared;
}

afterAll(async () => {
  await shared?.dispose();
  shared = undefined;
});

/** A controllable clock. */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

/** A clock starting at a fixed instant. */
export function testClock(start = Date.UTC(2026, 0, 1)): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

/** Ids `id-1`, `id-2`, … */
export function sequentialIds(prefix = "id"): () => string {
  let next = 0;
  return () => `${prefix}-${++next}`;
}

/**
 * A fresh in-memory database on the driver the runtime opens for `file:` and
 * `:memory:` URLs ({@link LocalSqliteClient}), so the runtime's rules are tested
 * on the default path. It is handed in the way an app hands in a Client.
 */
export function memoryClient(): Client {
  return new LocalSqliteClient(":memory:", { timeout: 5_000 }) as unknown as Client;
}

/** A fresh in-memory `@libsql/client` Client (the path of a Client an app passes as `store`, and of remote URLs). */
export function memoryLibsqlClient(): Client {
  return createClient({ url: ":memory:" });
}

let runtimes = 0;

/** A runtime on a fresh in-memory database (unless `store` is given) with deterministic clock and ids. */
export function testRuntime(
  options: DurableRuntimeOptions & { clock?: TestClock } = {},
): DurableRuntime & { clock: TestClock } {
  const clock = options.clock ?? testClock();
  const { clock: _ignored, ...rest } = options;
  const runtime = createDurableRuntime({
    store: memoryClient(),
    executor: sharedExecutor(),
    ...rest,
    // Ids are unique across the runtimes of a file, which may share one database.
    _internal: { now: clock.now, generateId: sequentialIds(`rt${++runtimes}`), ...rest._internal },
  });
  return Object.assign(runtime, { clock });
}

/**
 * A runtime on the in-memory journal store (`test/support/memory-journal-store.ts`) instead of a database: for
 * tests about the runtime's rules rather than the SQL, and to make the store fail by verb (`store.failWrites`).
 */
export function memoryStoreRuntime(
  options: Omit<DurableRuntimeOptions, "store"> = {},
): DurableRuntime & { store: MemoryJournalStore } {
  const store = createMemoryJournalStore({ runtime: options.name ?? "default" });
  const runtime = durableRuntimeFromResolved(
    resolveRuntimeOptions({
      executor: sharedExecutor(),
      ...options,
      _internal: { now: testClock().now, generateId: sequentialIds(`mem${++runtimes}`), ...options._internal },
    }),
    { store },
  );
  return Object.assign(runtime, { store });
}
