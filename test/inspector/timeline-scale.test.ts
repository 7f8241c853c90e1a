import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INSPECTOR_SCRIPT } from "../../src/inspector/inspector-page-script.js";
import { timelineScale } from "../../src/inspector/timeline-scale.js";

const MINUTE = 60_000;

describe("the web timeline's time axis", () => {
  it("compresses a long wait so milliseconds of work stay visible", () => {
    // 100 ms of work, 3 minutes of waiting, 100 ms of work.
    const x = timelineScale(0, 3 * MINUTE + 200, [{ from: 100, to: 3 * MINUTE + 100 }]);
    expect(x(0)).toBe(0);
    expect(x(3 * MINUTE + 200)).toBe(100);
    // Active time 200 ms, the wait drawn as 60% of it: 100 + 120 + 100 = 320 units.
    expect(x(100)).toBeCloseTo(31.25, 6);
    expect(x(3 * MINUTE + 100)).toBeCloseTo(68.75, 6);
  });

  it("compresses a stretch once when several calls paused together wait through it", () => {
    const end = 83 + 3 * MINUTE + 11_000;
    const one = timelineScale(0, end, [{ from: 52, to: 55 }, { from: 83 }]);
    // Three calls of one Promise.all: the same open wait three times, plus one approved in 3 ms.
    const three = timelineScale(0, end, [{ from: 52, to: 55 }, { from: 83 }, { from: 83 }, { from: 83, to: end }]);
    for (const at of [0, 20, 52, 55, 83, 90_000, end]) expect(three(at)).toBeCloseTo(one(at), 9);
    expect(three(end)).toBe(100);
    // The 3 ms wait stays 3 ms wide next to 80 ms of work, not most of the axis.
    expect(three(55) - three(52)).toBeLessThan(3);
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
