/**
 * Issue 23 item 2: a program that starts host calls without awaiting them (`for (…) h.echo(i)`) crashed the
 * sandbox (`worker-exit: … QuickJSUnwrapError: [object Object]`, ~450 MB of host RSS at the peak in-process).
 * Past `maxCallsInFlight` calls in flight the run now stops with an error that names the limit and tells the
 * program to await its calls or batch them; the next run on the same executor works, and the host's memory
 * stays bounded (measured: the peak RSS of the flood, printed and bounded far below what the crash took).
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_CALLS_IN_FLIGHT } from "../../src/sandbox/executor-options.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import type { CodeBindingNamespace } from "../../src/sandbox/types.js";

const MIB = 1024 * 1024;
const FLOOD = 'async () => { for (let i = 0; i < 2e5; i++) h.echo(i); return "returned"; }';

describe.each(["in-process", "worker-thread"] as const)("calls in flight (%s)", (isolation) => {
  let peakRss = 0;
  let echoed = 0;
  const sample = (): void => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  };
  const bindings: CodeBindingNamespace[] = [
    {
      global: "h",
      functions: {
        echo: async (value) => {
          // In-process the flood is one synchronous stretch of the main thread: sample from inside it.
          if (++echoed % 500 === 0) sample();
          return value;
        },
      },
    },
  ];
  const executor = new QuickJSExecutor({ isolation, timeoutMs: 60_000 });
  afterAll(async () => {
    await executor.dispose();
  });

  it("stops a fire-and-forget flood with an error naming the limit, then runs the next program", async () => {
    expect(await executor.run({ program: "async () => (await h.echo(1)) + 1", bindings })).toMatchObject({ value: 2 });
    const baseline = process.memoryUsage.rss();
    peakRss = baseline;
    const sampler = setInterval(sample, 5);
    const flood = await executor.run({ program: FLOOD, bindings });
    clearInterval(sampler);
    sample();
    expect(flood.value).toBeUndefined();
    expect(flood.error?.kind).toBe("exception");
    const message = flood.error?.message ?? "";
    expect(message).toContain("maxCallsInFlight");
    expect(message).toContain(DEFAULT_MAX_CALLS_IN_FLIGHT.toLocaleString("en-US"));
    expect(message).toMatch(/Await each call, or await them in batches/);
    expect(message).not.toMatch(/crashed|QuickJSUnwrapError|\[object Object\]/);
    // No call past the limit reached the host (a worker forwards 1,000 at a time and drops the rest it holds).
    expect(echoed).toBeLessThanOrEqual(DEFAULT_MAX_CALLS_IN_FLIGHT + 1);
    const grew = (peakRss - baseline) / MIB;
    console.info(`calls-in-flight (${isolation}): peak RSS +${grew.toFixed(0)} MiB during the flood`);
    expect(grew).toBeLessThan(200);
    // The same executor (and its substrate) serves the next program.
    const next = await executor.run({ program: "async () => (await h.echo(20)) + 1", bindings });
    expect(next).toEqual({ value: 21, logs: [] });
  });

  it("with the limit raised past what memory holds, the flood is reported as out of memory, not as an opaque crash", async () => {
    const roomy = new QuickJSExecutor({
      isolation,
      timeoutMs: 60_000,
      memoryLimitBytes: 24 * MIB,
      maxCallsInFlight: 1_000_000,
    });
    try {
      const flood = await roomy.run({ program: FLOOD, bindings });
      expect(flood.error?.kind).toBe("worker-exit");
      expect(flood.error?.message).toMatch(/^The program ran out of memory: its budget is 24 MiB \(memoryLimitBytes\)/);
      expect(flood.error?.message).not.toMatch(/QuickJSUnwrapError|\[object Object\]/);
      expect(await roomy.run({ program: "async () => (await h.echo(5)) * 2", bindings })).toEqual({
        value: 10,
        logs: [],
      });
    } finally {
      await roomy.dispose();
    }
  });

  it("lets a program await its calls in batches, and counts calls in flight, not calls made", async () => {
    const tight = new QuickJSExecutor({ isolation, timeoutMs: 60_000, maxCallsInFlight: 50 });
    try {
      const batched = await tight.run({
        program:
          "async () => { let sum = 0; for (let b = 0; b < 20; b++) { const page = await Promise.all(Array.from({ length: 50 }, (_, i) => h.echo(b * 50 + i))); sum += page.length; } return sum; }",
        bindings,
      });
      expect(batched).toEqual({ value: 1000, logs: [] });
      const tooMany = await tight.run({
        program: "async () => Promise.all(Array.from({ length: 51 }, (_, i) => h.echo(i)))",
        bindings,
      });
      expect(tooMany.error?.message).toMatch(/more than 50 connector calls without waiting .*maxCallsInFlight/);
      // A program that catches the refusal is still stopped: the run's error is what the model reads.
      const caught = await tight.run({
        program:
          "async () => { try { await Promise.all(Array.from({ length: 60 }, (_, i) => h.echo(i))); } catch (e) { return 'caught'; } }",
        bindings,
      });
      expect(caught.error?.message).toContain("maxCallsInFlight");
    } finally {
      await tight.dispose();
    }
  });
});
