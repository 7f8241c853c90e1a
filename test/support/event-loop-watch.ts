/**
 * Watches the host's event loop with a 5 ms interval and reports the largest gap, and the largest time the main
 * thread itself was running within one gap (Linux schedstat): on an oversubscribed machine the OS alone delays a
 * timer by tens of milliseconds, which says nothing about the host's own work.
 */
import { readFileSync } from "node:fs";

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
