// @vitest-environment jsdom
/**
 * `useCodemodeRun(part)`: what it reads from each state of a codemode part, and that it stays cheap: the same part
 * gives the same view, a new snapshot keeps the objects of unchanged calls, so memoized rows of a 200-call run
 * re-render only for the calls that changed (counted renders, never wall-clock).
 */
import { act, cleanup, render, renderHook } from "@testing-library/react";
import { memo } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { CodemodeRunCall } from "../../../src/ai/react/codemode-run-view.js";
import { useCodemodeRun } from "../../../src/ai/react/use-codemode-run.js";
import type { CodemodeProgress } from "../../../src/ai/codemode-progress.js";
import { type FeedClock, ProgressFeed } from "../../../src/ai/progress-feed.js";
import { encodeCodemodeDecisions } from "../../../src/ai/ui/codemode-decisions.js";

afterEach(() => cleanup());

const CODE = "async () => bank.transfer({ to: 'alice', amount: 10 })";

/** A clock that never fires timers: every report past the throttle publishes at once (time moves per report). */
function steppingClock(): FeedClock {
  let now = 0;
  return { now: () => (now += 1_000), setTimeout: () => undefined, clearTimeout: () => undefined };
}

/** The snapshots a run of `calls` calls publishes, each call reported as it starts and as it settles. */
function snapshotsOf(calls: number, maxCalls = 200): CodemodeProgress[] {
  const snapshots: CodemodeProgress[] = [];
  const feed = new ProgressFeed({
    options: { throttleMs: 100, maxCalls, maxLogs: 50 },
    publish: (snapshot) => snapshots.push(JSON.parse(JSON.stringify(snapshot)) as CodemodeProgress),
    clock: steppingClock(),
  });
  for (let seq = 1; seq <= calls; seq += 1) {
    const call = { executionId: "ex1", seq, connector: "bank", method: "balance", args: { account: seq } };
    feed.push({ type: "call", ...call, state: "executing" });
    feed.push({ type: "call", ...call, state: "applied", durationMs: 2 });
  }
  return snapshots;
}

/** A part with a preliminary snapshot, as useChat holds it while the program runs (a new object per chunk). */
function runningPart(progress: CodemodeProgress) {
  return {
    type: "tool-codemode",
    toolCallId: "call_1",
    state: "output-available",
    input: { code: CODE },
    output: progress,
    preliminary: true,
  };
}

/** Row renders of the card below. */
const renders = { rows: 0 };

const Row = memo(function Row({ call }: { call: CodemodeRunCall }) {
  renders.rows += 1;
  return (
    <li>
      {call.method} {call.state}
    </li>
  );
});

/** A card listing a run's calls, each in a memoized row keyed by its sequence number. */
function Card({ part }: { part: object }) {
  const run = useCodemodeRun(part);
  return (
    <ol>
      {run.calls.map((call) => (
        <Row key={call.seq} call={call} />
      ))}
    </ol>
  );
}

