/**
 * A real file database holding executions in every status (completed, paused,
 * completed after an approval with replays, error, rejected, rolled back, running),
 * written by a runtime with a deterministic clock and ids. Shared by the CLI and
 * web inspector tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Connector } from "../../src/connectors/types.js";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { sequentialIds, sharedExecutor, testClock, type TestClock } from "../runtime/runtime-fixture.js";

/** The fixture: its folder, store URL, clock, the runtime that wrote it and the execution ids by story. */
export interface JournalFixture {
  dir: string;
  storeUrl: string;
  clock: TestClock;
  runtime: DurableRuntime;
  ids: Record<"completed" | "paused" | "approved" | "error" | "rejected" | "rolledBack" | "running", string>;
  /** Lets the running execution finish, closes the runtime and removes the folder. */
  cleanup(): Promise<void>;
}

/** The shop connector: each method takes a fixed time on the test clock. */
export function shopConnector(clock: TestClock, hang: Promise<unknown>): Connector {
  return {
    methods: {
      list: {
        execute: () => {
          clock.advance(120);
          return [
            { sku: "tea", price: 4 },
            { sku: "<b>cake</b>", price: 6 },
          ];
        },
      },
      buy: {
        needsApproval: true,
        execute: (args) => {
          clock.advance(80);
          return { order: 7, ...(args as object) };
        },
        revert: () => {
          clock.advance(15);
        },
      },
      refund: {
        execute: () => {
          clock.advance(30);
          throw new Error("payment gateway said no");
        },
      },
      wait: { execute: () => hang },
      tip: {
        needsApproval: true,
        editable: true,
        inputSchema: {
          type: "object",
          properties: { amount: { type: "number", minimum: 0 } },
          required: ["amount"],
          additionalProperties: false,
        },
        execute: (args) => ({ tipped: (args as { amount: number }).amount }),
      },
    },
  };
}

const PROGRAMS = {
  completed:
    'async () => {\n  const items = await shop.list({});\n  console.log("found", items.length, "items");\n  return items.length;\n}',
  buy: 'async () => {\n  const items = await shop.list({});\n  const order = await shop.buy({ sku: items[0].sku, quantity: 2 });\n  console.log("bought", order.order);\n  return order;\n}',
  error: "async () => {\n  await shop.list({});\n  await shop.refund({ order: 7 });\n}",
  running: "async () => shop.wait({ seconds: 600 })",
};

/**
 * What the fixture has waiting for approval, as `pending` lists it: the paused execution's
 * `shop.buy` (call 2, after `shop.list`), with the first item's sku.
 */
export function expectedPending(fixture: JournalFixture): { pending: unknown[] } {
  return {
    pending: [
      { executionId: fixture.ids.paused, seq: 2, connector: "shop", method: "buy", args: { sku: "tea", quantity: 2 } },
    ],
  };
}

/** Writes the fixture database. */
export async function createJournalFixture(): Promise<JournalFixture> {
  const dir = mkdtempSync(join(tmpdir(), "codemode-inspector-"));
  const storeUrl = `file:${join(dir, "codemode.db")}`;
  const clock = testClock(Date.UTC(2026, 0, 1, 9, 0, 0));
  let release: (value: unknown) => void = () => {};
  const hang = new Promise((resolve) => {
    release = resolve;
  });
  const runtime = createDurableRuntime({
    connectors: { shop: shopConnector(clock, hang) },
    store: storeUrl,
    executor: sharedExecutor(),
    _internal: { now: clock.now, generateId: sequentialIds("ex") },
  });
  const completed = await runtime.execute({ code: PROGRAMS.completed });
  clock.advance(60_000);
  const approved = await runtime.execute({ code: PROGRAMS.buy });
  clock.advance(3 * 60_000 + 5_000);
  await runtime.approve({ executionId: approved.executionId, decidedBy: "ann@example.com" });
  clock.advance(60_000);
  const failed = await runtime.execute({ code: PROGRAMS.error });
  clock.advance(60_000);
  const rejected = await runtime.execute({ code: PROGRAMS.buy });
  clock.advance(90_000);
  await runtime.reject({ executionId: rejected.executionId, reason: "too expensive", decidedBy: "ops-7" });
  clock.advance(60_000);
  const rolledBack = await runtime.execute({ code: PROGRAMS.buy });
  clock.advance(20_000);
  await runtime.approve({ executionId: rolledBack.executionId });
  clock.advance(30_000);
  await runtime.rollback({ executionId: rolledBack.executionId });
  clock.advance(60_000);
  const paused = await runtime.execute({ code: PROGRAMS.buy });
  clock.advance(45_000);
  const running = runtime.execute({ code: PROGRAMS.running });
  // Let the running pass reach its connector call (its row and status are written by then).
  while (
    (await runtime.executions(1))[0]?.status !== "running" ||
    (await runtime.execution((await runtime.executions(1))[0]?.executionId ?? ""))?.calls.length !== 1
  ) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const runningId = (await runtime.executions(1))[0]?.executionId ?? "";
  clock.advance(15_000);
  return {
    dir,
    storeUrl,
    clock,
    runtime,
    ids: {
      completed: completed.executionId,
      paused: paused.executionId,
      approved: approved.executionId,
      error: failed.executionId,
      rejected: rejected.executionId,
      rolledBack: rolledBack.executionId,
      running: runningId,
    },
    async cleanup() {
      release("done");
      await running;
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
