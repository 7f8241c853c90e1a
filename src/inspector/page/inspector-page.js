// @ts-check
/**
 * The web inspector's browser script (inline in the page, allowed by its hash in the page's CSP): the list of
 * executions, the selected one's detail, refreshed every `data-refresh-ms`. Everything comes from `./api`; every
 * element is built with DOM calls (`dom.js`), never from HTML strings. Bundled to text by
 * `scripts/inspector-page-sources.ts`; the time axis is handed in as the source of `timeline-scale.ts`.
 */
import { detailNodes } from "./detail-view.js";
import { $, el, replace, say, statusBadge } from "./dom.js";
import { duration, instant } from "./format.js";

/** @import { PageContext, PageDetail, PageList, PageState, TimelineScale } from "./page-types.js" */

/**
 * Starts the page.
 *
 * @param {TimelineScale} timelineScale
 */
export function startInspectorPage(timelineScale) {
  const body = document.body;
  const refreshMs = Number(body.getAttribute("data-refresh-ms")) || 2000;
  const base = location.pathname.replace(/\/+$/, "");
  /** @type {PageState} */
  const state = { selected: null, readOnly: false, listKey: "", detailKey: "", chosen: {}, reason: "", edits: {} };

  /**
   * @template T
   * @param {string} path
   * @param {RequestInit} [init]
   * @returns {Promise<T>}
   */
  function getJson(path, init) {
    return fetch(base + "/api" + path, init).then((response) =>
      response.json().then((data) => {
        if (!response.ok) throw new Error(data?.error ? data.error : "HTTP " + response.status);
        return data;
      }),
    );
  }

  /** @param {PageList} data */
  function renderList(data) {
    $("runtime-name").textContent = "runtime \u201c" + data.runtime + "\u201d";
    const rows = data.executions.map((row) => {
      const current = row.executionId === state.selected;
      const shortId = row.executionId.length > 12 ? row.executionId.slice(0, 8) + "\u2026" : row.executionId;
      const link = el("a", {
        href: "#/e/" + encodeURIComponent(row.executionId),
        text: shortId,
        title: row.executionId,
        "aria-label": "Execution " + row.executionId,
        "data-key": "row:" + row.executionId,
        "aria-current": current ? "true" : null,
      });
      return el(
        "tr",
        { "aria-current": current ? "true" : null, "data-testid": "execution-row", "data-status": row.status },
        [
          el("td", { className: "what" }, [
            el("span", { className: "mono" }, [link]),
            el("div", { className: "summary", "data-testid": "summary", text: row.summary, title: row.summary }),
          ]),
          el("td", {}, [statusBadge(row.status, row.status === "paused" ? " (" + row.pending + ")" : "")]),
          el("td", { className: "num", text: row.calls }),
          el("td", {
            text: instant(row.startedAt).slice(11, -1),
            title: instant(row.startedAt) + " (" + new Date(row.startedAt).toString() + ")",
          }),
          el("td", { className: "num", text: duration(row.durationMs) }),
        ],
      );
    });
    const table =
      rows.length === 0
        ? el("p", { className: "empty", text: "No executions yet." })
        : el("table", { "aria-label": "Executions" }, [
            el("thead", {}, [
              el(
                "tr",
                {},
                ["Execution: what it did", "Status", "Calls", "Started (UTC)", "Duration"].map((title) =>
                  el("th", { scope: "col", text: title }),
                ),
              ),
            ]),
            el("tbody", {}, rows),
          ]);
    replace($("list"), [table]);
  }

  /** @returns {Promise<void>} */
  function loadList() {
    const status = $("status-filter").value;
    return getJson("/executions?limit=100" + (status ? "&status=" + encodeURIComponent(status) : ""))
      .then((answer) => {
        const data = /** @type {PageList} */ (answer);
        state.readOnly = data.readOnly;
        const key = JSON.stringify([data.executions, state.selected]);
        if (key !== state.listKey) {
          state.listKey = key;
          renderList(data);
        }
      })
      .catch((error) => say("Could not load the executions: " + error.message, true));
  }

  /** @returns {Promise<void>} */
  function loadDetail() {
    if (state.selected === null) {
      state.detailKey = "";
      replace($("detail"), [
        el("p", { className: "empty", text: "Select an execution to see its timeline, program and logs." }),
      ]);
      return Promise.resolve();
    }
    return getJson("/executions/" + encodeURIComponent(state.selected))
      .then((answer) => {
        const data = /** @type {PageDetail} */ (answer);
        const paused = data.execution.status === "paused";
        const key = JSON.stringify([data.execution, data.readOnly, paused ? Math.floor(data.now / 5000) : 0]);
        if (key !== state.detailKey) {
          state.detailKey = key;
          replace($("detail"), detailNodes(ctx, timelineScale, data));
        }
      })
      .catch((error) => {
        state.detailKey = "";
        replace($("detail"), [el("p", { className: "empty", text: error.message })]);
      });
  }

  /** @type {PageContext} */
  const ctx = { state, getJson, loadList, loadDetail };

  function route() {
    const match = /^#\/e\/(.+)$/.exec(location.hash);
    state.selected = match ? decodeURIComponent(/** @type {string} */ (match[1])) : null;
    state.chosen = {};
    state.reason = "";
    state.edits = {};
    state.detailKey = "";
    state.listKey = "";
    return Promise.all([loadList(), loadDetail()]).then(() => {
      if (state.selected !== null) $("detail").focus({ preventScroll: true });
    });
  }

  $("status-filter").addEventListener("change", () => {
    state.listKey = "";
    loadList();
  });
  window.addEventListener("hashchange", route);
  route();
  setInterval(() => {
    if (document.hidden) return;
    loadList();
    if (state.selected !== null) loadDetail();
  }, refreshMs);
}
