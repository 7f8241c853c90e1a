// @ts-check
/**
 * The Workflow SDK run an execution belongs to (`ai-codemode/workflow`): its id as text, or a link to where the app
 * observes it when the inspector's `workflowRunUrl` option gave an address. The server keeps only `http:`/`https:`
 * addresses; the page checks again before it makes a link, so no other scheme can ever be one.
 */
import { el } from "./dom.js";

/**
 * `url` when it is an absolute `http:` or `https:` URL, else `undefined`.
 *
 * @param {unknown} url
 * @returns {string | undefined}
 */
export function linkAddress(url) {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The "Workflow run …" line of an execution: the id a link to `url` (a new tab, no opener, no referrer) when `url` is
 * an `http:`/`https:` address, plain text otherwise.
 *
 * @param {string} workflowRunId
 * @param {unknown} url
 * @returns {HTMLElement}
 */
export function workflowRunLine(workflowRunId, url) {
  const href = linkAddress(url);
  const id =
    href === undefined
      ? el("span", { className: "mono", text: workflowRunId })
      : el("a", {
          className: "mono",
          href,
          target: "_blank",
          rel: "noopener noreferrer",
          "data-testid": "workflow-run-link",
          text: workflowRunId,
        });
  return el("p", { className: "meta", "data-testid": "workflow-run" }, ["Workflow run ", id]);
}
