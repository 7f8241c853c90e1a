/**
 * A run's deadline, on a monotonic clock. Not `Date.now()`: the wall clock can be stepped (NTP, a
 * suspended VM), and Node's timers round against a different clock than `Date.now()`, so a timer armed
 * for a `Date.now()` deadline can fire while the clock still reads the deadline. A waiter that trusted
 * that wake-up found no stop and was never woken again (issue 23). {@link whenPast} never trusts a
 * timer: it asks the clock, and re-arms for what is left when the timer fired early.
 */

/** A monotonic clock in milliseconds (`performance.now()` unless a test injects one it can step). */
export type MonotonicClock = () => number;

/** `performance.now()`: monotonic, sub-millisecond, per thread (so a deadline never crosses threads as a number). */
export const monotonicNow: MonotonicClock = () => performance.now();

/**
 * How long past its deadline (or an abort) a run may take to stop itself before it is ended from outside:
 * the worker is terminated, an in-process session is left behind and its module discarded.
 */
export const HARD_STOP_GRACE_MS = 250;

/**
 * Calls `onPast` once, in a later turn, when `clock() >= deadline`. A timer that fires before that (a coarse
 * timer, a clock that stalled or was stepped back) re-arms for the time the clock says is left, so the
 * deadline is never lost. The timer keeps the process alive, as the run it bounds does. Returns a cancel.
 */
export function whenPast(deadline: number, onPast: () => void, clock: MonotonicClock = monotonicNow): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const check = (): void => {
    timer = undefined;
    if (done) return;
    const left = deadline - clock();
    if (left > 0) {
      timer = setTimeout(check, Math.ceil(left));
      return;
    }
    done = true;
    onPast();
  };
  timer = setTimeout(check, Math.max(0, Math.ceil(deadline - clock())));
  return () => {
    done = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
