/**
 * Runtimes of the crash-matrix scenario inside vitest (the in-process matrix, the matrix over HTTP, the
 * buffered-read case); the process-kill fixture builds its own outside vitest.
 */
import type { Client } from "@libsql/client";
import { createDurableRuntime, type DurableRuntime } from "../../../src/runtime/durable-runtime.js";
import type { MockConnector } from "../../../src/test/mock-connector.js";
import { sequentialIds, sharedExecutor, type TestClock } from "../../runtime/runtime-fixture.js";
import type { ObservedEffect } from "./crash-scenario.js";

/** A runtime of the scenario on `store` (`generation` keeps ids unique across the runtime objects of one case). */
export function scenarioRuntime(
  store: Client,
  { name, clock, svc, generation, leaseMs }: ScenarioRuntimeOptions,
): DurableRuntime {
  return createDurableRuntime({
    store,
    executor: sharedExecutor(),
    connectors: { svc },
    name,
    _internal: { now: clock.now, generateId: sequentialIds(`${name}-${generation}`), leaseMs },
  });
}

/** What `scenarioRuntime` needs besides the store. */
export interface ScenarioRuntimeOptions {
  name: string;
  clock: TestClock;
  svc: MockConnector;
  generation: number;
  leaseMs: number;
}

/** The effects a mock connector's ledger saw, as `scenarioProblems` compares them. */
export function effectsOf(svc: MockConnector): ObservedEffect[] {
  return svc.ledger.entries.map((entry) => ({ kind: entry.kind, method: entry.method, key: entry.idempotencyKey }));
}
