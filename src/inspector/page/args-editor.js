// @ts-check
/**
 * Approve with changes: a pending call of an `editable` method shows its arguments as JSON in a text box; what the
 * person leaves there is sent as `args` (the runtime validates it; a bad edit is refused and nothing runs).
 */
import { el, say } from "./dom.js";
import { callName } from "./format.js";

/** @import { PageCall, PageContext } from "./page-types.js" */

/**
 * The arguments of a pending call of an editable method, as JSON the person may change before approving.
 *
 * @param {PageContext} ctx
 * @param {PageCall} p
 * @param {boolean} disabled
 * @returns {HTMLElement}
 */
export function argsEditor(ctx, p, disabled) {
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
export function editedArgs(ctx, p) {
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
