/**
 * Read-only calls (`readOnly: true`, issue 15): journaled, so replay returns the recorded result, but without a
 * store round trip of their own — their rows travel with the pass's next write. Round trips are counted as
 * `execute`/`batch` calls on a wrapped client (each one is a network round trip against Turso).
 */
import { describe, expect, it } from "vitest";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { createMockConnector } from "../../src/test/mock-connector.js";
import { countingClient } from "../support/counting-client.js";
import { memoryClient, sequentialIds, sharedExecutor, testClock } from "./runtime-fixture.js";

let runtimes = 0;
const LEASE_MS = 60_000;

/** `shop.read` returns a new number on every real call, so a re-run read would show in the result. */
function setup({ readOnly, msPerRead = 0 }: { readOnly: boolean; msPerRead?: number }) {
  let reads = 0;
  const clock = testClock();
  const shop = createMockConnector("shop", {
    methods: {
      read: {
        readOnly,
        result: (args: unknown) => {
          clock.advance(msPerRead);
          return { i: (args as { i?: number }).i, v: ++reads };
        },
      },
      failingRead: { readOnly, fails: "not found" },
      write: {},
      approvedWrite: { needsApproval: true },
    },
  });
  const { client, roundTrips, sent } = countingClient(memoryClient());
  const runtime: DurableRuntime = createDurableRuntime({
    store: client,
    executor: sharedExecutor(),
    connectors: { shop },
    _internal: { now: clock.now, generateId: sequentialIds(`ro${++runtimes}`), leaseMs: LEASE_MS },
  });
  /** Round trips of one runtime call (the schema is migrated before the first count). */
  const counted = async <T>(call: () => Promise<T>): Promise<{ out: T; trips: number }> => {
    await runtime.executions();
    const before = roundTrips();
    const out = await call();
    return { out, trips: roundTrips() - before };
  };
  return { shop, runtime, counted, sent };
}

const READS_THEN_WRITE = `async () => {
  let total = 0;
  for (let i = 0; i < 20; i++) total += (await shop.read({ i })).v;
  return shop.approvedWrite({ total });
}`;

