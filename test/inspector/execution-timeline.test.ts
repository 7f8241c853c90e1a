import { describe, expect, it } from "vitest";
import { formatExecution } from "../../src/cli/format-execution.js";
import { executionTimeline } from "../../src/inspector/execution-timeline.js";
import type { Connector } from "../../src/connectors/types.js";
import type { ExecutionDetail } from "../../src/runtime/types.js";
import { testClock, testRuntime, type TestClock } from "../runtime/runtime-fixture.js";

/** `bank.balance` takes 20 ms and `bank.pay` (needs approval) 15 ms on the test clock. */
function bank(clock: TestClock): Connector {
  return {
    methods: {
      balance: {
        execute: () => {
          clock.advance(20);
          return 100;
        },
      },
      pay: {
        needsApproval: true,
        execute: (args) => {
          clock.advance(15);
          return { paid: args };
        },
      },
    },
  };
}

function programRuntime() {
  const clock = testClock();
  return testRuntime({ clock, connectors: { bank: bank(clock) }, approveProgram: true });
}

async function detail(runtime: { execution(id: string): Promise<ExecutionDetail | undefined> }, executionId: string) {
  const found = await runtime.execution(executionId);
  if (found === undefined) throw new Error(`no execution ${executionId}`);
  return found;
}

const READ = "async () => { console.log('reading'); return bank.balance({}); }";

describe("the timeline of a program approved before it ran (approveProgram)", () => {
  it("waits from the creation to the approval, before pass 1, which starts at the approval", async () => {
    const runtime = programRuntime();
    const paused = await runtime.execute({ code: READ });
    const createdAt = runtime.clock.now();
    runtime.clock.advance(44);
    await runtime.approve({ executionId: paused.executionId });
    const timeline = executionTimeline(await detail(runtime, paused.executionId));
    expect(timeline.waits).toEqual([{ seq: 0, pass: 0, from: createdAt, to: createdAt + 44 }]);
    expect(timeline.passes).toEqual([
      { pass: 1, startedAt: createdAt + 44, endedAt: createdAt + 64, trigger: "approval" },
    ]);
    expect(
      timeline.calls.map(({ seq, program, state, pass, durationMs }) => ({ seq, program, state, pass, durationMs })),
    ).toEqual([
      { seq: 0, program: true, state: "approved", pass: 0, durationMs: undefined },
      { seq: 1, program: false, state: "applied", pass: 1, durationMs: 20 },
    ]);
    expect(timeline.decisions).toEqual([{ decision: "approved", seq: 0, at: createdAt + 44 }]);
  });

  it("show prints the wait first, never negative, and never the program as an escaped string", async () => {
    const runtime = programRuntime();
    const paused = await runtime.execute({ code: READ });
    runtime.clock.advance(44);
    await runtime.approve({ executionId: paused.executionId });
    const shown = await detail(runtime, paused.executionId);
    const text = formatExecution(shown, executionTimeline(shown));
    expect(text).toContain(
      "Timeline\n  ⏸ waited 44 ms for approval of the program\nPass 1  +44 ms  started by the approval of the program\n  #1 bank.balance  applied  +44 ms  20 ms",
    );
    expect(text).toContain("approved the program at");
    expect(text).not.toContain("#0");
    expect(text).not.toContain("\\n");
  });

  it("a program still waiting, or rejected, ran no pass", async () => {
    const runtime = programRuntime();
    const waiting = await runtime.execute({ code: READ });
    runtime.clock.advance(1000);
    const pending = executionTimeline(await detail(runtime, waiting.executionId));
    expect(pending.passes).toEqual([]);
    expect(pending.waits).toEqual([{ seq: 0, pass: 0, from: pending.startedAt }]);
    expect(pending.calls).toMatchObject([{ seq: 0, program: true, state: "pending", pass: 0, requestedInPass: 0 }]);
    const pendingText = formatExecution(await detail(runtime, waiting.executionId), pending);
    expect(pendingText).toContain("; 0 passes, 0 calls");
    expect(pendingText).toContain("⏸ waiting for approval of the program since +0 ms");
    expect(pendingText).toContain("Waiting for approval\n  the program above (nothing has run yet)");

    await runtime.reject({ executionId: waiting.executionId, reason: "not now" });
    const rejected = await detail(runtime, waiting.executionId);
    const timeline = executionTimeline(rejected);
    expect(timeline.passes).toEqual([]);
    expect(timeline.waits).toEqual([{ seq: 0, pass: 0, from: timeline.startedAt, to: timeline.startedAt + 1000 }]);
    expect(timeline.calls).toMatchObject([{ seq: 0, program: true, state: "rejected" }]);
    expect(timeline.decisions).toMatchObject([{ decision: "rejected", seq: 0 }]);
    const text = formatExecution(rejected, timeline);
    expect(text).toContain("⏸ waited 1.00 s for approval of the program, then rejected");
    expect(text).toContain("rejected the program at");
    expect(text).not.toContain("Pass 1");
  });
});

describe("the timeline of calls paused together", () => {
  it("each pending call of one pause waits from the pause; one approved in milliseconds waits that long", async () => {
    const clock = testClock();
    const runtime = testRuntime({ clock, connectors: { bank: bank(clock) } });
    const code =
      "async () => { await bank.balance({}); return Promise.allSettled([bank.pay({ to: 'a' }), bank.pay({ to: 'b' })]); }";
    const paused = await runtime.execute({ code });
    const pausedAt = clock.now();
    clock.advance(3);
    await runtime.approve({ executionId: paused.executionId, seq: 2 });
    const again = clock.now();
    clock.advance(3 * 60_000);
    const timeline = executionTimeline(await detail(runtime, paused.executionId));
    expect(timeline.waits).toEqual([
      { seq: 2, pass: 1, from: pausedAt, to: pausedAt + 3 },
      { seq: 3, pass: 2, from: again },
    ]);
  });
});
