// @ts-check
/**
 * The execution's timeline: a row per pass and per call on one axis, long waits for approval cut (marked breaks) by the
 * `timelineScale` the page is handed, ticks at the passes' starts, and a legend.
 */
import { el } from "./dom.js";
import { callName, duration, isProgram } from "./format.js";

/** @import { PageTimeline, TimelineScale } from "./page-types.js" */

/** @typedef {(at: number) => number} Axis an instant's position on the axis, in percent */

/**
 * @param {HTMLElement} track
 * @param {string} className
 * @param {number} from
 * @param {number} to
 * @param {Axis} x
 * @param {string} title
 */
function bar(track, className, from, to, x, title) {
  const node = el("div", { className: "bar " + className, title });
  node.style.left = x(from) + "%";
  node.style.width = Math.max(x(to) - x(from), 0.4) + "%";
  track.append(node);
}

/**
 * @param {HTMLElement} track
 * @param {string} className
 * @param {number} at
 * @param {Axis} x
 * @param {string} title
 */
function mark(track, className, at, x, title) {
  const node = el("div", { className: "mark " + className, title });
  node.style.left = x(at) + "%";
  track.append(node);
}

/**
 * @param {string} label
 * @param {(track: HTMLElement) => void} build
 * @returns {HTMLElement}
 */
function row(label, build) {
  const track = el("div", { className: "tl-track" });
  build(track);
  return el("div", { className: "tl-row" }, [el("div", { className: "tl-label", text: label, title: label }), track]);
}

/**
 * @param {TimelineScale} timelineScale
 * @param {PageTimeline} timeline
 * @param {string} status
 * @param {number} now
 * @returns {HTMLElement}
 */
export function renderTimeline(timelineScale, timeline, status, now) {
  let end = status === "paused" || status === "running" ? Math.max(timeline.endedAt, now) : timeline.endedAt;
  if (end <= timeline.startedAt) end = timeline.startedAt + 1;
  // A wait much longer than the active time is cut (a marked break) so that calls of a few ms stay visible.
  const x = timelineScale(timeline.startedAt, end, timeline.waits);
  const start = timeline.startedAt;
  /** @type {Record<number, number>} */
  const passStart = {};
  for (const p of timeline.passes) passStart[p.pass] = p.startedAt;
  const rows = timeline.passes.map((p) =>
    row("Pass " + p.pass + (p.trigger === "approval" ? " (after approval)" : ""), (track) => {
      bar(track, "pass", p.startedAt, p.endedAt, x, "Pass " + p.pass + ": +" + duration(p.startedAt - start));
    }),
  );
  for (const call of timeline.calls) {
    rows.push(
      row(isProgram(call) ? "Program approval" : callName(call), (track) => {
        const from = /** @type {number} */ (
          call.startedAt !== undefined
            ? call.startedAt
            : call.finishedAt !== undefined
              ? call.finishedAt
              : passStart[call.pass]
        );
        const to = call.state === "reverted" ? from : call.finishedAt !== undefined ? call.finishedAt : from;
        // Nothing runs for the program's approval row: only its wait is drawn.
        if (call.state !== "pending" && !isProgram(call)) {
          bar(
            track,
            call.state === "replayed" ? "applied" : call.state,
            from,
            to,
            x,
            "#" + call.seq + " " + call.state + (call.durationMs !== undefined ? ", " + duration(call.durationMs) : ""),
          );
        }
        for (const w of timeline.waits) {
          if (w.seq !== call.seq) continue;
          const waitEnd = w.to === undefined ? end : w.to;
          const label = w.to === undefined ? "waiting for approval: " : "waited for approval: ";
          bar(track, "wait", w.from, waitEnd, x, label + duration(waitEnd - w.from));
        }
        for (const p of call.replayedInPasses) {
          mark(track, "replay", /** @type {number} */ (passStart[p]), x, "replayed in pass " + p);
        }
        if (call.state === "reverted" && call.finishedAt !== undefined)
          mark(track, "revert", call.finishedAt, x, "reverted");
      }),
    );
  }
  // A long wait is a break: the same cut on every row, and on the axis its real length instead of ticks.
  for (const r of rows) {
    const track = /** @type {HTMLElement} */ (r.lastChild);
    for (const b of x.breaks) {
      const cut = el("div", { className: "tl-break", title: "not to scale: " + duration(b.to - b.from) + " cut" });
      cut.style.left = b.left + "%";
      cut.style.width = b.right - b.left + "%";
      track.append(cut);
    }
  }
  const ticks = el("div", { className: "ticks" });
  /** @type {Array<{ left: number; node: HTMLElement }>} */
  const placed = x.breaks.map((b) => ({
    left: (b.left + b.right) / 2,
    node: el("span", { className: "tick break", text: "\u2248 " + duration(b.to - b.from) }),
  }));
  const cuts = placed.slice();
  /** @param {number} left */
  const clear = (left) => cuts.every((cut) => Math.abs(cut.left - left) >= 12);
  const instants = [start].concat(
    timeline.passes.filter((p) => p.startedAt > start).map((p) => p.startedAt),
    [end],
  );
  /** @type {{ left: number; node: HTMLElement } | null} */
  let last = null;
  instants.forEach((at, index) => {
    const left = x(at);
    const isEnd = index === instants.length - 1;
    if (!clear(left)) return;
    if (last !== null && left - last.left < 14) {
      if (!isEnd) return;
      if (last.left > 0) placed.splice(placed.indexOf(last), 1);
    }
    const tick = el("span", {
      className: "tick" + (isEnd ? " end" : index === 0 ? " start" : ""),
      text: "+" + duration(at - start),
    });
    last = { left, node: tick };
    placed.push(last);
  });
  placed.sort((a, b) => a.left - b.left);
  for (const item of placed) {
    item.node.style.left = item.left + "%";
    ticks.append(item.node);
  }
  const legend = el("p", { className: "legend" }, [
    el("span", { className: "sw-pass", text: "pass" }),
    el("span", { className: "sw-exec", text: "call ran" }),
    el("span", { className: "sw-replay", text: "replayed (\u25c6)" }),
    el("span", { className: "sw-wait", text: "wait for approval" }),
    el("span", { className: "sw-break", text: "time cut (\u2248 real length)" }),
    el("span", { className: "sw-fail", text: "error" }),
  ]);
  return el("div", {}, [
    el(
      "div",
      { className: "timeline", "data-testid": "timeline", "aria-hidden": "true" },
      rows.concat([el("div", { className: "tl-axis" }, [el("span", { text: "time" }), ticks])]),
    ),
    legend,
  ]);
}
