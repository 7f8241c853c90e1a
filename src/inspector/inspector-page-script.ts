/**
 * The web inspector's browser script (inline, allowed by its hash in the page's CSP).
 * It builds every element with `textContent` and DOM calls, never from HTML strings:
 * program text, arguments and results are untrusted. Everything comes from `./api`.
 * The time axis is `timeline-scale.ts`, embedded as source (and unit-tested there).
 *
 * Rejecting means the same here as in the chat (docs/decisions/reject-stops-the-program.md):
 * "Reject and stop the program" ends the run; when several calls wait together, each can be
 * rejected inside the program instead (`decide`), which may go on.
 *
 * Approve with changes: a pending call of an `editable` method shows its arguments as JSON in a text box; what the
 * person leaves there is sent as `args` (the runtime validates it; a bad edit is refused and nothing runs).
 */
import { timelineScale } from "./timeline-scale.js";

export const INSPECTOR_SCRIPT = `"use strict";
(function () {
  var timelineScale = (${timelineScale.toString()});
  var body = document.body;
  var refreshMs = Number(body.getAttribute("data-refresh-ms")) || 2000;
  var base = location.pathname.replace(/\\/+$/, "");
  // chosen, reason and edits (JSON text per call): what the person picked for a paused execution, kept across refreshes.
  var state = { selected: null, readOnly: false, listKey: "", detailKey: "", chosen: {}, reason: "", edits: {} };

  function api(path) { return base + "/api" + path; }
  function $(id) { return document.getElementById(id); }
  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (value === undefined || value === null || value === false) return;
      if (key === "text") node.textContent = String(value);
      else if (key === "className") node.className = value;
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value === true ? "" : String(value));
    });
    (children || []).forEach(function (child) { if (child !== null && child !== undefined) node.append(child); });
    return node;
  }
  function pad(n) { return String(n).padStart(2, "0"); }
  function duration(ms) {
    if (ms < 1000) return Math.round(ms) + " ms";
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + " s";
    var s = Math.floor(ms / 1000);
    if (s < 3600) return Math.floor(s / 60) + "m " + pad(s % 60) + "s";
    if (s < 86400) return Math.floor(s / 3600) + "h " + pad(Math.floor(s / 60) % 60) + "m";
    return Math.floor(s / 86400) + "d " + pad(Math.floor(s / 3600) % 24) + "h";
  }
  function instant(at) { return new Date(at).toISOString().replace("T", " ").replace(/\\.\\d{3}Z$/, "Z"); }
  function json(value) {
    if (value === undefined) return "undefined";
    // Text with line breaks (code, a message) reads as text, not as one escaped JSON string.
    if (typeof value === "string" && value.indexOf("\\n") >= 0) return value;
    var compact = JSON.stringify(value);
    return compact.length <= 72 ? compact : JSON.stringify(value, null, 2);
  }
  function isProgram(call) { return call.seq === 0 && call.connector === "codemode" && call.method === "program"; }
  function callName(call) { return "#" + call.seq + " " + call.connector + "." + call.method; }
  function say(text, bad) { var line = $("status-line"); line.textContent = text; line.className = bad ? "bad" : ""; }

  function getJson(path, init) {
    return fetch(api(path), init).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data && data.error ? data.error : "HTTP " + response.status);
        return data;
      });
    });
  }

  function focusKey() { var active = document.activeElement; return active ? active.getAttribute("data-key") : null; }
  function restoreFocus(key) {
    if (!key) return;
    var target = document.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (target) target.focus();
  }
  function replace(container, nodes) {
    var key = container.contains(document.activeElement) ? focusKey() : null;
    container.replaceChildren.apply(container, nodes);
    restoreFocus(key);
  }

  function statusBadge(status, extra) { return el("span", { className: "badge s-" + status, text: status + (extra || "") }); }

  function renderList(data) {
    $("runtime-name").textContent = "runtime \\u201c" + data.runtime + "\\u201d";
    var rows = data.executions.map(function (row) {
      var current = row.executionId === state.selected;
      var shortId = row.executionId.length > 12 ? row.executionId.slice(0, 8) + "\\u2026" : row.executionId;
      var link = el("a", { href: "#/e/" + encodeURIComponent(row.executionId), text: shortId, title: row.executionId,
        "aria-label": "Execution " + row.executionId, "data-key": "row:" + row.executionId, "aria-current": current ? "true" : null });
      return el("tr", { "aria-current": current ? "true" : null, "data-testid": "execution-row", "data-status": row.status }, [
        el("td", { className: "what" }, [el("span", { className: "mono" }, [link]),
          el("div", { className: "summary", "data-testid": "summary", text: row.summary, title: row.summary })]),
        el("td", {}, [statusBadge(row.status, row.status === "paused" ? " (" + row.pending + ")" : "")]),
        el("td", { className: "num", text: row.calls }),
        el("td", { text: instant(row.startedAt).slice(11, -1), title: instant(row.startedAt) + " (" + new Date(row.startedAt).toString() + ")" }),
        el("td", { className: "num", text: duration(row.durationMs) }),
      ]);
    });
    var table = rows.length === 0 ? el("p", { className: "empty", text: "No executions yet." }) : el("table", { "aria-label": "Executions" }, [
      el("thead", {}, [el("tr", {}, ["Execution: what it did", "Status", "Calls", "Started (UTC)", "Duration"].map(function (title) {
        return el("th", { scope: "col", text: title });
      }))]),
      el("tbody", {}, rows),
    ]);
    replace($("list"), [table]);
  }

  function loadList() {
    var status = $("status-filter").value;
    return getJson("/executions?limit=100" + (status ? "&status=" + encodeURIComponent(status) : "")).then(function (data) {
      state.readOnly = data.readOnly;
      var key = JSON.stringify([data.executions, state.selected]);
      if (key !== state.listKey) { state.listKey = key; renderList(data); }
    }).catch(function (error) { say("Could not load the executions: " + error.message, true); });
  }

  function bar(track, className, from, to, x, title) {
    var node = el("div", { className: "bar " + className, title: title });
    node.style.left = x(from) + "%";
    node.style.width = Math.max(x(to) - x(from), 0.4) + "%";
    track.append(node);
  }
  function mark(track, className, at, x, title) {
    var node = el("div", { className: "mark " + className, title: title });
    node.style.left = x(at) + "%";
    track.append(node);
  }
  function row(label, build) {
    var track = el("div", { className: "tl-track" });
    build(track);
    return el("div", { className: "tl-row" }, [el("div", { className: "tl-label", text: label, title: label }), track]);
  }

  function renderTimeline(timeline, status, now) {
    var end = status === "paused" || status === "running" ? Math.max(timeline.endedAt, now) : timeline.endedAt;
    if (end <= timeline.startedAt) end = timeline.startedAt + 1;
    // Waits for approval are compressed so that calls of a few ms stay visible next to hours of waiting.
    var x = timelineScale(timeline.startedAt, end, timeline.waits);
    var start = timeline.startedAt;
    var passStart = {};
    timeline.passes.forEach(function (p) { passStart[p.pass] = p.startedAt; });
    var rows = timeline.passes.map(function (p) {
      return row("Pass " + p.pass + (p.trigger === "approval" ? " (after approval)" : ""), function (track) {
        bar(track, "pass", p.startedAt, p.endedAt, x, "Pass " + p.pass + ": +" + duration(p.startedAt - start));
      });
    });
    timeline.calls.forEach(function (call) {
      rows.push(row(isProgram(call) ? "Program approval" : callName(call), function (track) {
        var from = call.startedAt !== undefined ? call.startedAt : (call.finishedAt !== undefined ? call.finishedAt : passStart[call.pass]);
        var to = call.state === "reverted" ? from : (call.finishedAt !== undefined ? call.finishedAt : from);
        // Nothing runs for the program's approval row: only its wait is drawn.
        if (call.state !== "pending" && !isProgram(call)) {
          bar(track, call.state === "replayed" ? "executed" : call.state, from, to, x,
            "#" + call.seq + " " + call.state + (call.durationMs !== undefined ? ", " + duration(call.durationMs) : ""));
        }
        timeline.waits.forEach(function (w) {
          if (w.seq !== call.seq) return;
          var waitEnd = w.to === undefined ? end : w.to;
          bar(track, "wait", w.from, waitEnd, x, (w.to === undefined ? "waiting for approval: " : "waited for approval: ") + duration(waitEnd - w.from));
        });
        call.replayedInPasses.forEach(function (p) { mark(track, "replay", passStart[p], x, "replayed in pass " + p); });
        if (call.state === "reverted" && call.finishedAt !== undefined) mark(track, "revert", call.finishedAt, x, "reverted");
      }));
    });
    // A long wait is a break: the same cut on every row, and on the axis its real length instead of ticks.
    rows.forEach(function (r) {
      x.breaks.forEach(function (b) {
        var cut = el("div", { className: "tl-break", title: "not to scale: " + duration(b.to - b.from) + " cut" });
        cut.style.left = b.left + "%";
        cut.style.width = (b.right - b.left) + "%";
        r.lastChild.append(cut);
      });
    });
    var ticks = el("div", { className: "ticks" });
    var placed = x.breaks.map(function (b) {
      var label = el("span", { className: "tick break", text: "\\u2248 " + duration(b.to - b.from) });
      return { left: (b.left + b.right) / 2, node: label };
    });
    var cuts = placed.slice();
    function clear(left) { return cuts.every(function (cut) { return Math.abs(cut.left - left) >= 12; }); }
    var instants = [start].concat(timeline.passes.filter(function (p) { return p.startedAt > start; }).map(function (p) { return p.startedAt; }), [end]);
    var last = null;
    instants.forEach(function (at, index) {
      var left = x(at);
      var isEnd = index === instants.length - 1;
      if (!clear(left)) return;
      if (last !== null && left - last.left < 14) {
        if (!isEnd) return;
        if (last.left > 0) placed.splice(placed.indexOf(last), 1);
      }
      var tick = el("span", { className: "tick" + (isEnd ? " end" : index === 0 ? " start" : ""), text: "+" + duration(at - start) });
      last = { left: left, node: tick };
      placed.push(last);
    });
    placed.sort(function (a, b) { return a.left - b.left; }).forEach(function (item) {
      item.node.style.left = item.left + "%";
      ticks.append(item.node);
    });
    var legend = el("p", { className: "legend" }, [
      el("span", { className: "sw-pass", text: "pass" }), el("span", { className: "sw-exec", text: "call ran" }),
      el("span", { className: "sw-replay", text: "replayed (\\u25c6)" }), el("span", { className: "sw-wait", text: "wait for approval" }),
      el("span", { className: "sw-break", text: "time cut (\\u2248 real length)" }),
      el("span", { className: "sw-fail", text: "failed" }),
    ]);
    return el("div", {}, [el("div", { className: "timeline", "data-testid": "timeline", "aria-hidden": "true" },
      rows.concat([el("div", { className: "tl-axis" }, [el("span", { text: "time" }), ticks])])), legend]);
  }

  function act(action, body, label) {
    var id = state.selected;
    say(label + "\\u2026");
    Array.prototype.forEach.call(document.querySelectorAll("#actions button, #actions input"), function (b) { b.disabled = true; });
    return getJson("/executions/" + encodeURIComponent(id) + "/" + action, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    }).then(function (data) {
      var out = data.output;
      state.chosen = {};
      state.reason = "";
      if (out.status !== "error") state.edits = {};
      say(label + ": " + out.status + (out.error ? " \\u2014 " + out.error : ""), out.status === "error");
    }).catch(function (error) { say(label + " failed: " + error.message, true); })
      .then(function () { state.detailKey = ""; return Promise.all([loadDetail(), loadList()]); });
  }

  function reasonInput() {
    var input = el("input", { type: "text", id: "reject-reason", "aria-label": "Reason for rejecting (optional)",
      placeholder: "Reason (optional)", "data-key": "reason" });
    input.value = state.reason;
    input.addEventListener("input", function () { state.reason = input.value; });
    return input;
  }
  // The arguments of a pending call of an editable method, as JSON the person may change before approving.
  function argsEditor(p, disabled) {
    var original = JSON.stringify(p.args, null, 2);
    var area = el("textarea", { className: "mono args-edit", rows: Math.min(12, original.split("\\n").length + 1),
      "aria-label": "Arguments of " + callName(p) + " (JSON; edit before approving)", "data-key": "args:" + p.seq,
      "data-testid": "args-edit", disabled: disabled, spellcheck: false });
    area.value = state.edits[p.seq] !== undefined ? state.edits[p.seq] : original;
    area.addEventListener("input", function () { state.edits[p.seq] = area.value; });
    return el("label", { className: "args-label" }, [el("span", { className: "io-label", text: "arguments (editable: change them, then approve)" }), area]);
  }
  // The edited arguments of call p: undefined when unchanged; null (after saying why) when not valid JSON.
  function editedArgs(p) {
    var text = state.edits[p.seq];
    if (text === undefined || text === JSON.stringify(p.args, null, 2)) return undefined;
    try { return { args: JSON.parse(text) }; } catch (error) {
      say("The arguments of " + callName(p) + " are not valid JSON: " + error.message + ". Nothing was sent.", true);
      return null;
    }
  }
  function stopButton(reason, label, disabled) {
    return el("button", { className: "reject", type: "button", disabled: disabled, "data-key": "reject",
      title: "The execution ends rejected: nothing more runs; calls that already ran stay done (Rollback undoes them).",
      onclick: function () { act("reject", reason.value ? { reason: reason.value } : {}, label); } }, [label]);
  }

  // Several calls wait together: each can be approved or rejected inside the program (decided in one request).
  function decisionsForm(pending, disabled) {
    var chosen = state.chosen;
    var submit = el("button", { className: "approve", type: "button", disabled: disabled || Object.keys(chosen).length === 0,
      "data-key": "submit-decisions" }, ["Submit decisions"]);
    var rows = pending.map(function (p) {
      var name = "decide-" + p.seq;
      return el("div", { className: "decision", "data-testid": "decision", "data-seq": p.seq }, [
        p.editable ? argsEditor(p, disabled) : el("code", { className: "mono", text: callName(p) + " " + JSON.stringify(p.args) }),
        ["approve", "reject"].map(function (choice) {
          var input = el("input", { type: "radio", name: name, value: choice, "data-key": name + ":" + choice, disabled: disabled,
            checked: chosen[p.seq] === (choice === "approve"),
            "aria-label": (choice === "approve" ? "Approve " : "Reject inside the program ") + callName(p) });
          input.addEventListener("change", function () {
            chosen[p.seq] = choice === "approve";
            submit.disabled = disabled;
          });
          return el("label", {}, [input, choice === "approve" ? " approve" : " reject (the program gets an error)"]);
        }),
      ].flat());
    });
    submit.addEventListener("click", function () {
      var decisions = [];
      var bySeq = {};
      pending.forEach(function (p) { bySeq[p.seq] = p; });
      for (var seq in chosen) {
        var decision = { seq: Number(seq), approved: chosen[seq] };
        if (chosen[seq] && bySeq[seq] && bySeq[seq].editable) {
          var edit = editedArgs(bySeq[seq]);
          if (edit === null) return;
          if (edit !== undefined) decision.args = edit.args;
        }
        decisions.push(decision);
      }
      act("decide", { decisions: decisions }, "Decide " + decisions.length + " call" + (decisions.length === 1 ? "" : "s"));
    });
    var all = el("button", { className: "approve", type: "button", disabled: disabled, "data-key": "approve-all",
      onclick: function () { act("approve", {}, "Approve all " + pending.length + " calls"); } }, ["Approve all " + pending.length]);
    return el("fieldset", { className: "decisions", "data-testid": "decisions" }, [
      el("legend", { text: pending.length + " calls wait together. Decide each (unanswered ones stay pending): a call rejected here fails inside the program, which may go on." }),
    ].concat(rows, [el("div", { className: "actions" }, [submit, all])]));
  }

  // Rollback only where it can undo something; otherwise say why not.
  function rollbackControl(detail, disabled) {
    if (["completed", "error", "rejected", "rolled_back"].indexOf(detail.status) < 0) return [];
    var applied = detail.calls.filter(function (c) { return c.status === "applied" && !isProgram(c); });
    if (state.readOnly) return applied.length ? [el("span", { className: "empty", text: "Read-only: start the inspector with the app's runtime to roll back." })] : [];
    var undoable = applied.filter(function (c) { return c.revertible; });
    if (undoable.length === 0) {
      if (detail.status === "rolled_back") return [];
      var why = applied.length === 0 ? "no call took effect."
        : "no applied call has a revert (" + applied.map(callName).join(", ") + ").";
      return [el("span", { className: "empty", "data-testid": "no-rollback", text: "Nothing to roll back: " + why })];
    }
    var label = "Rollback (undo " + undoable.length + " call" + (undoable.length === 1 ? "" : "s") + ")";
    return [el("button", { className: "rollback", type: "button", disabled: disabled, "data-key": "rollback", onclick: function () {
      if (confirm("Roll back execution " + detail.executionId + "? " + undoable.map(callName).join(", ") + " will be reverted, newest first.")) act("rollback", {}, "Rollback");
    } }, [label])];
  }

  function actionBar(detail) {
    var nodes = [];
    var disabled = state.readOnly;
    if (detail.status === "paused") {
      var reason = reasonInput();
      if (detail.pending.length === 1 && isProgram(detail.pending[0])) {
        nodes.push(el("button", { className: "approve", type: "button", disabled: disabled, "data-key": "approve:0",
          onclick: function () { act("approve", { seq: 0 }, "Approve the program"); } }, ["Approve and run the program"]));
        nodes.push(reason, stopButton(reason, "Reject the program", disabled));
      } else if (detail.pending.length === 1) {
        var p = detail.pending[0];
        if (p.editable) nodes.push(argsEditor(p, disabled));
        nodes.push(el("button", { className: "approve", type: "button", disabled: disabled, "data-key": "approve:" + p.seq,
          onclick: function () {
            var edit = p.editable ? editedArgs(p) : undefined;
            if (edit === null) return;
            if (edit === undefined) act("approve", { seq: p.seq }, "Approve " + callName(p));
            else act("approve", { seq: p.seq, args: edit.args }, "Approve " + callName(p) + " with changed arguments");
          } }, ["Approve " + callName(p)]));
        nodes.push(reason, stopButton(reason, "Reject and stop the program", disabled));
      } else {
        nodes.push(decisionsForm(detail.pending, disabled), reason, stopButton(reason, "Stop the program", disabled));
      }
    }
    nodes = nodes.concat(rollbackControl(detail, disabled));
    if (state.readOnly && detail.status === "paused") nodes.push(el("span", { className: "empty", text: "Read-only: start the inspector with the app's runtime to act." }));
    return el("div", { className: "actions", id: "actions" }, nodes);
  }

  function callsTable(timeline) {
    return el("table", { "aria-label": "Calls" }, [
      el("thead", {}, [el("tr", {}, ["#", "Call", "What happened", "Pass", "Start", "Duration"].map(function (t) {
        return el("th", { scope: "col", text: t });
      }))]),
      el("tbody", {}, timeline.calls.reduce(function (rows, c) {
        if (isProgram(c)) return rows; // the code is under Program, its approval in the timeline and decisions
        var happened = (c.state === "replayed" ? "executed" : c.state) +
          (c.replayedInPasses.length ? ", replayed in pass " + c.replayedInPasses.join(", ") : "") +
          (c.approvedAt !== undefined ? ", approved " + instant(c.approvedAt) : "") +
          (c.decidedBy !== undefined ? " by " + c.decidedBy : "") +
          (c.cost !== undefined ? ", cost " + c.cost : "") +
          ("approvedArgs" in c ? ", with changed arguments" : "");
        rows.push(el("tr", { "data-testid": "call-row", className: "call-head" }, [
          el("td", { className: "num", text: c.seq }),
          el("td", { className: "mono", text: c.connector + "." + c.method }),
          el("td", { className: "c-" + c.state, text: happened }),
          el("td", { className: "num", text: c.pass }),
          el("td", { className: "num", text: c.startedAt !== undefined ? "+" + duration(c.startedAt - timeline.startedAt) : "" }),
          el("td", { className: "num", text: c.durationMs !== undefined ? duration(c.durationMs) : "" }),
        ]));
        var outcome = c.error !== undefined ? el("pre", { className: "c-failed", text: c.error })
          : ("result" in c ? el("pre", { text: json(c.result) }) : el("span", { className: "empty", text: "no result recorded" }));
        rows.push(el("tr", { className: "call-body" }, [el("td", {}), el("td", { colspan: 5 }, [el("div", { className: "io" }, [
          el("div", {}, [el("div", { className: "io-label", text: "approvedArgs" in c ? "arguments (the program's)" : "arguments" }), el("pre", { text: json(c.args) })].concat(
            "approvedArgs" in c ? [el("div", { className: "io-label", text: "ran with (changed by the approver)" }), el("pre", { "data-testid": "approved-args", text: json(c.approvedArgs) })] : [])),
          el("div", {}, [el("div", { className: "io-label", text: c.error !== undefined ? "error" : "result" }), outcome]),
        ])])]));
        return rows;
      }, [])),
    ]);
  }

  function renderDetail(data) {
    var d = data.execution;
    var t = data.timeline;
    var calls = d.calls.filter(function (c) { return !isProgram(c); }).length;
    var nodes = [
      el("h2", { id: "detail-title" }, ["Execution ", el("span", { className: "mono", text: d.executionId }), " ", statusBadge(d.status)]),
      el("p", { className: "meta", text: "Started " + instant(d.createdAt) + " \\u00b7 " + d.passes + " pass" + (d.passes === 1 ? "" : "es") +
        " \\u00b7 " + calls + " call" + (calls === 1 ? "" : "s") + " \\u00b7 last update +" + duration(d.updatedAt - d.createdAt) }),
      actionBar(d),
      el("h3", { text: "Timeline" }), renderTimeline(t, d.status, data.now),
      el("h3", { text: "Calls" }), t.calls.some(function (c) { return !isProgram(c); }) ? callsTable(t) : el("p", { className: "empty", text: "No calls." }),
    ];
    if (t.decisions.length) {
      nodes.push(el("h3", { text: "Decisions" }), el("ul", {}, t.decisions.map(function (x) {
        var target = x.seq === undefined ? "" : x.seq === 0 && t.calls.some(isProgram) ? " the program" : " #" + x.seq;
        var by = x.decidedBy === undefined ? "" : " by " + x.decidedBy;
        return el("li", { "data-testid": "decision-line", text: x.decision + target + by + " at " + instant(x.at) + (x.reason ? " \\u2014 " + x.reason : "") });
      })));
    }
    var program = t.calls.filter(isProgram)[0];
    var programNote = program === undefined ? "" : program.state === "pending" ? " \\u2014 waiting for approval: nothing has run yet"
      : program.state === "rejected" ? " \\u2014 rejected before it ran" : " \\u2014 approved before it ran";
    nodes.push(el("h3", { text: "Program" + programNote }), el("ol", { className: "code", "data-testid": "program", "aria-label": "Program" },
      d.code.split("\\n").map(function (line) { return el("li", { text: line }); })));
    nodes.push(el("h3", { text: "Logs" }), d.logs.length ? el("pre", { "data-testid": "logs", text: d.logs.join("\\n") }) : el("p", { className: "empty", text: "No logs." }));
    if (d.error !== undefined) nodes.push(el("h3", { text: "Error (" + (d.kind || "error") + ")" }), el("pre", { className: "c-failed", text: d.error }));
    else if (d.status === "completed") nodes.push(el("h3", { text: "Result" }), el("pre", { "data-testid": "result", text: json(d.result) }));
    replace($("detail"), nodes);
  }

  function loadDetail() {
    if (state.selected === null) {
      state.detailKey = "";
      replace($("detail"), [el("p", { className: "empty", text: "Select an execution to see its timeline, program and logs." })]);
      return Promise.resolve();
    }
    return getJson("/executions/" + encodeURIComponent(state.selected)).then(function (data) {
      var key = JSON.stringify([data.execution, data.readOnly, data.execution.status === "paused" ? Math.floor(data.now / 5000) : 0]);
      if (key !== state.detailKey) { state.detailKey = key; renderDetail(data); }
    }).catch(function (error) {
      state.detailKey = "";
      replace($("detail"), [el("p", { className: "empty", text: error.message })]);
    });
  }

  function route() {
    var match = /^#\\/e\\/(.+)$/.exec(location.hash);
    state.selected = match ? decodeURIComponent(match[1]) : null;
    state.chosen = {};
    state.reason = "";
    state.edits = {};
    state.detailKey = "";
    state.listKey = "";
    return Promise.all([loadList(), loadDetail()]).then(function () {
      if (state.selected !== null) $("detail").focus({ preventScroll: true });
    });
  }

  $("status-filter").addEventListener("change", function () { state.listKey = ""; loadList(); });
  window.addEventListener("hashchange", route);
  route();
  setInterval(function () {
    if (document.hidden) return;
    loadList();
    if (state.selected !== null) loadDetail();
  }, refreshMs);
})();
`;
