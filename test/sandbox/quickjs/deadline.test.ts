/**
 * Issue 23 item 1: `whenPast` trusts the clock, never the timer. A timer that fires while the clock still
 * reads before the deadline (granularity, a clock stalled or stepped back) re-arms; the callback runs once,
 * only when the clock has passed the deadline, and never after a cancel.
 */
import { describe, expect, it } from "vitest";
import { whenPast } from "../../../src/sandbox/quickjs/deadline.js";

const turns = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("whenPast", () => {
  it("waits for a stalled clock however often its timer fires, then fires once when the clock is stepped past", async () => {
    let now = 1_000;
    const readings: number[] = [];
    whenPast(
      1_020,
      () => readings.push(now),
      () => now,
    );
    // Real time passes (its 20 ms timer fired and re-armed several times); the clock did not move.
    await turns(120);
    expect(readings).toEqual([]);
    now = 1_019;
    await turns(60);
    expect(readings).toEqual([]);
    now = 1_020;
    await turns(60);
    expect(readings).toEqual([1_020]);
    now = 5_000;
    await turns(40);
    expect(readings).toEqual([1_020]);
  });

  it("re-arms after a clock stepped back, and fires once the clock catches up", async () => {
    let offset = 0;
    const clock = (): number => performance.now() + offset;
    const deadline = clock() + 15;
    let firedAt: number | undefined;
    whenPast(deadline, () => (firedAt = clock()), clock);
    offset -= 40;
    while (firedAt === undefined) await turns(5);
    expect(firedAt).toBeGreaterThanOrEqual(deadline);
  });

  it("fires with a coarse clock only when the coarse reading has reached the deadline", async () => {
    const coarse = (): number => Math.floor(performance.now() / 40) * 40;
    for (let round = 0; round < 5; round++) {
      const deadline = coarse() + 10 + round * 7;
      const readings = await new Promise<number>((resolve) => whenPast(deadline, () => resolve(coarse()), coarse));
      expect(readings).toBeGreaterThanOrEqual(deadline);
    }
  });

  it("never fires after a cancel, and fires in a later turn even when the deadline has passed", async () => {
    let fired = 0;
    const cancel = whenPast(
      0,
      () => fired++,
      () => 10,
    );
    cancel();
    const late = whenPast(
      0,
      () => fired++,
      () => 10,
    );
    expect(fired).toBe(0);
    await turns(20);
    late();
    expect(fired).toBe(1);
  });
});