describe("read-only calls cost no round trip of their own", () => {
  it("20 reads + 1 approved write: 3 round trips in the first pass (23 without readOnly), 4 to approve, no read re-run", async () => {
    const marked = setup({ readOnly: true });
    const first = await marked.counted(() => marked.runtime.execute({ code: READS_THEN_WRITE }));
    expect(first.out.status).toBe("paused");
    // Start (the snippets read in its batch), the pause's `pending` row carrying the 20 read rows, the pass's end.
    expect(first.trips).toBe(3);
    const approval = await marked.counted(() => marked.runtime.approve({ executionId: first.out.executionId }));
    expect(approval.out).toMatchObject({ status: "completed", result: { total: 210 } });
    // Load, the claim (snippets read in its batch), the write's intent, the end.
    expect(approval.trips).toBe(4);
    expect(marked.shop.ledger.count("shop.read")).toBe(20);

    const today = setup({ readOnly: false });
    const before = await today.counted(() => today.runtime.execute({ code: READS_THEN_WRITE }));
    expect(before.trips).toBe(23);
  });

  it("100 reads: 2 round trips (102 without readOnly)", async () => {
    const code = "async () => { let t = 0; for (let i = 0; i < 100; i++) t += (await shop.read({ i })).v; return t; }";
    for (const [readOnly, trips] of [
      [true, 2],
      [false, 102],
    ] as const) {
      const { runtime, counted } = setup({ readOnly });
      const run = await counted(() => runtime.execute({ code }));
      expect(run.out).toMatchObject({ status: "completed", result: 5050 });
      expect(run.trips, `readOnly: ${readOnly}`).toBe(trips);
    }
  });

  it("the calls of one Promise.all share one intent write", async () => {
    const { runtime, counted, shop } = setup({ readOnly: false });
    const code = "async () => Promise.all(Array.from({ length: 10 }, (_, i) => shop.write({ i })))";
    const run = await counted(() => runtime.execute({ code }));
    expect(run.out.status).toBe("completed");
    expect(shop.ledger.count("shop.write")).toBe(10);
    // Start (and snippets), the ten `executing` rows in one write, the end carrying the ten results.
    expect(run.trips).toBe(3);
  });

  it("replay returns the recorded reads: the approval pass sees what the first pass saw", async () => {
    const { runtime, shop } = setup({ readOnly: true });
    const code = `async () => {
      const a = await shop.read({ i: 1 });
      const b = await shop.read({ i: 2 });
      const w = await shop.approvedWrite({ sum: a.v + b.v });
      const c = await shop.read({ i: 3 });
      return [a.v, b.v, w.sum, c.v];
    }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    const done = await runtime.approve({ executionId: first.executionId });
    expect(done).toMatchObject({ status: "completed", result: [1, 2, 3, 3] });
    expect(shop.ledger.count("shop.read")).toBe(3);
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls.map((call) => [call.seq, call.method, call.status, call.replay])).toEqual([
      [1, "read", "applied", "record"],
      [2, "read", "applied", "record"],
      [3, "approvedWrite", "applied", "record"],
      [4, "read", "applied", "record"],
    ]);
    expect(detail?.calls[0]?.result).toEqual({ i: 1, v: 1 });
  });

  it("20 reads then an effect: the effect's `executing` write carries the 20 read rows, durable before it runs", async () => {
    let seen: Array<[number, string]> = [];
    const clock = testClock();
    const { client, roundTrips } = countingClient(memoryClient());
    const runtime: DurableRuntime = createDurableRuntime({
      store: client,
      executor: sharedExecutor(),
      connectors: {
        shop: {
          methods: {
            read: { readOnly: true, execute: (args) => (args as { i: number }).i },
            write: {
              // What another invocation reading the journal would see while the effect runs.
              execute: async (_args, context) => {
                const detail = await runtime.execution(context.executionId);
                seen = (detail?.calls ?? []).map((call) => [call.seq, call.status]);
                return "written";
              },
            },
          },
        },
      },
      _internal: { now: clock.now, generateId: sequentialIds(`ro${++runtimes}`), leaseMs: LEASE_MS },
    });
    await runtime.executions();
    const before = roundTrips();
    const code = `async () => {
      let total = 0;
      for (let i = 0; i < 20; i++) total += await shop.read({ i });
      return [total, await shop.write({ total })];
    }`;
    const out = await runtime.execute({ code });
    expect(out).toMatchObject({ status: "completed", result: [190, "written"] });
    // Start, the write's intent carrying the 20 read rows, the end; `execution()` inside the effect is one read.
    expect(roundTrips() - before).toBe(3 + 1);
    expect(seen).toEqual([
      ...Array.from({ length: 20 }, (_, i): [number, string] => [i + 1, "applied"]),
      [21, "executing"],
    ]);
  });

  it("steps cost no round trip of their own either: 10 steps then an effect, the effect's intent carries their rows", async () => {
    const { runtime, counted, shop } = setup({ readOnly: false });
    const code = `async () => {
      let total = 0;
      for (let i = 0; i < 10; i++) total += await codemode.step("s" + i, () => i);
      const steps = await codemode.step("nested", async () => (await shop.write({ total })).i);
      return [total, steps];
    }`;
    const run = await counted(() => runtime.execute({ code }));
    expect(run.out).toMatchObject({ status: "completed", result: [45, undefined] });
    // Start, the write's intent (carrying the 11 step rows begun before it), the end.
    expect(run.trips).toBe(3);
    expect(shop.ledger.count("shop.write")).toBe(1);
    const detail = await runtime.execution(run.out.executionId);
    expect(detail?.calls.map((call) => [call.seq, call.method, call.status])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => [i + 1, `s${i}`, "applied"]),
      [11, "nested", "applied"],
      [12, "write", "applied"],
    ]);
  });

  it("a failed read-only call is recorded and replayed as the same rejection, not run again", async () => {
    const { runtime, shop } = setup({ readOnly: true });
    const code = `async () => {
      let message = "";
      try { await shop.failingRead({}); } catch (error) { message = error.message; }
      await shop.approvedWrite({ message });
      return message;
    }`;
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    const done = await runtime.approve({ executionId: first.executionId });
    expect(done).toMatchObject({ status: "completed", result: "not found" });
    expect(shop.ledger.count("shop.failingRead")).toBe(1);
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls[0]).toMatchObject({ method: "failingRead", status: "error", error: "not found" });
  });

  it("a long pass of reads alone still renews its lease (the renewal is sent, not left for a write that never comes)", async () => {
    const { runtime, counted, sent } = setup({ readOnly: true, msPerRead: LEASE_MS / 4 });
    const code = "async () => { let t = 0; for (let i = 0; i < 8; i++) t += (await shop.read({ i })).v; return t; }";
    const before = sent.length;
    const run = await counted(() => runtime.execute({ code }));
    expect(run.out).toMatchObject({ status: "completed", result: 36 });
    const renewals = sent
      .slice(before)
      .filter((statements) => statements.some((sql) => sql.includes("SET lease_until")));
    // 8 reads of a quarter lease each: a renewal every half lease (after reads 2, 4, 6, 8), each its own round trip.
    expect(renewals.length).toBe(4);
    expect(run.trips).toBe(2 + 4);
  });
});
