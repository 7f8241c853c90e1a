// @ts-check
/**
 * What a person can do to the selected execution: approve (with changes where the method is `editable`), reject,
 * decide several calls that wait together, roll back.
 *
 * Rejecting means the same here as in the chat (docs/decisions/reject-stops-the-program.md): "Reject and stop the
 * program" ends the run; when several calls wait together, each can be rejected inside the program instead
 * (`decide`, `decisions-form.js`), which may go on. Approve with changes: `args-editor.js`.
 */
import { act } from "./act.js";
import { argsEditor, editedArgs } from "./args-editor.js";
import { decisionsForm } from "./decisions-form.js";
import { el } from "./dom.js";
import { callName, isProgram } from "./format.js";

/** @import { PageContext, PageExecution } from "./page-types.js" */

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
