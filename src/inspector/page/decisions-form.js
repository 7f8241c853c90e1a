// @ts-check
/**
 * Several calls wait together: each can be approved (with changes where editable) or rejected inside the program,
 * decided in one request (`decide`); a call rejected here fails inside the program, which may go on.
 */
import { act } from "./act.js";
import { editedArgs, argsEditor } from "./args-editor.js";
import { el } from "./dom.js";
import { callName } from "./format.js";

/** @import { PageCall, PageContext } from "./page-types.js" */

/**
 * Several calls wait together: each can be approved or rejected inside the program (decided in one request).
 *
 * @param {PageContext} ctx
 * @param {PageCall[]} pending
 * @param {boolean} disabled
 * @returns {HTMLElement}
 */
export function decisionsForm(ctx, pending, disabled) {
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
