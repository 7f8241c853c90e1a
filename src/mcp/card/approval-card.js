// @ts-check
/**
 * The approval card's browser script (inline in `ui://ai-codemode/approval`, allowed by its hash in the card's CSP):
 * an MCP Apps view. It speaks the MCP Apps protocol (JSON-RPC over `postMessage` with the host: `ui/initialize`,
 * `ui/notifications/initialized`, then the host's `ui/notifications/tool-result`), shows the paused calls the
 * result's `_meta["ai-codemode/approval"]` names with every argument (long values folded, never cut), and decides
 * them by asking the host to call the server's app-only tool `codemode_approval_card` (`tools/call`) with the
 * result's signed approval token. It fetches nothing itself. Every element is built with DOM calls, never from HTML
 * strings: arguments are untrusted. Bundled to text by `scripts/approval-card-sources.ts`.
 */

/**
 * @typedef {{ seq: number, connector: string, method: string, args: unknown, editable?: boolean,
 *   request?: { method: string, url: string } }} CardCall
 * @typedef {{ token: string, executionId: string, expiresAt: number, calls: CardCall[], code?: string }} CardPayload
 * @typedef {{ content?: Array<{ type: string, text?: string }>, isError?: boolean,
 *   structuredContent?: Record<string, unknown>, _meta?: Record<string, unknown> }} ToolResult
 */

/** The `_meta` key of a paused `codemode` result that carries the card's payload. */
const PAYLOAD_KEY = "ai-codemode/approval";
/** The app-only tool that decides. */
const DECIDE_TOOL = "codemode_approval_card";
/** Strings longer than this are folded (a summary with the start and the length; the whole value one click away). */
const FOLD_CHARS = 160;
/** The MCP Apps protocol revision the card speaks. */
const PROTOCOL_VERSION = "2026-01-26";

/**
 * A new element: `text` becomes its text, `className` its class; other props are attributes.
 *
 * @param {string} tag
 * @param {Record<string, string | boolean | undefined>} [props]
 * @param {Array<Node | string | null | undefined>} [children]
 * @returns {any}
 */
function el(tag, props, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "className") node.className = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/**
 * A value shown whole: objects and arrays as nested lists, strings longer than `FOLD_CHARS` folded in a
 * `<details>` whose summary says how long they are.
 *
 * @param {unknown} value
 * @returns {Node}
 */
function valueNode(value) {
  if (typeof value === "string") {
    const quoted = JSON.stringify(value);
    if (quoted.length <= FOLD_CHARS) return el("code", { className: "str", text: quoted });
    return el("details", { className: "fold" }, [
      el("summary", { text: `${quoted.slice(0, FOLD_CHARS)}… (${value.length} characters, show all)` }),
      el("pre", { text: quoted }),
    ]);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return el("code", { text: "[]" });
    return el(
      "ol",
      { className: "tree", start: "0" },
      value.map((item) => el("li", {}, [valueNode(item)])),
    );
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return el("code", { text: "{}" });
    return el(
      "dl",
      { className: "tree" },
      entries.flatMap(([key, item]) => [el("dt", { text: key }), el("dd", {}, [valueNode(item)])]),
    );
  }
  return el("code", { text: value === undefined ? "undefined" : JSON.stringify(value) });
}