describe("useCodemodeRun reads a codemode part", () => {
  it("streaming input, then running with live calls and logs", () => {
    const { result, rerender } = renderHook(({ part }) => useCodemodeRun(part), {
      initialProps: {
        part: {
          type: "tool-codemode",
          toolCallId: "call_1",
          state: "input-streaming",
          input: { code: "async" },
        } as object,
      },
    });
    expect(result.current).toMatchObject({
      code: "async",
      calls: [],
      totalCalls: 0,
      outcome: { status: "streaming-input" },
    });
    const progress: CodemodeProgress = {
      status: "running",
      executionId: "ex1",
      calls: [
        { seq: 1, connector: "bank", method: "balance", args: {}, state: "applied", durationMs: 3 },
        { seq: 2, connector: "bank", method: "transfer", args: { to: "alice" }, state: "executing" },
      ],
      totalCalls: 2,
      counts: { ...zeroCounts(), applied: 1, executing: 1 },
      logs: ["checking"],
      totalLogs: 1,
    };
    rerender({ part: runningPart(progress) });
    expect(result.current).toMatchObject({
      executionId: "ex1",
      code: CODE,
      totalCalls: 2,
      logs: ["checking"],
      outcome: { status: "running" },
      pending: [],
    });
    expect(result.current.calls.map((call) => call.state)).toEqual(["applied", "executing"]);
    expect(result.current.counts.executing).toBe(1);
  });

  it("the same part gives the same view; an equal new snapshot keeps it; a changed call alone gets a new object", () => {
    const [first, second] = snapshotsOf(2, 10).slice(-2) as [CodemodeProgress, CodemodeProgress];
    const { result, rerender } = renderHook(({ part }) => useCodemodeRun(part), {
      initialProps: { part: runningPart(first) as object },
    });
    const view = result.current;
    rerender({ part: runningPart(first) });
    expect(result.current).toBe(view);
    rerender({ part: runningPart(structuredClone(first)) });
    expect(result.current).toBe(view);
    rerender({ part: runningPart(second) });
    expect(result.current).not.toBe(view);
    expect(result.current.calls[0]).toBe(view.calls[0]);
    expect(result.current.calls[1]).not.toBe(view.calls[1]);
    expect(result.current.calls[1]?.state).toBe("applied");
  });

  it("a 200-call run: each memoized row renders about twice (started, settled), not once per chunk", () => {
    const snapshots = snapshotsOf(200);
    expect(snapshots.length).toBeGreaterThan(350);
    renders.rows = 0;
    const [initial, ...rest] = snapshots as [CodemodeProgress, ...CodemodeProgress[]];
    const view = render(<Card part={runningPart(initial)} />);
    for (const snapshot of rest) act(() => view.rerender(<Card part={runningPart(snapshot)} />));
    expect(view.container.querySelectorAll("li")).toHaveLength(200);
    // Rendering every row per chunk would be ~40,000 renders; each call renders once per state it was shown in.
    expect(renders.rows).toBeLessThanOrEqual(2 * 200);
    expect(view.container.textContent).toContain("balance applied");
  });

  it("several pending calls: each with its approval id, editable flag and input schema; what already ran", () => {
    const schema = { type: "object", properties: { to: { type: "string" }, amount: { type: "number" } } };
    const part = pausedPart(schema);
    const { result } = renderHook(() => useCodemodeRun(part));
    expect(result.current.outcome).toEqual({ status: "awaiting-approval" });
    expect(result.current.approvalId).toBe("cm_ex1_2_aaaaaaaaaaaaaaaa");
    expect(result.current.pending).toEqual([
      {
        approvalId: "cm_ex1_2_aaaaaaaaaaaaaaaa",
        seq: 2,
        connector: "bank",
        method: "transfer",
        args: { to: "alice", amount: 1 },
        editable: true,
        inputSchema: schema,
        program: false,
      },
      {
        approvalId: "cm_ex1_3_bbbbbbbbbbbbbbbb",
        seq: 3,
        connector: "bank",
        method: "close",
        args: { account: 7 },
        editable: false,
        program: false,
      },
    ]);
    expect(result.current.calls.map((call) => call.state)).toEqual(["applied", "pending", "pending"]);
  });

  it("answered on the card: the pending calls read approved / rejected as decided, until the server replies", () => {
    const answered = {
      ...pausedPart(undefined),
      state: "approval-responded",
      approval: {
        ...pausedPart(undefined).approval,
        approved: true,
        reason: encodeCodemodeDecisions({ cm_ex1_2_aaaaaaaaaaaaaaaa: true, cm_ex1_3_bbbbbbbbbbbbbbbb: false }),
      },
    };
    const { result } = renderHook(() => useCodemodeRun(answered));
    expect(result.current.outcome).toEqual({ status: "answered", approved: true });
    expect(result.current.pending).toEqual([]);
    expect(result.current.calls.map((call) => call.state)).toEqual(["applied", "approved", "rejected"]);
    expect(result.current.counts).toMatchObject({ pending: 0, approved: 1, rejected: 1, applied: 1 });
  });

  it("a program waiting for approval before it runs is one pending call, the program itself", () => {
    const part = {
      type: "tool-codemode",
      toolCallId: "call_1",
      state: "approval-requested",
      input: { code: CODE },
      approval: {
        id: "cm_ex2_0_cccccccccccccccc",
        descriptor: { connector: "codemode", method: "program", args: { code: CODE }, executionId: "ex2", seq: 0 },
      },
    };
    const { result } = renderHook(() => useCodemodeRun(part));
    expect(result.current.pending).toEqual([
      expect.objectContaining({ program: true, seq: 0, args: { code: CODE }, editable: false }),
    ]);
    expect(result.current.executionId).toBe("ex2");
    expect(result.current.calls).toEqual([]);
  });

  it("outcomes: completed with logs, failed, rejected, decided elsewhere, expired", () => {
    const { result, rerender } = renderHook(({ part }) => useCodemodeRun(part), {
      initialProps: {
        part: {
          type: "tool-codemode",
          toolCallId: "call_1",
          state: "output-available",
          input: { code: CODE },
          output: { status: "completed", executionId: "ex1", result: { ok: true }, logs: ["a", "b"] },
        } as object,
      },
    });
    expect(result.current.outcome).toEqual({ status: "completed", result: { ok: true }, decidedElsewhere: false });
    expect(result.current.logs).toEqual(["a", "b"]);
    rerender({
      part: {
        type: "tool-codemode",
        toolCallId: "call_1",
        state: "output-available",
        output: { status: "error", executionId: "ex1", error: "boom", kind: "runtime", decidedElsewhere: true },
      },
    });
    expect(result.current.outcome).toEqual({ status: "error", error: "boom", kind: "runtime", decidedElsewhere: true });
    rerender({
      part: {
        type: "tool-codemode",
        toolCallId: "call_1",
        state: "output-denied",
        approval: { id: "x", approved: false, reason: "no" },
      },
    });
    expect(result.current.outcome).toEqual({ status: "rejected", reason: "no" });
    const stale = 'Approval id "cm_ex1_2_aaaaaaaaaaaaaaaa" is stale: execution ex1 is rejected. Nothing was run.';
    rerender({ part: { type: "tool-codemode", toolCallId: "call_1", state: "output-error", errorText: stale } });
    expect(result.current.outcome).toEqual({ status: "decided-elsewhere", error: stale });
    const expired =
      'Approval id "cm_ex1_2_aaaaaaaaaaaaaaaa" is stale: execution ex1 is rejected (it expired: nobody decided in time). Nothing was run.';
    rerender({ part: { type: "tool-codemode", toolCallId: "call_1", state: "output-error", errorText: expired } });
    expect(result.current.outcome).toEqual({ status: "expired", error: expired });
    rerender({ part: { type: "tool-codemode", toolCallId: "call_1", state: "output-error", errorText: "Bad input" } });
    expect(result.current.outcome).toEqual({
      status: "error",
      error: "Bad input",
      kind: undefined,
      decidedElsewhere: false,
    });
  });
});

