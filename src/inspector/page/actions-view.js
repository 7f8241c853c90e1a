// @ts-check
/**
 * What a person can do to the selected execution: approve (with changes where the method is `editable`), reject,
 * decide several calls that wait together, roll back.
 *
 * Rejecting means the same here as in the chat (docs/decisions/reject-stops-the-program.md): "Reject and stop the
 * program" ends the run; when several calls wait together, each can be rejected inside the program instead
 * (`decide`), which may go on. Approve with changes: a pending call of an `editable` method shows its arguments as
 * JSON in a text box; what the person leaves there is sent as `args` (the runtime validates it; a bad edit is
 * refused and nothing runs).
 */
import { el, say } from "./dom.js";
import { callName, isProgram } from "./format.js";

/** @import { PageCall, PageContext, PageExecution } from "./page-types.js" */

/**
 * Posts `action` for the selected execution, says how it went, then reloads the list and the detail.
 *
 * @param {PageContext} ctx
 * @param {string} action
 * @param {unknown} body
 * @param {string} label
 * @returns {Promise<unknown>}
 */
function act(ctx, action, body, label) {
  const { state } = ctx;
  const id = /** @type {string} */ (state.selected);
  say(label + "\u2026");
  document.querySelectorAll("#actions button, #actions input").forEach((b) => {
    /** @type {HTMLButtonElement | HTMLInputElement} */ (b).disabled = true;
  });
  return ctx
    .getJson("/executions/" + encodeURIComponent(id) + "/" + action, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    .then((data) => {
      const out = /** @type {{ output: { status: string, error?: string } }} */ (data).output;
      state.chosen = {};
      state.reason = "";
      if (out.status !== "error") state.edits = {};
      say(label + ": " + out.status + (out.error ? " \u2014 " + out.error : ""), out.status === "error");
    })
    .catch((error) => say(label + " failed: " + error.message, true))
    .then(() => {
      state.detailKey = "";
      return Promise.all([ctx.loadDetail(), ctx.loadList()]);
    });
}

/**
 * @param {PageContext} ctx
 * @returns {HTMLInputElement}
 */
function reasonInput(ctx) {
  const input = el("input", {
    type: "text",
    id: "reject-reason",
    "aria-label": "Reason for rejecting (optional)",
    placeholder: "Reason (optional)",
    "data-key": "reason",
  });
  input.value = ctx.state.reason;
  input.addEventListener("input", () => {
    ctx.state.reason = input.value;
  });
  return input;
}

/**
 * The arguments of a pending call of an editable method, as JSON the person may change before approving.
 *
 * @param {PageContext} ctx
 * @param {PageCall} p
 * @param {boolean} disabled
 * @returns {HTMLElement}
 */
function argsEditor(ctx, p, disabled) {
  const original = JSON.stringify(p.args, null, 2);
  const area = el("textarea", {
    className: "mono args-edit",
    rows: Math.min(12, original.split("\n").length + 1),
    "aria-label": "Arguments of " + callName(p) + " (JSON; edit before approving)",
    "data-key": "args:" + p.seq,
    "data-testid": "args-edit",
    disabled,
    spellcheck: false,
  });
  const edit = ctx.state.edits[p.seq];
  area.value = edit !== undefined ? edit : original;
  area.addEventListener("input", () => {
    ctx.state.edits[p.seq] = area.value;
  });
  return el("label", { className: "args-label" }, [
    el("span", { className: "io-label", text: "arguments (editable: change them, then approve)" }),
    area,
  ]);
}

/**
 * The edited arguments of call `p`: undefined when unchanged; null (after saying why) when not valid JSON.
 *
 * @param {PageContext} ctx
 * @param {PageCall} p
 * @returns {{ args: unknown } | null | undefined}
 */
function editedArgs(ctx, p) {
  const text = ctx.state.edits[p.seq];
  if (text === undefined || text === JSON.stringify(p.args, null, 2)) return undefined;
  try {
    return { args: JSON.parse(text) };
  } catch (error) {
    const message = /** @type {Error} */ (error).message;
    say("The arguments of " + callName(p) + " are not valid JSON: " + message + ". Nothing was sent.", true);
    return null;
  }
}

/**
 * @param {PageContext} ctx
 * @param {HTMLInputElement} reason
 * @param {string} label
 * @param {boolean} disabled
 * @returns {HTMLElement}
 */
function stopButton(ctx, reason, label, disabled) {
  return el(
    "button",
    {
      className: "reject",
      type: "button",
      disabled,
      "data-key": "reject",
      title: "The execution ends rejected: nothing more runs; calls that already ran stay done (Rollback undoes them).",
      onclick: () => act(ctx, "reject", reason.value ? { reason: reason.value } : {}, label),
    },
    [label],
  );
}

/**
 * Several calls wait together: each can be approved or rejected inside the program (decided in one request).
 *
 * @param {PageContext} ctx
 * @param {PageCall[]} pending
 * @param {boolean} disabled
 * @returns {HTMLElement}
 */
function decisionsForm(ctx, pending, disabled) {
  const chosen = ctx.state.chosen;
  const submit = el(
    "button",
    {
      className: "approve",
      type: "button",
      disabled: disabled || Object.keys(chosen).length === 0,
      "data-key": "submit-decisions",
    },
    ["Submit decisions"],
  );
  const rows = pending.map((p) => {
    const name = "decide-" + p.seq;
    return el(
      "div",
      { className: "decision", "data-testid": "decision", "data-seq": p.seq },
      [
        p.editable
          ? argsEditor(ctx, p, disabled)
          : el("code", { className: "mono", text: callName(p) + " " + JSON.stringify(p.args) }),
        ["approve", "reject"].map((choice) => {
          const input = el("input", {
            type: "radio",
            name,
            value: choice,
            "data-key": name + ":" + choice,
            disabled,
            checked: chosen[p.seq] === (choice === "approve"),
            "aria-label": (choice === "approve" ? "Approve " : "Reject inside the program ") + callName(p),
          });
          input.addEventListener("change", () => {
            chosen[p.seq] = choice === "approve";
            submit.disabled = disabled;
          });
          return el("label", {}, [input, choice === "approve" ? " approve" : " reject (the program gets an error)"]);
        }),
      ].flat(),
    );
  });
  submit.addEventListener("click", () => {
    /** @type {Array<{ seq: number, approved: boolean, args?: unknown }>} */
    const decisions = [];
    /** @type {Record<string, PageCall>} */
    const bySeq = {};
    for (const p of pending) bySeq[p.seq] = p;
    for (const seq of Object.keys(chosen)) {
      /** @type {{ seq: number, approved: boolean, args?: unknown }} */
      const decision = { seq: Number(seq), approved: /** @type {boolean} */ (chosen[seq]) };
      const call = bySeq[seq];
      if (chosen[seq] && call?.editable) {
        const edit = editedArgs(ctx, call);
        if (edit === null) return;
        if (edit !== undefined) decision.args = edit.args;
      }
      decisions.push(decision);
    }
    act(ctx, "decide", { decisions }, "Decide " + decisions.length + " call" + (decisions.length === 1 ? "" : "s"));
  });
  const all = el(
    "button",
    {
      className: "approve",
      type: "button",
      disabled,
      "data-key": "approve-all",
      onclick: () => act(ctx, "approve", {}, "Approve all " + pending.length + " calls"),
    },
    ["Approve all " + pending.length],
  );
  return el(
    "fieldset",
    { className: "decisions", "data-testid": "decisions" },
    [
      el("legend", {
        text:
          pending.length +
          " calls wait together. Decide each (unanswered ones stay pending): a call rejected here fails inside the program, which may go on.",
      }),
    ].concat(rows, [el("div", { className: "actions" }, [submit, all])]),
  );
}

/**
 * Rollback only where it can undo something; otherwise say why not.
 *
 * @param {PageContext} ctx
 * @param {PageExecution} detail
 * @param {boolean} disabled
 * @returns {HTMLElement[]}
 */
function rollbackControl(ctx, detail, disabled) {
  if (["completed", "error", "rejected", "rolled_back"].indexOf(detail.status) < 0) return [];
  const applied = detail.calls.filter((c) => c.status === "applied" && !isProgram(c));
  if (ctx.state.readOnly) {
    return applied.length
      ? [
          el("span", {
            className: "empty",
            text: "Read-only: start the inspector with the app's runtime to roll back.",
          }),
        ]
      : [];
  }
  const undoable = applied.filter((c) => c.revertible);
  if (undoable.length === 0) {
    if (detail.status === "rolled_back") return [];
    const why =
      applied.length === 0
        ? "no call took effect."
        : "no applied call has a revert (" + applied.map(callName).join(", ") + ").";
    return [el("span", { className: "empty", "data-testid": "no-rollback", text: "Nothing to roll back: " + why })];
  }
  const label = "Rollback (undo " + undoable.length + " call" + (undoable.length === 1 ? "" : "s") + ")";
  return [
    el(
      "button",
      {
        className: "rollback",
        type: "button",
        disabled,
        "data-key": "rollback",
        onclick: () => {
          const names = undoable.map(callName).join(", ");
          if (
            confirm("Roll back execution " + detail.executionId + "? " + names + " will be reverted, newest first.")
          ) {
            act(ctx, "rollback", {}, "Rollback");
          }
        },
      },
      [label],
    ),
  ];
}

/**
 * The buttons (and text boxes) for the selected execution.
 *
 * @param {PageContext} ctx
 * @param {PageExecution} detail
 * @returns {HTMLElement}
 */
export function actionBar(ctx, detail) {
  /** @type {HTMLElement[]} */
  let nodes = [];
  const disabled = ctx.state.readOnly;
  const first = detail.pending[0];
  if (detail.status === "paused" && first !== undefined) {
    const reason = reasonInput(ctx);
    if (detail.pending.length === 1 && isProgram(first)) {
      nodes.push(
        el(
          "button",
          {
            className: "approve",
            type: "button",
            disabled,
            "data-key": "approve:0",
            onclick: () => act(ctx, "approve", { seq: 0 }, "Approve the program"),
          },
          ["Approve and run the program"],
        ),
      );
      nodes.push(reason, stopButton(ctx, reason, "Reject the program", disabled));
    } else if (detail.pending.length === 1) {
      const p = first;
      if (p.editable) nodes.push(argsEditor(ctx, p, disabled));
      nodes.push(
        el(
          "button",
          {
            className: "approve",
            type: "button",
            disabled,
            "data-key": "approve:" + p.seq,
            onclick: () => {
              const edit = p.editable ? editedArgs(ctx, p) : undefined;
              if (edit === null) return;
              if (edit === undefined) act(ctx, "approve", { seq: p.seq }, "Approve " + callName(p));
              else
                act(
                  ctx,
                  "approve",
                  { seq: p.seq, args: edit.args },
                  "Approve " + callName(p) + " with changed arguments",
                );
            },
          },
          ["Approve " + callName(p)],
        ),
      );
      nodes.push(reason, stopButton(ctx, reason, "Reject and stop the program", disabled));
    } else {
      nodes.push(
        decisionsForm(ctx, detail.pending, disabled),
        reason,
        stopButton(ctx, reason, "Stop the program", disabled),
      );
    }
  }
  nodes = nodes.concat(rollbackControl(ctx, detail, disabled));
  if (ctx.state.readOnly && detail.status === "paused") {
    nodes.push(
      el("span", { className: "empty", text: "Read-only: start the inspector with the app's runtime to act." }),
    );
  }
  return el("div", { className: "actions", id: "actions" }, nodes);
}
