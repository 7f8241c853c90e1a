/**
 * The crash between a buffered read and the write that carries it (issue 15): a program makes a call with
 * effects, a read-only call, then a call that needs approval, whose `pending` row carries the read's row. The
 * matrices (store errors, and over HTTP) fail that carrying write from inside the read, that is after the read
 * ran and before its row is durable, and check what recovery leaves.
 */
import type { Client } from "@libsql/client";
import { expect } from "vitest";
import type { ExecutionDetail } from "../../../src/runtime/types.js";
import { createMockConnector, type MockConnector } from "../../../src/test/mock-connector.js";
import { testClock } from "../../runtime/runtime-fixture.js";
import { scenarioRuntime } from "./scenario-runtime.js";

/** The program: `look` (read-only) runs between `rev` and `gated`. */
const READ_CRASH_PROGRAM = `async () => {
  const a = await svc.rev({ n: 1, k: "a" });
  const l = await svc.look({ n: 2, k: "l" });
  const g = await svc.gated({ n: l.d, k: "g" });
  return [a.d, l.d, g.d];
}`;

/** The `svc` connector of the program; `onRead` runs inside `look`, after its effect-free work. */
function readCrashConnector(onRead: () => void): MockConnector {
  const result = (args: unknown) => ({ d: (args as { n: number }).n * 2, k: (args as { k: string }).k });
  return createMockConnector("svc", {
    methods: {
      rev: { result, revert: true },
      look: {
        readOnly: true,
        result: (args: unknown) => {
          onRead();
          return result(args);
        },
      },
      gated: { result, needsApproval: true, revert: true },
    },
  });
}

/**
 * What recovery must leave after the carrying write failed (`committed`: it committed, its answer was lost):
 * the read ran once and its row exists only if the write committed; the call after it never ran (its `pending`
 * row travelled in the same write); `rev` ran once. Returns the problems (empty when fine).
 */
function readCrashProblems(detail: ExecutionDetail | undefined, svc: MockConnector, committed: boolean): string[] {
  const problems: string[] = [];
  const ran = (method: string) => svc.ledger.count(`svc.${method}`);
  if (ran("look") !== 1) problems.push(`the read ran ${ran("look")} times`);
  if (ran("rev") !== 1) problems.push(`rev ran ${ran("rev")} times`);
  if (ran("gated") !== 0) problems.push(`gated ran ${ran("gated")} times`);
  const rows = new Map((detail?.calls ?? []).map((call) => [call.method, call]));
  if (committed !== rows.has("look"))
    problems.push(`the read's row ${committed ? "is missing" : "was written before its carrying write"}`);
  if (committed !== rows.has("gated"))
    problems.push(`gated's row ${committed ? "is missing" : "exists without the read's"}`);
  if (rows.get("look") !== undefined && rows.get("look")?.status !== "applied")
    problems.push(`the read's row is ${rows.get("look")?.status}`);
  return problems;
}

/** How a matrix fails the carrying write and brings the store back. */
export interface ReadCrashFaults {
  /** Called once, from inside the read: the next write (the one carrying the read's row) must fail. */
  failNextWrite(): void;
  /** Ends the fault. */
  recover(): void;
}

/**
 * One case: runs the program on `store` with the carrying write failed by `faults`, recovers (the lease runs
 * out, `expirePaused` ends the dead pass) and checks what is left (`committed`: that write committed, its answer
 * was lost).
 */
export async function runReadCrashCase(
  store: Client,
  { name, faults, committed, leaseMs }: { name: string; faults: ReadCrashFaults; committed: boolean; leaseMs: number },
): Promise<void> {
  const clock = testClock();
  let armed = false;
  const svc = readCrashConnector(() => {
    if (!armed) faults.failNextWrite();
    armed = true;
  });
  const runtime = scenarioRuntime(store, { name, clock, svc, generation: 0, leaseMs });
  const out = await runtime.execute({ code: READ_CRASH_PROGRAM });
  faults.recover();
  expect(out, name).toMatchObject({ status: "error", kind: "store" });
  clock.advance(leaseMs + 1);
  await runtime.expirePaused();
  const detail = await runtime.execution(out.executionId);
  expect(readCrashProblems(detail, svc, committed), name).toEqual([]);
  expect(detail?.status, name).toBe("error");
}