function zeroCounts() {
  return {
    executing: 0,
    applied: 0,
    replayed: 0,
    pending: 0,
    approved: 0,
    rejected: 0,
    error: 0,
    reverted: 0,
    interrupted: 0,
  };
}

/** A part paused on two calls of a Promise.all after one applied call. */
function pausedPart(schema: Record<string, unknown> | undefined) {
  const progress: CodemodeProgress = {
    status: "paused",
    executionId: "ex1",
    calls: [
      { seq: 1, connector: "bank", method: "balance", args: {}, state: "applied", durationMs: 1 },
      { seq: 2, connector: "bank", method: "transfer", args: { to: "alice", amount: 1 }, state: "pending" },
      { seq: 3, connector: "bank", method: "close", args: { account: 7 }, state: "pending" },
    ],
    totalCalls: 3,
    counts: { ...zeroCounts(), applied: 1, pending: 2 },
    logs: [],
    totalLogs: 0,
  };
  return {
    type: "tool-codemode",
    toolCallId: "call_1",
    state: "approval-requested",
    input: { code: CODE },
    approval: {
      id: "cm_ex1_2_aaaaaaaaaaaaaaaa",
      descriptor: {
        connector: "bank",
        method: "transfer",
        args: { to: "alice", amount: 1 },
        executionId: "ex1",
        seq: 2,
        editable: true,
        ...(schema === undefined ? {} : { inputSchema: schema }),
        progress,
        calls: [
          {
            seq: 2,
            connector: "bank",
            method: "transfer",
            args: { to: "alice", amount: 1 },
            approvalId: "cm_ex1_2_aaaaaaaaaaaaaaaa",
            editable: true,
            ...(schema === undefined ? {} : { inputSchema: schema }),
          },
          { seq: 3, connector: "bank", method: "close", args: { account: 7 }, approvalId: "cm_ex1_3_bbbbbbbbbbbbbbbb" },
        ],
      },
    },
  };
}