/** Starts the card: connects to the host and waits for the tool result. */
export function startApprovalCard() {
  const root = /** @type {HTMLElement} */ (document.getElementById("card"));
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
  const waiting = new Map();
  let nextId = 1;
  /** @type {CardPayload | undefined} */
  let shown;
  let decided = false;

  /** @param {Record<string, unknown>} message */
  function post(message) {
    window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  /**
   * @param {string} method
   * @param {unknown} params
   * @returns {Promise<any>}
   */
  function request(method, params) {
    const id = nextId++;
    post({ id, method, params });
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
  }

  /**
   * @param {string} title
   * @param {string} message
   * @param {"ok" | "bad" | "info"} tone
   */
  function notice(title, message, tone) {
    root.replaceChildren(
      el("h1", { text: title }),
      el("p", { className: `notice ${tone}`, role: "status", text: message }),
    );
  }

  /** @param {ToolResult} result */
  function textOf(result) {
    return (result.content || [])
      .map((block) => (block.type === "text" ? block.text || "" : ""))
      .join("\n")
      .trim();
  }

  /** @param {ToolResult} result */
  function show(result) {
    const payload = /** @type {CardPayload | undefined} */ (result._meta?.[PAYLOAD_KEY]);
    if (payload === undefined || !Array.isArray(payload.calls) || typeof payload.token !== "string") {
      const status = result.structuredContent?.["status"];
      notice(
        "Nothing to approve",
        typeof status === "string"
          ? `The program is ${status}: no call waits for a decision here.`
          : "This result has no paused call.",
        "info",
      );
      return;
    }
    shown = payload;
    decided = false;
    const count = payload.calls.length === 1 ? "a call" : `${payload.calls.length} calls`;
    const form = el("form", { "aria-label": "Decide the paused calls" });
    for (const call of payload.calls) form.append(callFieldset(call));
    const reason = el("input", { type: "text", id: "reason", name: "reason", maxlength: "500" });
    // A plain button, not a submit: a host's sandbox without `allow-forms` blocks form submission (and its event).
    const button = el("button", { type: "button", text: "Decide" });
    const problem = el("p", { className: "problem", role: "alert" });
    form.append(
      el("p", {}, [el("label", { for: "reason", text: "Reason (told to the program with a rejection)" }), reason]),
      problem,
      el("p", {}, [button]),
    );
    button.addEventListener("click", () => void decide(form, button, problem));
    form.addEventListener("submit", (/** @type {Event} */ event) => {
      event.preventDefault();
      void decide(form, button, problem);
    });
    const until = new Date(payload.expiresAt).toLocaleTimeString();
    root.replaceChildren(
      el("h1", { text: "A program waits for your approval" }),
      el("p", { className: "lead" }, [
        "Execution ",
        el("code", { text: payload.executionId }),
        ` paused before ${count}. Nothing runs until you decide (this card works once, until ${until}).`,
      ]),
      form,
      ...(typeof payload.code === "string"
        ? [
            el("details", { className: "program" }, [
              el("summary", { text: "The whole program" }),
              el("pre", { text: payload.code }),
            ]),
          ]
        : []),
    );
  }

  /** @param {CardCall} call */
  function callFieldset(call) {
    const name = `choice-${call.seq}`;
    const radio = (/** @type {string} */ value, /** @type {string} */ label) =>
      el("label", {}, [el("input", { type: "radio", name, value, required: value === "approve" }), ` ${label}`]);
    const edit = call.editable
      ? [
          radio("edit", "Approve with these arguments:"),
          el("textarea", {
            name: `args-${call.seq}`,
            "aria-label": `Arguments for call #${call.seq} (JSON)`,
            text: JSON.stringify(call.args, null, 2),
          }),
        ]
      : [];
    return el("fieldset", {}, [
      el("legend", { text: `#${call.seq} ${call.connector}.${call.method}` }),
      call.request === undefined
        ? null
        : el("p", {}, ["Request: ", el("code", { text: `${call.request.method} ${call.request.url}` })]),
      el("div", { className: "args", role: "group", "aria-label": `Arguments of call #${call.seq}` }, [
        valueNode(call.args),
      ]),
      el("div", { className: "choices" }, [radio("approve", "Approve"), radio("reject", "Reject"), ...edit]),
    ]);
  }

  /**
   * @param {HTMLFormElement} form
   * @param {HTMLButtonElement} button
   * @param {HTMLElement} problem
   */
  async function decide(form, button, problem) {
    if (shown === undefined || decided || button.disabled) return;
    const data = new FormData(form);
    /** @type {Array<Record<string, unknown>>} */
    const decisions = [];
    for (const call of shown.calls) {
      const choice = data.get(`choice-${call.seq}`);
      if (choice === null) {
        problem.textContent = `Choose approve${call.editable ? ", edit" : ""} or reject for call #${call.seq}.`;
        return;
      }
      if (choice === "edit") {
        try {
          decisions.push({ seq: call.seq, choice, args: JSON.parse(String(data.get(`args-${call.seq}`) || "")) });
        } catch {
          problem.textContent = `The arguments given for call #${call.seq} are not JSON.`;
          return;
        }
      } else decisions.push({ seq: call.seq, choice: String(choice) });
    }
    problem.textContent = "";
    const reason = String(data.get("reason") || "").trim();
    button.disabled = true;
    button.textContent = "Deciding…";
    try {
      /** @type {ToolResult} */
      const result = await request("tools/call", {
        name: DECIDE_TOOL,
        arguments: { token: shown.token, decisions, ...(reason === "" ? {} : { reason }) },
      });
      decided = result.isError !== true;
      notice(decided ? "Decided" : "Nothing was changed", textOf(result), decided ? "ok" : "bad");
    } catch (error) {
      notice("Nothing was changed", `The host could not deliver the decision: ${String(error)}`, "bad");
    }
  }

  /** @param {Record<string, unknown> | undefined} context */
  function applyContext(context) {
    const theme = context?.["theme"];
    if (theme === "dark" || theme === "light") document.documentElement.setAttribute("data-theme", theme);
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (typeof message !== "object" || message === null || message.jsonrpc !== "2.0") return;
    if (message.method === undefined && waiting.has(message.id)) {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(String(message.error.message)));
      else pending?.resolve(message.result);
      return;
    }
    if (message.method === "ui/notifications/tool-result") show(message.params || {});
    else if (message.method === "ui/notifications/host-context-changed") applyContext(message.params);
    else if (message.method === "ui/notifications/tool-cancelled" && shown === undefined)
      notice("Cancelled", "The tool call was cancelled: nothing waits for a decision here.", "info");
    else if (message.id !== undefined && message.method !== undefined)
      // `ping`, `ui/resource-teardown`: answered empty; anything else the card does not do.
      post(
        message.method === "ping" || message.method === "ui/resource-teardown"
          ? { id: message.id, result: {} }
          : { id: message.id, error: { code: -32601, message: `The approval card does not handle ${message.method}` } },
      );
  });

  // The body's own size (the root's is at least the iframe's, so it would never shrink).
  new ResizeObserver(() => {
    const { width, height } = document.body.getBoundingClientRect();
    post({ method: "ui/notifications/size-changed", params: { width: Math.ceil(width), height: Math.ceil(height) } });
  }).observe(document.body);

  request("ui/initialize", {
    appInfo: { name: "ai-codemode approval card", version: "1" },
    appCapabilities: {},
    protocolVersion: PROTOCOL_VERSION,
  }).then(
    (/** @type {{ hostContext?: Record<string, unknown> }} */ result) => {
      applyContext(result.hostContext);
      post({ method: "ui/notifications/initialized", params: {} });
    },
    (/** @type {Error} */ error) => notice("The card could not start", String(error.message), "bad"),
  );
}
