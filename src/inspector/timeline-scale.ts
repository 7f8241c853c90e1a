/**
 * The web timeline's time axis, run in the browser (the page embeds this function's source) and
 * unit-tested here. Waiting for a person can take hours while calls take milliseconds, so time
 * spent waiting is compressed: each stretch of waiting longer than 60% of the active time is drawn
 * that long. Waits that overlap (several calls paused together wait through the same stretch) are
 * merged first, so a stretch is compressed once however many calls waited in it.
 *
 * One self-contained function (no imports, no outer names): it becomes text in the page
 * (`inspector-page-script.ts`).
 */

/** A wait for approval on the axis: `to` absent while still waiting (it lasts until the axis's end). */
export interface ScaleWait {
  from: number;
  to?: number | undefined;
}

/**
 * A function from an instant to its position on the axis, in percent (0 at `start`, 100 at `end`,
 * clamped), with the waits compressed.
 */
export function timelineScale(start: number, end: number, waits: ScaleWait[]): (at: number) => number {
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
  const scaled = (at: number): number => {
    let position = at - start;
    for (const [from, to] of spans) {
      const length = to - from;
      if (length <= cap || at <= from) continue;
      const inside = Math.min(at, to) - from;
      position -= inside - inside * (cap / length);
    }
    return position;
  };
  const total = Math.max(scaled(end), 1);
  return (at) => Math.min(100, Math.max(0, (scaled(at) / total) * 100));
}
