/**
 * Programs that made the host decode (or encode) a value the program controls on its event loop
 * (issue 14, defect 1), each with the outcome it must have now. Shared by the host-stall test and
 * the `hostile` benchmark. Bindings: `host.echo(x)` (returns its argument), `host.ok()`.
 */
import { readFileSync } from "node:fs";

export interface StallClass {
  name: string;
  program: string;
  /** `RegExp`: the run fails with a message matching it; `"completed"`: the run succeeds. */
  expect: RegExp | "completed";
}

export const STALL_CLASSES: StallClass[] = [
  {
    name: "20 BigInt arguments of 3 million digits (String replaced first)",
    program: "String = () => '9'.repeat(3e6); const big = 10n ** 5000n; await Promise.all(Array.from({ length: 20 }, () => host.echo(big)))",
    expect: /BigInt values over about 4,000 digits/,
  },
  {
    name: "one argument object of 400,000 keys",
    program: "const o = {}; for (let i = 0; i < 4e5; i++) o['k' + i] = i; await host.echo(o)",
    expect: /host\.echo arguments: would be [\d,]+ characters once encoded, over the journal's limit of 1,000,000/,
  },
  {
    name: "a result of 400,000 keys",
    program: "const o = {}; for (let i = 0; i < 4e5; i++) o['k' + i] = i; o",
    expect: /The program's result would be [\d,]+ characters once encoded/,
  },
  {
    name: "Promise.all of 20,000 host calls",
    program: "const r = await Promise.all(Array.from({ length: 20000 }, (_, i) => host.echo(i))); r.length",
    expect: "completed",
  },
  {
    name: "150 string arguments of 10 MB",
    program: "const s = 'x'.repeat(1e7); await Promise.all(Array.from({ length: 150 }, () => host.echo(s)))",
    expect: /host\.echo arguments: would be 10,000,002 characters/,
  },
  {
    name: "40 arguments and host results of 900,000 characters each, awaited one by one",
    program: "const s = 'x'.repeat(9e5); let n = 0; for (let i = 0; i < 40; i++) n += (await host.echo(s)).length; n",
    expect: "completed",
  },
];

/** Time the main thread has spent on a CPU, in ms (Linux schedstat; `undefined` elsewhere). */
function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** What {@link watchEventLoop} saw. */
export interface EventLoopWatch {
  /** Largest wall-clock gap between two 5 ms ticks. */
  largestGapMs: number;
  /**
   * Largest time the main thread spent running within one gap: the host's own blocking work. On an
   * oversubscribed machine a gap can be long while the thread was not even scheduled; this is the
   * part the host caused. Equal to the gap where schedstat is unavailable.
   */
  largestBusyGapMs: number;
}

/** Watches the event loop with a 5 ms interval. */
export function watchEventLoop(): { stop(): EventLoopWatch } {
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  const seen: EventLoopWatch = { largestGapMs: 0, largestBusyGapMs: 0 };
  const tick = (): void => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    const gap = now - last;
    seen.largestGapMs = Math.max(seen.largestGapMs, gap);
    const busy = cpu === undefined || lastCpu === undefined ? gap : Math.min(gap, cpu - lastCpu);
    seen.largestBusyGapMs = Math.max(seen.largestBusyGapMs, busy);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, 5);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return seen;
    },
  };
}
