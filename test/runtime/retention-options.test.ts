/**
 * Retention a multi-user app can live with, on real libSQL files: `maxExecutions` counts per owner (`scope`), a run
 * start prunes a bounded batch, `retention.maxAgeMs` prunes by age, `retention.minAgeMs` keeps an ended execution
 * for its retry, and running or paused executions are never pruned.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import type { DurableRuntimeOptions } from "../../src/runtime/runtime-options.js";
import { PRUNE_AT_START_LIMIT } from "../../src/runtime/retention-options.js";
import { createMockConnector } from "../../src/test/index.js";
import { tempFolder } from "../support/temp-folder.js";
import { sequentialIds, sharedExecutor, testClock, type TestClock } from "./runtime-fixture.js";

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

const svc = createMockConnector("svc", { methods: { go: {}, gate: { needsApproval: true } } });

let opened = 0;

/** A runtime on a libSQL file in a fresh temp folder (or `file`), closed when the test ends. */
function fileRuntime(
  options: DurableRuntimeOptions & { clock: TestClock; file?: string },
): DurableRuntime & { file: string } {
  const { clock, file = join(tempFolder("codemode-retention-"), "journal.db"), ...rest } = options;
  const runtime = createDurableRuntime({
    store: `file:${file}`,
    executor: sharedExecutor(),
    connectors: { svc },
    ...rest,
    _internal: { now: clock.now, generateId: sequentialIds(`ret${++opened}`) },
  });
  return Object.assign(runtime, { file });
}

async function runAs(runtime: DurableRuntime, scope: string | undefined, code = "async () => svc.go({})") {
  return runtime.execute({ code, ...(scope === undefined ? {} : { scope }) });
}

async function statuses(runtime: DurableRuntime, scope?: string): Promise<string[]> {
  return (await runtime.executions(1000, scope === undefined ? undefined : { scope })).map((entry) => entry.status);
}

