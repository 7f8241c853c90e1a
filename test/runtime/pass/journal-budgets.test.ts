/**
 * The budgets beside `maxCalls` / `maxCost`: `codemode.step`s per execution (`limits.maxSteps`), `codemode.search` /
 * `describe` calls per pass (`limits.maxDiscoveryCalls`) and the bytes an execution writes to its journal
 * (`limits.maxJournalBytes`). Past one, the run ends `kind: "limit"` with a message naming it, and nothing past it
 * is run or journaled; the numbers are the ones journaled when the execution started.
 */
import { describe, expect, it } from "vitest";
import type { Connector } from "../../../src/connectors/types.js";
import {
  DEFAULT_MAX_DISCOVERY_CALLS,
  DEFAULT_MAX_JOURNAL_BYTES,
  DEFAULT_MAX_STEPS,
} from "../../../src/runtime/journal/budget-record.js";
import { resolveRuntimeOptions } from "../../../src/runtime/durable-runtime-options.js";
import { memoryClient, testRuntime } from "../runtime-fixture.js";

const errorOf = (out: unknown): string => (out as { error: string }).error;
const gate: Connector = { methods: { ask: { needsApproval: true, execute: () => "yes" } } };

describe("limits.maxSteps", () => {
  it("stops a loop of steps at the budget: the step past it never runs", async () => {
    const runtime = testRuntime({ limits: { maxSteps: 5 } });
    const out = await runtime.execute({
      code: "async () => { let ran = 0; for (let i = 0; i < 100; i++) await codemode.step('s' + i, () => ++ran); return ran; }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("may record 5 steps (limits.maxSteps)");
    expect(errorOf(out)).toContain('step "s5" (call #6) did not run');
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls.map((call) => call.method)).toEqual(["s0", "s1", "s2", "s3", "s4"]);
  });

  it("counts over passes from the journal, with the number the execution started with", async () => {
    const store = memoryClient();
    const code =
      "async () => { await codemode.step('a', () => 1); await gate.ask({}); await codemode.step('b', () => 2); await codemode.step('c', () => 3); }";
    const starting = testRuntime({ store, connectors: { gate }, limits: { maxSteps: 2 } });
    const paused = await starting.execute({ code });
    expect(paused.status).toBe("paused");
    const approving = testRuntime({ store, connectors: { gate } });
    const out = await approving.approve({ executionId: paused.executionId });
    // Step a (replayed, counted once) + step b = 2: step c is past the budget.
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain('step "c" (call #4) did not run');
  });
});

describe("limits.maxDiscoveryCalls", () => {
  it("stops a loop of searches and describes at the budget", async () => {
    const runtime = testRuntime({ connectors: { gate }, limits: { maxDiscoveryCalls: 3 } });
    const out = await runtime.execute({
      code: "async () => { for (let i = 0; i < 1000; i++) { await codemode.search('ask ' + i); await codemode.describe('gate'); } }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("may make 3 codemode.search / codemode.describe calls (limits.maxDiscoveryCalls)");
    expect(errorOf(out)).toContain("this codemode.describe did not run");
  });
});

describe("limits.maxJournalBytes", () => {
  it("stops a loop of large step values before the write past the budget", async () => {
    const runtime = testRuntime({ limits: { maxJournalBytes: 10_000 } });
    const out = await runtime.execute({
      code: "async () => { for (let i = 0; i < 100; i++) await codemode.step('s' + i, () => 'x'.repeat(3000)); }",
    });
    expect(out).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(out)).toContain("may write 10,000 bytes to its journal (limits.maxJournalBytes)");
    const detail = await runtime.execution(out.executionId);
    const recorded = detail?.calls.filter((call) => call.status === "applied") ?? [];
    expect(recorded).toHaveLength(3);
    const written = (detail?.calls ?? []).reduce((sum, call) => sum + JSON.stringify(call.result ?? "").length, 0);
    expect(written).toBeLessThanOrEqual(10_000);
  });

  it("counts connector arguments and results too, and a read-only call's buffered row", async () => {
    let calls = 0;
    const big: Connector = {
      methods: {
        fetch: { readOnly: true, execute: () => "y".repeat(4_000) },
        store: {
          execute: () => {
            calls += 1;
            return "ok";
          },
        },
      },
    };
    const runtime = testRuntime({ connectors: { big }, limits: { maxJournalBytes: 10_000 } });
    const read = await runtime.execute({
      code: "async () => { for (let i = 0; i < 10; i++) await big.fetch({ i }); }",
    });
    expect(read).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(read)).toContain("limits.maxJournalBytes");
    const written = await runtime.execute({
      code: "async () => { for (let i = 0; i < 10; i++) await big.store({ text: 'z'.repeat(4_000) }); }",
    });
    expect(written).toMatchObject({ status: "error", kind: "limit" });
    expect(errorOf(written)).toContain("the arguments of call #3");
    // The third call's arguments were refused before its row was written: it never ran.
    expect(calls).toBe(2);
  });
});

describe("the defaults", () => {
  it("are far above an honest program, and each limit is checked naming its path", () => {
    expect(resolveRuntimeOptions({}).budgets).toMatchObject({
      maxSteps: DEFAULT_MAX_STEPS,
      maxDiscoveryCalls: DEFAULT_MAX_DISCOVERY_CALLS,
      maxJournalBytes: DEFAULT_MAX_JOURNAL_BYTES,
    });
    for (const key of ["maxSteps", "maxDiscoveryCalls", "maxJournalBytes"]) {
      expect(() => resolveRuntimeOptions({ limits: { [key]: 0 } })).toThrow(new RegExp(`limits\\.${key}`));
    }
  });
});
