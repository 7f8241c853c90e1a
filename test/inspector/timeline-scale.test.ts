import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INSPECTOR_SCRIPT } from "../../src/inspector/inspector-page-script.js";
import { timelineScale } from "../../src/inspector/timeline-scale.js";

const MINUTE = 60_000;

describe("the web timeline's time axis", () => {
  it("draws a long wait as a narrow break, and the rest of the axis in proportion to real time", () => {
    // 100 ms of work, 3 minutes of waiting, 100 ms of work.
    const x = timelineScale(0, 3 * MINUTE + 200, [{ from: 100, to: 3 * MINUTE + 100 }]);
    expect(x(0)).toBe(0);
    expect(x(3 * MINUTE + 200)).toBe(100);
    // The break takes 6% of the axis; the two 100 ms stretches share the other 94% equally.
    expect(x(100)).toBeCloseTo(47, 6);
    expect(x(3 * MINUTE + 100)).toBeCloseTo(53, 6);
    expect(x.breaks).toEqual([{ from: 100, to: 3 * MINUTE + 100, left: x(100), right: x(3 * MINUTE + 100) }]);
  });

  it("a 6 ms pass before a 33 s wait is not drawn wider than the passes after it took (issue 34)", () => {
    // Pass 1 runs 6 ms and pauses; 33 s later pass 2 runs 40 ms, pass 3 runs 60 ms after a 20 ms gap.
    const resumed = 6 + 33_000;
    const end = resumed + 40 + 20 + 60;
    const x = timelineScale(0, end, [{ from: 6, to: resumed }]);
    const [cut] = x.breaks;
    expect(x.breaks).toHaveLength(1);
    expect((cut?.right ?? 0) - (cut?.left ?? 0)).toBeCloseTo(6, 6);
    // Outside the break every stretch's width is its share of real time: 6 : 40 : 20 : 60.
    const widths = [
      x(6) - x(0),
      x(resumed + 40) - x(resumed),
      x(resumed + 60) - x(resumed + 40),
      x(end) - x(resumed + 60),
    ];
    const perMs = 94 / 126;
    for (const [index, ms] of [6, 40, 20, 60].entries()) expect(widths[index]).toBeCloseTo(ms * perMs, 6);
    // Under the old axis the 6 ms pass took 62% of it and the wait 38%.
    expect(x(6)).toBeLessThan(5);
  });

  it("many breaks share at most 40% of the axis; an axis that is all waiting is all break", () => {
    const waits = Array.from({ length: 10 }, (_, index) => ({ from: index * 10_010 + 10, to: (index + 1) * 10_010 }));
    const x = timelineScale(0, 10 * 10_010, waits);
    expect(x.breaks).toHaveLength(10);
    const total = x.breaks.reduce((sum, cut) => sum + (cut.right - cut.left), 0);
    expect(total).toBeCloseTo(40, 6);
    const waiting = timelineScale(0, 1_000, [{ from: 0 }]);
    expect(waiting.breaks).toEqual([{ from: 0, to: 1_000, left: 0, right: 100 }]);
    expect(waiting(500)).toBeCloseTo(50, 6);
  });

  it("compresses a stretch once when several calls paused together wait through it", () => {
    const end = 83 + 3 * MINUTE + 11_000;
    const one = timelineScale(0, end, [{ from: 52, to: 55 }, { from: 83 }]);
    // Three calls of one Promise.all: the same open wait three times, plus one approved in 3 ms.
    const three = timelineScale(0, end, [{ from: 52, to: 55 }, { from: 83 }, { from: 83 }, { from: 83, to: end }]);
    for (const at of [0, 20, 52, 55, 83, 90_000, end]) expect(three(at)).toBeCloseTo(one(at), 9);
    expect(three(end)).toBe(100);
    // The 3 ms wait keeps its share of the 83 ms drawn to scale, not most of the axis.
    expect(three(55) - three(52)).toBeCloseTo((3 * 94) / 83, 6);
  });

  it("is 0 at the start, 100 at the end and never goes back, whatever the waits (seeded)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 * MINUTE }),
        fc.array(
          fc.record({ from: fc.integer({ min: -1000, max: 11 * MINUTE }), length: fc.option(fc.nat(11 * MINUTE)) }),
          { maxLength: 8 },
        ),
        fc.array(fc.integer({ min: 0, max: 10 * MINUTE }), { minLength: 2, maxLength: 20 }),
        (end, waits, instants) => {
          const x = timelineScale(
            0,
            end,
            waits.map(({ from, length }) => (length === null ? { from } : { from, to: from + length })),
          );
          expect(x(0)).toBe(0);
          expect(x(end)).toBe(100);
          const sorted = instants.map((at) => Math.min(at, end)).sort((a, b) => a - b);
          for (let index = 1; index < sorted.length; index++)
            expect(x(sorted[index] ?? 0)).toBeGreaterThanOrEqual(x(sorted[index - 1] ?? 0));
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });

  it("is the function the page runs", () => {
    expect(INSPECTOR_SCRIPT).toContain(timelineScale.toString());
  });
});
