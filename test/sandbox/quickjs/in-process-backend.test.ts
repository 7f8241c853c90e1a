/**
 * Issue 23 item 1, on an injected clock: an in-process run ends when the clock says its budget is spent,
 * however its wake-up timer behaves (a stalled clock, one stepped back while the program waits for a host call
 * that never settles), and a session that misses its own deadline is ended from outside by the watchdog.
 */
import { describe, expect, it } from "vitest";
import { HARD_STOP_GRACE_MS, type MonotonicClock } from "../../../src/sandbox/quickjs/deadline.js";
import type { BackendJob, BackendOutcome } from "../../../src/sandbox/executor-backend.js";
import { resolveExecutorOptions } from "../../../src/sandbox/executor-options.js";
import { prepareBindings } from "../../../src/sandbox/context/host-bindings.js";
import { InProcessBackend } from "../../../src/sandbox/quickjs/in-process-backend.js";
import { normalizeProgram } from "../../../src/sandbox/program/normalize-program.js";
import type { runSession } from "../../../src/sandbox/quickjs/quickjs-session.js";
import type { CodeBindingNamespace } from "../../../src/sandbox/types.js";
import { seededRandom as seeded } from "../../support/seeded-random.js";

const TIMEOUT_MS = 20;
const options = resolveExecutorOptions({ isolation: "in-process", timeoutMs: TIMEOUT_MS });
const turns = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A job whose program awaits `host.never()`, a host call that never settles; `onCall` runs when it starts. */
async function neverSettlingJob(onCall: () => void): Promise<BackendJob> {
  const namespaces: CodeBindingNamespace[] = [
    {
      global: "host",
      functions: {
        never: () => {
          onCall();
          return new Promise(() => undefined);
        },
      },
    },
  ];
  const normalized = await normalizeProgram("async () => { await host.never(); return 'settled?'; }");
  if (!normalized.ok) throw new Error(normalized.message);
  const { bindings, callHost } = prepareBindings(namespaces, options.maxValueChars);
  return { script: normalized.script, bindings, callHost };
}

/** Tracks whether a run has ended yet. */
function track(run: Promise<BackendOutcome>): { ended: () => boolean; outcome: Promise<BackendOutcome> } {
  let ended = false;
  return { ended: () => ended, outcome: run.finally(() => (ended = true)) };
}

describe("an in-process run on an injected clock", () => {
  it("does not end while the clock stalls before its deadline, and ends with timeout once the clock passes it", async () => {
    let now = 0;
    const backend = new InProcessBackend(options, { clock: () => now });
    let called = false;
    const run = track(backend.run(await neverSettlingJob(() => (called = true))));
    while (!called) await turns(1);
    // Several real budgets pass: the wake-up timer fires and re-arms, the clock still reads 0.
    await turns(TIMEOUT_MS * 6);
    expect(run.ended()).toBe(false);
    now = TIMEOUT_MS - 1;
    await turns(TIMEOUT_MS * 3);
    expect(run.ended()).toBe(false);
    now = TIMEOUT_MS;
    const { result } = await run.outcome;
    expect(result).toMatchObject({ type: "error", kind: "timeout" });
    expect((result as { message: string }).message).toContain(`${TIMEOUT_MS} ms (timeoutMs)`);
  });

  it("ends every run of a seeded schedule at its budget while the clock is stepped back and forth", async () => {
    const seed = Number(process.env["DEADLINE_SEED"] ?? 2323);
    const random = seeded(seed);
    let offset = 0;
    const clock: MonotonicClock = () => performance.now() + offset;
    const backend = new InProcessBackend(options, { clock });
    for (let index = 0; index < 12; index++) {
      const step = Math.floor(random() * 60) - 30;
      const start = clock();
      const job = await neverSettlingJob(() => {
        // While the program waits: the clock jumps back (up to 30 ms) or forward (up to 30 ms).
        offset += step;
      });
      const { result } = await backend.run(job);
      const end = clock();
      expect(result, `seed ${seed}, run ${index} (step ${step} ms)`).toMatchObject({ kind: "timeout" });
      // Never early by the clock the deadline is measured on.
      expect(end - start, `seed ${seed}, run ${index} (step ${step} ms)`).toBeGreaterThanOrEqual(TIMEOUT_MS);
    }
  });
});

describe("the in-process watchdog", () => {
  it("ends a run whose session missed its deadline, tells the session to stop, and waits for nothing", async () => {
    let now = 0;
    let askedToStop = false;
    let sessionEnded = false;
    // A session that ignores its deadline (the defect the watchdog exists for) but honours a stop request.
    const lostSession: typeof runSession = (_sandbox, _request, controls) =>
      new Promise((resolve) => {
        const unsubscribe = controls.onAbort(() => {
          askedToStop = controls.isAborted();
          unsubscribe();
          sessionEnded = true;
          resolve({
            result: { type: "error", kind: "abort", message: "stopped" },
            logs: [],
            modules: [],
            discardModule: false,
          });
        });
        controls.onLog?.("a line before the stall");
      });
    const backend = new InProcessBackend(options, { clock: () => now, runSession: lostSession });
    const run = track(backend.run(await neverSettlingJob(() => undefined)));
    await turns(10);
    now = TIMEOUT_MS + HARD_STOP_GRACE_MS - 1;
    await turns(30);
    expect(run.ended()).toBe(false);
    now = TIMEOUT_MS + HARD_STOP_GRACE_MS;
    const outcome = await run.outcome;
    expect(outcome.result).toMatchObject({ type: "error", kind: "timeout" });
    expect(outcome.logs).toEqual(["a line before the stall"]);
    expect(askedToStop).toBe(true);
    expect(sessionEnded).toBe(true);
  });
});
