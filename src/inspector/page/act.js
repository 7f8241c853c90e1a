// @ts-check
/**
 * Sends what a person decided about the selected execution to the API, says how it went on the status line, then
 * reloads the list and the detail.
 */
import { say } from "./dom.js";

/** @import { PageContext } from "./page-types.js" */

/**
 * Posts `action` for the selected execution, says how it went, then reloads the list and the detail.
 *
 * @param {PageContext} ctx
 * @param {string} action
 * @param {unknown} body
 * @param {string} label
 * @returns {Promise<unknown>}
 */
export function act(ctx, action, body, label) {
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
