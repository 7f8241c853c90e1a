/**
 * The crash-point matrix over HTTP: the scenario of crash-matrix.test.ts
 * (a pass that pauses, its approval, its rollback) on an `@libsql/client`
 * Client at `http://127.0.0.1:PORT`, with each write request of each phase
 * failed by the Hrana test server itself, the ways a network and Turso fail:
 * an HTTP 503 before the request runs, the connection dropped before it
 * runs, an outage (every request dropped until it ends), and the response
 * lost after the request ran and committed. Then the store comes back, the
 * lease runs out, `expirePaused` ends a dead pass and the scenario continues
 * in a new runtime object. Nothing may run or be reverted twice, every row
 * must match its effects, and `PRAGMA integrity_check` must pass.
 */
import { describe, expect, it } from "vitest";
import type { DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { httpClient, hranaServer } from "../runtime/http-store-fixture.js";
import { testClock, type TestClock } from "../runtime/runtime-fixture.js";
import type { FaultOptions, HranaFault } from "../support/hrana-server.js";
import type { HranaStreamRequest } from "../support/hrana-stream.js";
import {
  CRASH_PHASES,
  CRASH_RESULT,
  finishScenario,
  runPhase,
  scenarioProblems,
  type CrashPhase,
} from "./support/crash-scenario.js";
import { svcConnector } from "./support/program-model.js";
import { runReadCrashCase } from "./support/read-crash.js";
import { effectsOf, scenarioRuntime } from "./support/scenario-runtime.js";

const LEASE_MS = 60_000;
const client = httpClient();

/**
 * A write round trip, as the client sends it: an `execute`, or a `batch` not
 * opened read-only (`@libsql/client` begins a "read" batch with
 * `BEGIN TRANSACTION READONLY`).
 */
function isWrite(requests: readonly HranaStreamRequest[]): boolean {
  return requests.some(
    (request) =>
      request.type === "execute" ||
      (request.type === "batch" && request.batch.steps[0]?.stmt.sql !== "BEGIN TRANSACTION READONLY"),
  );
}

/** Fault options matching the `nth` write request from now on (1-based). */
function atWrite(nth: number): FaultOptions {
  let seen = 0;
  return { when: (requests) => isWrite(requests) && ++seen >= nth };
}

function runtimeFor(
  name: string,
  clock: TestClock,
  svc: ReturnType<typeof svcConnector>,
  generation: number,
): DurableRuntime {
  return scenarioRuntime(client, { name, clock, svc, generation, leaseMs: LEASE_MS });
}

/** Write requests per phase on a clean run, counted at the server. */
async function countWrites(): Promise<Record<CrashPhase, number>> {
  const svc = svcConnector();
  const runtime = runtimeFor("count", testClock(), svc, 0);
  await runtime.executions();
  const counts = { pass: 0, approval: 0, rollback: 0 };
  let executionId: string | undefined;
  for (const phase of CRASH_PHASES) {
    let writes = 0;
    // A fault that never fires, used as a probe: it sees every request.
    hranaServer.injectFault(
      { kind: "drop" },
      {
        when: (requests) => {
          if (isWrite(requests)) writes += 1;
          return false;
        },
      },
    );
    executionId = (await runPhase(runtime, phase, executionId)).executionId;
    hranaServer.clearFaults();
    counts[phase] = writes;
  }
  const detail = await runtime.execution(executionId!);
  expect(detail?.status).toBe("rolled_back");
  expect(scenarioProblems(detail, effectsOf(svc), true)).toEqual([]);
  return counts;
}

const MODES: Array<{ mode: string; fault: HranaFault; times: number }> = [
  { mode: "503", fault: { kind: "status", status: 503 }, times: 1 },
  { mode: "dropped", fault: { kind: "drop" }, times: 1 },
  { mode: "outage", fault: { kind: "drop" }, times: Number.POSITIVE_INFINITY },
  { mode: "lost-response", fault: { kind: "lose-response" }, times: 1 },
];

describe("crash-point matrix over HTTP: a server fault at every write request of a pass, an approval and a rollback", () => {
  it("every phase × write × fault recovers: nothing twice, rows match effects, integrity ok", {
    timeout: 600_000,
  }, async () => {
    const counts = await countWrites();
    expect(counts.pass).toBeGreaterThanOrEqual(4);
    expect(counts.approval).toBeGreaterThanOrEqual(3);
    expect(counts.rollback).toBeGreaterThanOrEqual(3);
    let cases = 0;
    for (const phase of CRASH_PHASES) {
      for (let write = 1; write <= counts[phase]; write += 1) {
        for (const { mode, fault, times } of MODES) {
          const where = `${phase} write ${write} ${mode}`;
          const name = `crash-${++cases}`;
          const clock = testClock();
          const svc = svcConnector();
          const runtime = runtimeFor(name, clock, svc, 0);
          await runtime.executions(); // migrate first: the counted writes are the runtime's own
          let executionId: string | undefined;
          for (const before of CRASH_PHASES.slice(0, CRASH_PHASES.indexOf(phase)))
            executionId = (await runPhase(runtime, before, executionId)).executionId;
          const faultsBefore = hranaServer.stats.faults;
          hranaServer.injectFault(fault, { ...atWrite(write), times });
          const ran = await runPhase(runtime, phase, executionId);
          hranaServer.clearFaults();
          expect(hranaServer.stats.faults, where).toBeGreaterThan(faultsBefore);
          expect(ran.output, where).toMatchObject({ status: "error", kind: "store" });
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
    console.log(
      `crash matrix over HTTP: ${cases} crash points, writes per phase ${JSON.stringify(counts)}, faults ${hranaServer.stats.faults}`,
    );
    const [check] = (await client.execute("PRAGMA integrity_check")).rows;
    expect(check?.["integrity_check"]).toBe("ok");
  });

  it("a crash between a buffered read and the write request that carries it loses only the read", {
    timeout: 120_000,
  }, async () => {
    for (const { mode, fault, times } of MODES) {
      await runReadCrashCase(client, {
        name: `read-crash-${mode}`,
        faults: {
          failNextWrite: () => hranaServer.injectFault(fault, { ...atWrite(1), times }),
          recover: () => hranaServer.clearFaults(),
        },
        committed: mode === "lost-response",
        leaseMs: LEASE_MS,
      });
    }
  });
});
