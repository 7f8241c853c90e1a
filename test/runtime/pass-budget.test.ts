import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import type { Connector } from "../../src/connectors/types.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

/** The budget of these tests; the waits below are chosen well inside and well outside it. */
const TIMEOUT_MS = 1_500;

let directory: string;
const executor = new QuickJSExecutor({ isolation: "in-process", timeoutMs: TIMEOUT_MS });
const opened: Array<ReturnType<typeof createCodemodeRuntime>> = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connector(waitMs: number): Connector {
  return {
    methods: {
      wait: {
        execute: async () => {
          await sleep(waitMs);
          return "waited";
        },
      },
      pay: { needsApproval: true, execute: async () => "paid" },
    },
  };
}

function openRuntime(waitMs: number) {
  const runtime = createCodemodeRuntime({
    connectors: { host: connector(waitMs) },
    store: `file:${path.join(directory, "codemode.db")}`,
    executor,
  });
  opened.push(runtime);
  return runtime;
}

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), "codemode-budget-"));
});
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
  rmSync(directory, { recursive: true, force: true });
});

afterAll(async () => {
  await executor.dispose();
});

describe("timeoutMs counts each pass, never the human", () => {
  it("an execution whose passes each fit the budget completes, however long it waited paused between them", async () => {
    const runtime = openRuntime(TIMEOUT_MS / 3);
    const code = `async () => { await host.wait({}); const paid = await host.pay({}); await host.wait({}); return paid; }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    // Paused longer than the whole budget: a person deciding.
    await sleep(TIMEOUT_MS + 500);
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: "paid" });
  });

  it("a host call that outlasts the budget stops the pass, and the message says awaited calls count", async () => {
    const runtime = openRuntime(TIMEOUT_MS * 2);
    const out = await runtime.execute({ code: "async () => host.wait({})" });
    expect(out).toMatchObject({ status: "error", kind: "timeout" });
    const message = (out as { error: string }).error;
    expect(message).toContain(`${TIMEOUT_MS} ms (timeoutMs)`);
    expect(message).toContain("including time spent awaiting connector calls");
    expect(message).toContain("an execution paused for approval) is not counted");
  });
});
