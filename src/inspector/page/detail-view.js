// @ts-check
/**
 * The selected execution: its status, actions, timeline, calls (arguments and outcomes), decisions, program, logs
 * and result or error.
 */
import { actionBar } from "./actions-view.js";
import { el, statusBadge } from "./dom.js";
import { duration, instant, isProgram, json } from "./format.js";
import { renderTimeline } from "./timeline-view.js";
import { workflowRunLine } from "./workflow-run-view.js";

/** @import { PageContext, PageDetail, PageTimeline, TimelineScale } from "./page-types.js" */

/**
 * @param {PageTimeline} timeline
 * @returns {HTMLElement}
 */
function callsTable(timeline) {
  /** @type {HTMLElement[]} */
  const rows = [];
  for (const c of timeline.calls) {
    if (isProgram(c)) continue; // the code is under Program, its approval in the timeline and decisions
    const happened =
      c.state +
      (c.replayedInPasses.length
        ? (c.state === "replayed" ? " in pass " : ", replayed in pass ") + c.replayedInPasses.join(", ")
        : "") +
      (c.approvedAt !== undefined ? ", approved " + instant(c.approvedAt) : "") +
      (c.decidedBy !== undefined ? " by " + c.decidedBy : "") +
      (c.cost !== undefined ? ", cost " + c.cost : "") +
      ("approvedArgs" in c ? ", with changed arguments" : "");
    rows.push(
      el("tr", { "data-testid": "call-row", className: "call-head" }, [
        el("td", { className: "num", text: c.seq }),
        el("td", { className: "mono", text: c.connector + "." + c.method }),
        el("td", { className: "c-" + c.state, text: happened }),
        el("td", { className: "num", text: c.pass }),
        el("td", {
          className: "num",
          text: c.startedAt !== undefined ? "+" + duration(c.startedAt - timeline.startedAt) : "",
        }),
        el("td", { className: "num", text: c.durationMs !== undefined ? duration(c.durationMs) : "" }),
      ]),
    );
    const outcome =
      c.error !== undefined
        ? el("pre", { className: "c-error", text: c.error })
        : "result" in c
          ? el("pre", { text: json(c.result) })
          : el("span", { className: "empty", text: "no result recorded" });
    const changed =
      "approvedArgs" in c
        ? [
            el("div", { className: "io-label", text: "ran with (changed by the approver)" }),
            el("pre", { "data-testid": "approved-args", text: json(c.approvedArgs) }),
          ]
        : [];
    rows.push(
      el("tr", { className: "call-body" }, [
        el("td", {}),
        el("td", { colspan: 5 }, [
          el("div", { className: "io" }, [
            el(
              "div",
              {},
              [
                el("div", {
                  className: "io-label",
                  text: "approvedArgs" in c ? "arguments (the program's)" : "arguments",
                }),
                el("pre", { text: json(c.args) }),
              ].concat(changed),
            ),
            el("div", {}, [
              el("div", { className: "io-label", text: c.error !== undefined ? "error" : "result" }),
              outcome,
            ]),
          ]),
        ]),
      ]),
    );
  }
  return el("table", { "aria-label": "Calls" }, [
    el("thead", {}, [
      el(
        "tr",
        {},
        ["#", "Call", "What happened", "Pass", "Start", "Duration"].map((t) => el("th", { scope: "col", text: t })),
      ),
    ]),
    el("tbody", {}, rows),
  ]);
}

/**
 * The nodes of the detail panel for `data`.
 *
 * @param {PageContext} ctx
 * @param {TimelineScale} timelineScale
 * @param {PageDetail} data
 * @returns {HTMLElement[]}
 */
export function detailNodes(ctx, timelineScale, data) {
  const d = data.execution;
  const t = data.timeline;
  const calls = d.calls.filter((c) => !isProgram(c)).length;
  const nodes = [
    el("h2", { id: "detail-title" }, [
      "Execution ",
      el("span", { className: "mono", text: d.executionId }),
      " ",
      statusBadge(d.status),
    ]),
    el("p", {
      className: "meta",
      text:
        "Started " +
        instant(d.createdAt) +
        " \u00b7 " +
        d.passes +
        " pass" +
        (d.passes === 1 ? "" : "es") +
        " \u00b7 " +
        calls +
        " call" +
        (calls === 1 ? "" : "s") +
        " \u00b7 last update +" +
        duration(d.updatedAt - d.createdAt),
    }),
  ];
  // The Workflow SDK run whose durable step runs this program (`ai-codemode/workflow`).
  if (d.workflowRunId !== undefined) nodes.push(workflowRunLine(d.workflowRunId, data.workflowRunUrl));
  nodes.push(
    actionBar(ctx, d),
    el("h3", { text: "Timeline" }),
    renderTimeline(timelineScale, t, d.status, data.now),
    el("h3", { text: "Calls" }),
    t.calls.some((c) => !isProgram(c)) ? callsTable(t) : el("p", { className: "empty", text: "No calls." }),
  );
  if (t.decisions.length) {
    nodes.push(
      el("h3", { text: "Decisions" }),
      el(
        "ul",
        {},
        t.decisions.map((x) => {
          const target =
            x.seq === undefined ? "" : x.seq === 0 && t.calls.some(isProgram) ? " the program" : " #" + x.seq;
          const by = x.decidedBy === undefined ? "" : " by " + x.decidedBy;
          return el("li", {
            "data-testid": "decision-line",
            text: x.decision + target + by + " at " + instant(x.at) + (x.reason ? " \u2014 " + x.reason : ""),
          });
        }),
      ),
    );
  }
  const program = t.calls.filter(isProgram)[0];
  const programNote =
    program === undefined
      ? ""
      : program.state === "pending"
        ? " \u2014 waiting for approval: nothing has run yet"
        : program.state === "rejected"
          ? " \u2014 rejected before it ran"
          : " \u2014 approved before it ran";
  nodes.push(
    el("h3", { text: "Program" + programNote }),
    el(
      "ol",
      { className: "code", "data-testid": "program", "aria-label": "Program" },
      d.code.split("\n").map((line) => el("li", { text: line })),
    ),
  );
  nodes.push(
    el("h3", { text: "Logs" }),
    d.logs.length
      ? el("pre", { "data-testid": "logs", text: d.logs.join("\n") })
      : el("p", { className: "empty", text: "No logs." }),
  );
  if (d.error !== undefined) {
    nodes.push(
      el("h3", { text: "Error (" + (d.kind || "error") + ")" }),
      el("pre", { className: "c-error", text: d.error }),
    );
  } else if (d.status === "completed") {
    nodes.push(el("h3", { text: "Result" }), el("pre", { "data-testid": "result", text: json(d.result) }));
  }
  return nodes;
}
