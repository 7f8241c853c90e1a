/**
 * The web timeline's time axis, run in the browser (the page embeds this function's source) and
 * unit-tested here. Waiting for a person can take hours while calls take milliseconds, so a stretch
 * of waiting longer than 60% of the active time is drawn as a break: a fixed, narrow slice the page
 * marks as cut (with its real length), not a share of the axis it would misstate. Everything else
 * keeps its honest share: the rest of the axis is divided in proportion to real time. Waits that
 * overlap (several calls paused together) are merged first, so a stretch is one break.
 *
 * One self-contained function (no imports, no outer names): it becomes text in the page
 * (`inspector-page-script.ts`).
 */

/** A wait for approval on the axis: `to` absent while still waiting (it lasts until the axis's end). */
export interface ScaleWait {
  from: number;
  to?: number | undefined;
}

/** A compressed stretch: real instants `from`–`to`, drawn between `left` and `right` (percent). */
interface ScaleBreak {
  from: number;
  to: number;
  left: number;
  right: number;
}

/** An instant's position on the axis in percent (0 at `start`, 100 at `end`, clamped), and the breaks drawn. */
export interface TimelineScale {
  (at: number): number;
  breaks: ScaleBreak[];
}

/**
 * The axis from `start` to `end` with long waits drawn as breaks of `breakPercent` of the axis each
 * (shrunk when many would take more than 40% of it).
 */
export function timelineScale(start: number, end: number, waits: ScaleWait[], breakPercent = 6): TimelineScale {
  const spans: Array<[number, number]> = [];
  const clipped = waits
    .map((wait): [number, number] => [Math.max(start, wait.from), Math.min(end, wait.to ?? end)])
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  for (const span of clipped) {
    const last = spans[spans.length - 1];
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else spans.push(span);
  }
  const waited = spans.reduce((sum, [from, to]) => sum + (to - from), 0);
  const cap = Math.max((end - start - waited) * 0.6, 1);
  const cut = spans.filter(([from, to]) => to - from > cap);
  const cutTime = cut.reduce((sum, [from, to]) => sum + (to - from), 0);
  const realTime = end - start - cutTime;
  // Without real time left to draw, the breaks share the axis; otherwise each takes a fixed slice.
  const each = cut.length === 0 ? 0 : realTime <= 0 ? 100 / cut.length : Math.min(breakPercent, 40 / cut.length);
  const perMs = realTime <= 0 ? 0 : (100 - each * cut.length) / realTime;
  const position = (at: number): number => {
    const t = Math.min(end, Math.max(start, at));
    let left = (t - start) * perMs;
    for (const [from, to] of cut) {
      if (t <= from) break;
      const inside = Math.min(t, to) - from;
      left += each * (inside / (to - from)) - inside * perMs;
    }
    return Math.min(100, Math.max(0, left));
  };
  const scale = ((at: number) => (at >= end ? 100 : position(at))) as TimelineScale;
  scale.breaks = cut.map(([from, to]) => ({ from, to, left: position(from), right: to >= end ? 100 : position(to) }));
  return scale;
}
