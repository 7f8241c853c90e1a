/**
 * Issue 23 item 1, through the public executor: a seeded schedule of out-of-memory runs (a `Promise.all` of
 * 100,000 host calls, and a plain allocation loop) followed by runs that await a host call that never settles,
 * on a busy event loop (an interval that spins for a few milliseconds on every tick), with the wall clock
 * stepped back while most of them wait (as NTP or a resumed VM steps it), in both isolations. Every run must
 * end at its budget.
 *
 * Before the fix the in-process session armed one wake-up timer against a `Date.now()` deadline: a timer that
 * fired while `Date.now()` still read the deadline (a wall clock stepped back, or just the two clocks' rounding:
 * 1 to 6 runs in 100 on the development machine) woke it once, found no stop, and nothing woke it again; the
 * first stepped run of this schedule never ended. Deadlines are now measured on `performance.now()`, which a
 * wall-clock step does not move: stepping `Date.now` here is the environment, not a seam of the code.
 * In a worker the main thread's watchdog ended such runs by terminating the thread; the schedule checks the
 * same session code there. Replay a failing schedule with `DEADLINE_SEED=<seed>`.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import type { CodeBindingNamespace, CodeRunResult } from "../../src/sandbox/types.js";
import { seededRandom as seeded } from "../support/seeded-random.js";

const MIB = 1024 * 1024;
const SEED = Number(process.env["DEADLINE_SEED"] ?? 20_231);
/** Runs awaiting a host call that never settles, per isolation (enough to meet the old defect many times over). */
const NEVER_RUNS = 120;
/** A run that has not ended this long after its budget has lost its deadline (a liveness bound, not a timing). */
const LOST_AFTER_MS = 30_000;

/** How far the wall clock (`Date.now`) is stepped back when the running program's host call starts. */
let clockStepMs = 0;
const realNow = Date.now.bind(Date);
afterEach(() => {
  vi.restoreAllMocks();
});

const bindings: CodeBindingNamespace[] = [
  {
    global: "h",
    functions: {
      echo: async (value) => value,
      never: () => {
        if (clockStepMs > 0) {
          const step = clockStepMs;
          vi.spyOn(Date, "now").mockImplementation(() => realNow() - step);
        }
        return new Promise(() => undefined);
      },
    },
  },
];

const OUT_OF_MEMORY = [
  "async () => { await Promise.all(Array.from({ length: 100000 }, (_, i) => h.echo(i))); return 'fit'; }",
  "async () => { const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length)); }",
];

type Step =
  | { kind: "out-of-memory"; program: string }
  | { kind: "never"; timeoutMs: number; spinMs: number; clockStepMs: number };

/** The schedule: out-of-memory runs at the start and twice more, each followed by never-settling runs. */
function schedule(random: () => number): Step[] {
  const steps: Step[] = [];
  const perGroup = NEVER_RUNS / 4;
  for (let group = 0; group < 4; group++) {
    if (group !== 2) steps.push({ kind: "out-of-memory", program: OUT_OF_MEMORY[group % 2] as string });
    for (let index = 0; index < perGroup; index++)
      steps.push({
        kind: "never",
        timeoutMs: 25 + Math.floor(random() * 50),
        spinMs: random() < 0.3 ? random() * 8 : 0,
        // Most runs see the wall clock stepped back by 2 to 40 ms while they wait; the rest see it undisturbed.
        clockStepMs: random() < 0.75 ? 2 + Math.floor(random() * 39) : 0,
      });
  }
  return steps;
}

/** Spins the event loop on every tick for up to `maxSpinMs` (seeded), until stopped. */
function busyEventLoop(random: () => number, maxSpinMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + random() * maxSpinMs;
    while (performance.now() < until) {
      // busy
    }
  }, 1);
  return () => clearInterval(timer);
}

/** The run's result, or a failure naming the step if it has not ended `LOST_AFTER_MS` after its budget. */
async function ended(run: Promise<CodeRunResult>, budgetMs: number, label: string): Promise<CodeRunResult> {
  let guard: NodeJS.Timeout | undefined;
  const lost = new Promise<never>((_, reject) => {
    guard = setTimeout(
      () => reject(new Error(`${label}: the run never ended (its deadline was lost)`)),
      budgetMs + LOST_AFTER_MS,
    );
  });
  try {
    return await Promise.race([run, lost]);
  } finally {
    clearTimeout(guard);
  }
}

describe.each(["in-process", "worker-thread"] as const)("deadlines under load (%s)", (isolation) => {
  const executors: QuickJSExecutor[] = [];
  afterAll(async () => {
    await Promise.all(executors.map((executor) => executor.dispose()));
  });

  it(`ends every run of the seeded schedule (seed ${SEED}) at its budget`, async () => {
    const steps = schedule(seeded(SEED));
    const memoryLimitBytes = 24 * MIB;
    // maxCallsInFlight raised so the Promise.all of 100,000 calls runs out of memory, as it did in the report.
    const outOfMemory = new QuickJSExecutor({
      isolation,
      timeoutMs: 60_000,
      memoryLimitBytes,
      maxCallsInFlight: 200_000,
    });
    executors.push(outOfMemory);
    const stopSpinning = busyEventLoop(seeded(SEED + 1), 3);
    try {
      for (const [index, step] of steps.entries()) {
        const label = `seed ${SEED}, step ${index} (${step.kind})`;
        if (step.kind === "out-of-memory") {
          const result = await ended(outOfMemory.run({ program: step.program, bindings }), 60_000, label);
          expect(result.error?.kind, `${label}: ${result.error?.message}`).toBe("worker-exit");
          // The sandbox was replaced either way: out of memory, or a crash while memory ran out.
          expect(result.error?.message, label).toMatch(/ran out of memory|crashed and was replaced/);
          continue;
        }
        // A fresh executor per budget (executors share the substrate: this is the per-request pattern).
        const executor = new QuickJSExecutor({ isolation, timeoutMs: step.timeoutMs, memoryLimitBytes });
        const until = performance.now() + step.spinMs;
        while (performance.now() < until) {
          // The loop is busy right before the run starts.
        }
        clockStepMs = step.clockStepMs;
        const run = executor.run({ program: "async () => { await h.never(); }", bindings });
        const stepped = `${label}, wall clock stepped back ${step.clockStepMs} ms`;
        const result = await ended(run, step.timeoutMs, stepped).finally(() => {
          clockStepMs = 0;
          vi.restoreAllMocks();
        });
        expect(result.error, stepped).toMatchObject({ kind: "timeout" });
        expect(result.error?.message, label).toContain(`${step.timeoutMs} ms (timeoutMs)`);
        await executor.dispose();
      }
    } finally {
      stopSpinning();
    }
  });
});
