// @ts-check
/**
 * The page's DOM helpers. Every element is built with `textContent` and DOM calls, never from HTML strings: program
 * text, arguments and results are untrusted.
 */

/**
 * @typedef {Record<string, unknown> & { text?: unknown, className?: string, onclick?: (event: Event) => void }} Props
 */

/**
 * The element `id` (the page's HTML has it).
 *
 * @param {string} id
 * @returns {any}
 */
export function $(id) {
  return document.getElementById(id);
}

/**
 * A new element: `text` becomes its text, `className` its class, `onclick` a click listener; other props are
 * attributes (`true` → present, `false`/`null`/`undefined` → absent).
 *
 * @param {string} tag
 * @param {Props} [props]
 * @param {Array<Node | string | null | undefined>} [children]
 * @returns {any}
 */
export function el(tag, props, children) {
  const node = document.createElement(tag);
  const given = props || {};
  for (const key of Object.keys(given)) {
    const value = given[key];
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "className") node.className = /** @type {string} */ (value);
    else if (key === "onclick") node.addEventListener("click", /** @type {EventListener} */ (value));
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/**
 * The `data-key` of the focused element, so a re-render can focus its successor.
 *
 * @returns {string | null}
 */
function focusKey() {
  const active = document.activeElement;
  return active ? active.getAttribute("data-key") : null;
}

/**
 * @param {string | null} key
 */
function restoreFocus(key) {
  if (!key) return;
  const target = /** @type {HTMLElement | null} */ (document.querySelector('[data-key="' + CSS.escape(key) + '"]'));
  if (target) target.focus();
}

/**
 * Replaces `container`'s children, keeping the focus on the element with the same `data-key`.
 *
 * @param {Element} container
 * @param {Node[]} nodes
 */
export function replace(container, nodes) {
  const key = container.contains(document.activeElement) ? focusKey() : null;
  container.replaceChildren(...nodes);
  restoreFocus(key);
}

/**
 * Writes the status line (`bad`: as an error).
 *
 * @param {string} text
 * @param {boolean} [bad]
 */
export function say(text, bad) {
  const line = $("status-line");
  line.textContent = text;
  line.className = bad ? "bad" : "";
}

/**
 * @param {string} status
 * @param {string} [extra]
 * @returns {HTMLElement}
 */
export function statusBadge(status, extra) {
  return el("span", { className: "badge s-" + status, text: status + (extra || "") });
}
