import { describe, expect, it } from "vitest";
import type { CodemodeProgress } from "../../src/ai/codemode-progress.js";
import { MAX_PROGRESS_ARGS_CHARS, ProgressFeed, type FeedClock } from "../../src/ai/progress-feed.js";
import type { ProgressEvent } from "../../src/runtime/pass/progress-events.js";

/** A clock the test moves by hand; timers fire when `advance` passes them. */
function manualClock(): FeedClock & { advance(ms: number): void } {
  let now = 0;
  let timers: Array<{ at: number; callback: () => void; id: number }> = [];
  let nextId = 1;
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout(handle) {
      timers = timers.filter((timer) => timer.id !== handle);
    },
    advance(ms) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.callback();
    },
  };
}

function call(
  seq: number,
  state: "executing" | "applied" | "pending",
  extra: Partial<ProgressEvent> = {},
): ProgressEvent {
  return {
    type: "call",
    executionId: "e1",
    seq,
    connector: "bank",
    method: "transfer",
    args: { n: seq },
    state,
    ...extra,
  } as ProgressEvent;
}

describe("ProgressFeed", () => {
  it("publishes the first report at once, then one trailing snapshot per window (10,000 reports → 2 snapshots)", () => {
    const clock = manualClock();
    const published: CodemodeProgress[] = [];
    const feed = new ProgressFeed({
      options: { throttleMs: 100, maxCalls: 5, maxLogs: 3 },
      publish: (s) => published.push(s),
      clock,
    });
    for (let seq = 1; seq <= 5_000; seq++) {
      feed.push(call(seq, "executing"));
      feed.push(call(seq, "applied", { durationMs: 1 }));
    }
    expect(published).toHaveLength(1);
    expect(published[0]?.totalCalls).toBe(1);
    clock.advance(99);
    expect(published).toHaveLength(1);
    clock.advance(1);
    expect(published).toHaveLength(2);
    const last = published[1]!;
    expect(last.totalCalls).toBe(5_000);
    expect(last.counts).toMatchObject({ executing: 0, applied: 5_000 });
    expect(last.calls.map((c) => c.seq)).toEqual([4_996, 4_997, 4_998, 4_999, 5_000]);
    clock.advance(1_000);
    expect(published).toHaveLength(2); // nothing new, nothing published
  });

  it("publishes once per elapsed window from the reports themselves when timers cannot run (a busy program)", () => {
    let now = 0;
    const published: CodemodeProgress[] = [];
    // Timers never fire here: only the reports move the feed.
    const clock: FeedClock = { now: () => now, setTimeout: () => 1, clearTimeout: () => undefined };
    const feed = new ProgressFeed({
      options: { throttleMs: 100, maxCalls: 5, maxLogs: 3 },
      publish: (s) => published.push(s),
      clock,
    });
    for (let seq = 1; seq <= 1_000; seq++) {
      now = seq; // one report per millisecond for one second
      feed.push(call(seq, "applied"));
    }
    expect(published).toHaveLength(10); // at t = 1, 101, 201, …, 901
    expect(published.map((snapshot) => snapshot.totalCalls)).toEqual([1, 101, 201, 301, 401, 501, 601, 701, 801, 901]);
  });

  it("keeps the latest console lines with a total, and counts calls by state", () => {
    const clock = manualClock();
    const published: CodemodeProgress[] = [];
    const feed = new ProgressFeed({
      options: { throttleMs: 0, maxCalls: 10, maxLogs: 2 },
      publish: (s) => published.push(s),
      clock,
    });
    feed.push({ type: "log", executionId: "e1", line: "a" });
    feed.push({ type: "log", executionId: "e1", line: "b" });
    feed.push({ type: "log", executionId: "e1", line: "c" });
    feed.push(call(1, "executing"));
    feed.push(call(2, "pending"));
    const snapshot = feed.close();
    expect(snapshot).toMatchObject({
      status: "running",
      executionId: "e1",
      logs: ["b", "c"],
      totalLogs: 3,
      totalCalls: 2,
    });
    expect(snapshot.counts).toEqual({
      executing: 1,
      applied: 0,
      replayed: 0,
      pending: 1,
      approved: 0,
      rejected: 0,
      error: 0,
      reverted: 0,
      interrupted: 0,
    });
    expect(published).toHaveLength(5); // throttleMs 0: every report
  });

  it("shows long arguments as a bounded preview", () => {
    const feed = new ProgressFeed({
      options: { throttleMs: 0, maxCalls: 10, maxLogs: 2 },
      publish: () => undefined,
      clock: manualClock(),
    });
    feed.push(call(1, "executing", { args: { text: "x".repeat(5_000) } }));
    const [shown] = feed.close().calls;
    expect(shown?.args).toEqual({ preview: expect.any(String) });
    expect((shown?.args as { preview: string } | undefined)?.preview.length).toBe(MAX_PROGRESS_ARGS_CHARS + 1);
  });

  it("close() cancels the trailing snapshot", () => {
    const clock = manualClock();
    const published: CodemodeProgress[] = [];
    const feed = new ProgressFeed({
      options: { throttleMs: 100, maxCalls: 5, maxLogs: 3 },
      publish: (s) => published.push(s),
      clock,
    });
    feed.push(call(1, "executing"));
    feed.push(call(1, "applied"));
    feed.close();
    clock.advance(500);
    expect(published).toHaveLength(1);
  });
});
