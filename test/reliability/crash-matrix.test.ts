/**
 * Crash-point matrix, store errors (issue 7). The writes the runtime makes
 * during a pass, an approval and a rollback of `CRASH_PROGRAM` are counted
 * with a wrapped client; then, for every write of every phase, a fault is
 * injected there in three ways — the write fails (once), the connection dies
 * at that write (every later statement fails too), or the write commits but
 * its acknowledgement is lost — and the run is recovered: the store comes
 * back, the lease runs out, `expirePaused` ends a dead pass, and the scenario
 * continues (`approve` while paused, then `rollback`) in a new runtime object.
 * Nothing may run or be reverted twice, every row must match its effects,
 * and `PRAGMA integrity_check` must pass.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { memoryClient, testClock, type TestClock } from "../runtime/runtime-fixture.js";
import {
  CRASH_PHASES,
  CRASH_RESULT,
  finishScenario,
  runPhase,
  scenarioProblems,
  type CrashPhase,
} from "./support/crash-scenario.js";
import { faultyClient, INJECTED_MESSAGE } from "./support/faulty-client.js";
import { svcConnector } from "./support/program-model.js";
import { runReadCrashCase } from "./support/read-crash.js";
import { effectsOf, scenarioRuntime } from "./support/scenario-runtime.js";

const LEASE_MS = 60_000;
const inner = memoryClient();
const faulty = faultyClient(inner);
let cases = 0;
let counted = 0;
const covered: string[] = [];

function runtimeFor(
  name: string,
  clock: TestClock,
  svc: ReturnType<typeof svcConnector>,
  generation: number,
): DurableRuntime {
  return scenarioRuntime(faulty.client, { name, clock, svc, generation, leaseMs: LEASE_MS });
}

/** Writes per phase on a clean run. */
async function countWrites(): Promise<Record<CrashPhase, number>> {
  const svc = svcConnector();
  const runtime = runtimeFor(`count-${++counted}`, testClock(), svc, 0);
  await runtime.executions();
  const counts = { pass: 0, approval: 0, rollback: 0 };
  let executionId: string | undefined;
  for (const phase of CRASH_PHASES) {
    faulty.arm({});
    const ran = await runPhase(runtime, phase, executionId);
    executionId = ran.executionId;
    counts[phase] = faulty.writes.length;
    faulty.disarm();
  }
  const detail = await runtime.execution(executionId!);
  expect(detail?.status).toBe("rolled_back");
  expect(scenarioProblems(detail, effectsOf(svc), true)).toEqual([]);
  return counts;
}

const MODES = [
  { mode: "fails", plan: { mode: "once" as const } },
  { mode: "dies", plan: { mode: "dead" as const } },
  { mode: "lost-ack", plan: { mode: "once" as const, after: true } },
];

afterAll(() => {
  console.log(
    `crash matrix (store errors): ${cases} crash points (${covered.length} write boundaries × modes), faults injected: ${faulty.faults}`,
  );
});

describe("crash-point matrix: a store fault at every write of a pass, an approval and a rollback", () => {
  it("counts the writes of each phase (the matrix below covers each one)", async () => {
    const counts = await countWrites();
    expect(counts.pass).toBeGreaterThanOrEqual(4);
    expect(counts.approval).toBeGreaterThanOrEqual(3);
    expect(counts.rollback).toBeGreaterThanOrEqual(3);
  });

  it("every phase × write × fault mode recovers: nothing twice, rows match effects, integrity ok", {
    timeout: 300_000,
  }, async () => {
    const counts = await countWrites();
    console.log(`writes per phase: ${JSON.stringify(counts)}`);
    for (const phase of CRASH_PHASES) {
      for (let write = 1; write <= counts[phase]; write += 1) {
        for (const { mode, plan } of MODES) {
          cases += 1;
          const where = `${phase} write ${write} ${mode}`;
          covered.push(where);
          const name = `crash-${cases}`;
          const clock = testClock();
          const svc = svcConnector();
          const runtime = runtimeFor(name, clock, svc, 0);
          await runtime.executions(); // migrate first: the counted writes are the runtime's own
          let executionId: string | undefined;
          for (const before of CRASH_PHASES.slice(0, CRASH_PHASES.indexOf(phase)))
            executionId = (await runPhase(runtime, before, executionId)).executionId;
          const faultsBefore = faulty.faults;
          faulty.arm({ atWrite: write, ...plan });
          const ran = await runPhase(runtime, phase, executionId);
          faulty.revive();
          expect(faulty.faults, where).toBe(faultsBefore + 1);
          expect(ran.output, where).toMatchObject({ status: "error", kind: "store" });
          expect(JSON.stringify(ran.output), where).toContain(INJECTED_MESSAGE);
          executionId = ran.executionId;

          clock.advance(LEASE_MS + 1);
          const recovered = runtimeFor(name, clock, svc, 1);
          await recovered.expirePaused();
          await finishScenario(recovered, executionId);
          const detail = await recovered.execution(executionId);
          expect(scenarioProblems(detail, effectsOf(svc), detail?.status === "rolled_back"), where).toEqual([]);
          if (detail?.status === "completed") expect(detail.result, where).toEqual(CRASH_RESULT);
        }
      }
    }
    const [check] = (await inner.execute("PRAGMA integrity_check")).rows;
    expect(check?.["integrity_check"]).toBe("ok");
  });

  it("a crash between a buffered read and the write that carries it loses only the read", async () => {
    for (const { mode, plan } of MODES) {
      await runReadCrashCase(faulty.client, {
        name: `read-crash-${mode}`,
        faults: { failNextWrite: () => faulty.arm({ atWrite: 1, ...plan }), recover: () => faulty.revive() },
        committed: mode === "lost-ack",
        leaseMs: LEASE_MS,
      });
    }
  });
});
