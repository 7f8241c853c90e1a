/**
 * Where the inspector links an execution's workflow run (`workflowRunId`, recorded by `ai-codemode/workflow`): the
 * address the app's `workflowRunUrl` option gives, kept only when it is an absolute `http:` or `https:` URL, so a
 * `javascript:` or `data:` address (or a mistyped one) shows the run id as text instead of becoming a link.
 */
/** The inspector's `workflowRunUrl` option: the address of one workflow run, or `undefined` for none. */
export type WorkflowRunUrl = (workflowRunId: string) => string | undefined;

/** Schemes a link may have: anything else (`javascript:`, `data:`, `file:`) would run or read in the page's name. */
const LINK_PROTOCOLS = new Set(["http:", "https:"]);

/**
 * The normalized address `workflowRunUrl` gives for `workflowRunId`, or `undefined` when there is no option, no run
 * id, or the answer is not an absolute `http:`/`https:` URL. An option that throws gives no link too: the link is a
 * convenience, never a reason to fail the execution's view.
 */
export function workflowRunLink(
  workflowRunUrl: WorkflowRunUrl | undefined,
  workflowRunId: string | undefined,
): string | undefined {
  if (workflowRunUrl === undefined || workflowRunId === undefined) return undefined;
  let address: unknown;
  try {
    address = workflowRunUrl(workflowRunId);
  } catch {
    return undefined;
  }
  if (typeof address !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}