describe("retention", () => {
  it("counts maxExecutions per owner: another user's runs never prune yours", async () => {
    const clock = testClock();
    const runtime = fileRuntime({ clock, maxExecutions: 3, retention: { minAgeMs: 0 } });
    try {
      for (let index = 0; index < 3; index++) {
        await runAs(runtime, "bob");
        clock.advance(1000);
      }
      for (let index = 0; index < 20; index++) {
        await runAs(runtime, "alice");
        clock.advance(1000);
      }
      for (let index = 0; index < 5; index++) {
        await runAs(runtime, undefined);
        clock.advance(1000);
      }
      expect(await statuses(runtime, "bob")).toHaveLength(3);
      // Each start prunes its owner's older ended runs before its own ends: the count, plus the one just run.
      expect(await statuses(runtime, "alice")).toHaveLength(4);
      expect(
        (await runtime.executions(1000)).filter((entry) => entry.scope === undefined).map((entry) => entry.status),
      ).toHaveLength(4);
      expect((await runtime.pruneExecutions()).deleted).toHaveLength(2);
      expect(await statuses(runtime, "alice")).toHaveLength(3);
    } finally {
      await runtime.close();
    }
  });

  it("keeps an ended execution for minAgeMs after it ended: an approved call's retry finds it", async () => {
    const clock = testClock();
    const runtime = fileRuntime({ clock, maxExecutions: 2 });
    try {
      const paused = await runAs(runtime, "alice", "async () => svc.gate({})");
      expect(paused.status).toBe("paused");
      // The approver answers two days later; the execution ends then.
      clock.advance(2 * DAY_MS);
      expect(await runtime.approve({ executionId: paused.executionId, scope: "alice" })).toMatchObject({
        status: "completed",
      });
      for (let index = 0; index < 60; index++) {
        clock.advance(1000);
        await runAs(runtime, "alice");
      }
      expect(await runtime.pruneExecutions()).toEqual({ deleted: [] });
      // The retry of the approved call, by its exact id, still reads its result.
      expect(await runtime.execution(paused.executionId, { scope: "alice" })).toMatchObject({ status: "completed" });
      clock.advance(DAY_MS);
      await runAs(runtime, "alice");
      // Past the grace: one start deletes a bounded batch, the explicit prune the rest (all but the newest 2).
      expect(await statuses(runtime, "alice")).toHaveLength(62 - PRUNE_AT_START_LIMIT);
      expect((await runtime.pruneExecutions()).deleted).toHaveLength(62 - PRUNE_AT_START_LIMIT - 2);
      expect(await runtime.execution(paused.executionId, { scope: "alice" })).toBeUndefined();
    } finally {
      await runtime.close();
    }
  });

  it("prunes a bounded batch per run start, whatever the backlog", async () => {
    const clock = testClock();
    const unlimited = fileRuntime({ clock, maxExecutions: Number.POSITIVE_INFINITY, retention: { minAgeMs: 0 } });
    try {
      for (let index = 0; index < 40; index++) {
        await runAs(unlimited, "alice");
        clock.advance(1000);
      }
      expect(await unlimited.pruneExecutions()).toEqual({ deleted: [] });
    } finally {
      await unlimited.close();
    }
    // The same file under a count of 2: each start deletes at most PRUNE_AT_START_LIMIT of the 38 over it.
    const limited = fileRuntime({ clock, file: unlimited.file, maxExecutions: 2, retention: { minAgeMs: 0 } });
    try {
      await runAs(limited, "alice");
      expect(await statuses(limited, "alice")).toHaveLength(41 - PRUNE_AT_START_LIMIT);
      clock.advance(1000);
      await runAs(limited, "alice");
      expect(await statuses(limited, "alice")).toHaveLength(42 - 2 * PRUNE_AT_START_LIMIT);
      clock.advance(1000);
      const { deleted } = await limited.pruneExecutions();
      expect(deleted).toHaveLength(42 - 2 * PRUNE_AT_START_LIMIT - 2);
      expect(await statuses(limited, "alice")).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it("prunes by age across owners, never a running or paused execution", async () => {
    const clock = testClock();
    const runtime = fileRuntime({
      clock,
      maxExecutions: Number.POSITIVE_INFINITY,
      retention: { maxAgeMs: DAY_MS, minAgeMs: HOUR_MS },
    });
    try {
      const paused = await runAs(runtime, "bob", "async () => svc.gate({})");
      const old = [await runAs(runtime, "bob"), await runAs(runtime, "carol"), await runAs(runtime, undefined)];
      clock.advance(DAY_MS - HOUR_MS);
      const recent = await runAs(runtime, "bob");
      clock.advance(2 * HOUR_MS);
      // Alice's start prunes everyone's ended runs older than a day; bob's paused run and his recent one stay.
      await runAs(runtime, "alice");
      const left = (await runtime.executions(1000)).map((entry) => entry.executionId);
      for (const gone of old) expect(left).not.toContain(gone.executionId);
      expect(left).toContain(paused.executionId);
      expect(left).toContain(recent.executionId);
      clock.advance(30 * DAY_MS);
      expect((await runtime.pruneExecutions()).deleted).toHaveLength(2);
      expect(await statuses(runtime)).toEqual(["paused"]);
      expect(await runtime.approve({ executionId: paused.executionId, scope: "bob" })).toMatchObject({
        status: "completed",
      });
    } finally {
      await runtime.close();
    }
  });

  it("pruneExecutions(keep) keeps `keep` per owner and refuses a bad count", async () => {
    const clock = testClock();
    const runtime = fileRuntime({ clock, retention: { minAgeMs: 0 } });
    try {
      for (const scope of ["a", "a", "a", "b", "b", undefined, undefined, undefined]) {
        await runAs(runtime, scope);
        clock.advance(1000);
      }
      expect((await runtime.pruneExecutions(1)).deleted).toHaveLength(2 + 1 + 2);
      expect(await statuses(runtime)).toHaveLength(3);
      await expect(runtime.pruneExecutions(-1)).rejects.toThrow(/keep must be a non-negative integer or Infinity/);
      expect(await runtime.pruneExecutions(Number.POSITIVE_INFINITY)).toEqual({ deleted: [] });
      expect((await runtime.pruneExecutions(0)).deleted).toHaveLength(3);
    } finally {
      await runtime.close();
    }
  });
});
