/**
 * What each upstream server is to the sandbox, by the state of its start: its tools with the config's
 * policy over their annotations (started), or a namespace without methods whose description says why
 * (still starting, did not start, or started with a config that names a tool it does not have). A
 * program that calls a method of one without methods is told that description.
 */
import type { ToolSet } from "ai";
import type { Connector } from "../../connectors/types.js";
import { closestName } from "../../shared/closest-name.js";
import type { UpstreamPolicy } from "./proxy-config.js";
import type { UpstreamCatalog, UpstreamServer } from "./upstream-server.js";

/** A reason is cut to this many characters in a description (the model reads it in the catalog). */
const MAX_REASON_CHARS = 1_500;

/** The namespace of a server that cannot be used: no methods, and a description the model reads. */
function unavailableConnector(name: string, problem: { start: string } | { config: string }): Connector {
  return {
    description:
      "start" in problem
        ? `Unavailable now: the MCP server "${name}" did not start: ${problem.start.slice(0, MAX_REASON_CHARS)} ` +
          "The proxy tries again in a later request."
        : `Unavailable: the MCP server "${name}" started, but ${problem.config}`,
    methods: {},
  };
}

/** The namespace of a server still starting: its methods are known once it listed its tools. */
export function startingConnector(name: string, elapsedMs: number, startTimeoutMs: number): Connector {
  return {
    description:
      `Starting: the MCP server "${name}" is still starting (for ${Math.max(0, Math.round(elapsedMs / 1_000))} s; ` +
      `it is given up after startTimeoutMs ${startTimeoutMs} ms). Its methods are listed once it started: ` +
      "search or describe it again in a moment.",
    methods: {},
  };
}

/**
 * The config's word over the server's annotations: a tool listed in `readOnly` is annotated read-only,
 * one that needs approval gets `needsApproval: true` (and loses any read-only claim). Only `readOnly` and
 * `needsApproval: false` take approval away.
 */
function policyOverride(tool: ToolSet[string], name: string, policy: UpstreamPolicy): Partial<ToolSet[string]> {
  const { needsApproval, readOnly } = policy;
  const metadata = (tool as { metadata?: Record<string, unknown> }).metadata ?? {};
  const annotations = (metadata["annotations"] ?? {}) as Record<string, unknown>;
  if (readOnly?.includes(name))
    return {
      needsApproval: false,
      metadata: { ...metadata, annotations: { ...annotations, readOnlyHint: true, destructiveHint: false } },
    } as Partial<ToolSet[string]>;
  // A list only adds approval: a tool it does not name keeps what its annotations ask (a destructive one still pauses).
  const approves = Array.isArray(needsApproval) ? needsApproval.includes(name) || undefined : needsApproval;
  if (approves === undefined) return {};
  if (!approves) return { needsApproval: false } as Partial<ToolSet[string]>;
  return {
    needsApproval: true,
    metadata: { ...metadata, annotations: { ...annotations, readOnlyHint: false } },
  } as Partial<ToolSet[string]>;
}

/** The server's tools, each calling through `upstream` (which restarts a dead server), with the config's policy. */
function proxiedTools(tools: ToolSet, upstream: UpstreamServer, policy: UpstreamPolicy): ToolSet {
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    out[name] = {
      ...tool,
      ...policyOverride(tool, name, policy),
      execute: (args: unknown, options: unknown) => upstream.call(name, args, options),
    } as ToolSet[string];
  }
  return out;
}

/** A tool the config names that the server does not have (a typo must not leave a tool unapproved). */
function unknownPolicyName(tools: ToolSet, policy: UpstreamPolicy): string | undefined {
  const named = [...(Array.isArray(policy.needsApproval) ? policy.needsApproval : []), ...(policy.readOnly ?? [])];
  const missing = named.find((name) => !Object.hasOwn(tools, name));
  if (missing === undefined) return undefined;
  const known = Object.keys(tools);
  const near = closestName(missing, known);
  return (
    `its config names the tool "${missing}" in needsApproval or readOnly, which the server does not have ` +
    `(${near === undefined ? `it has: ${known.join(", ").slice(0, 300)}` : `did you mean "${near}"?`}); ` +
    "fix the config and restart the proxy"
  );
}

/** The connector of a server whose start settled with `catalog`; `usable` is false when it has no tools to offer. */
export function upstreamConnector(
  name: string,
  upstream: UpstreamServer,
  catalog: UpstreamCatalog,
  policy: UpstreamPolicy,
): { connector: ToolSet | Connector; usable: boolean } {
  if (!catalog.ok) return { connector: unavailableConnector(name, { start: catalog.error }), usable: false };
  const problem = unknownPolicyName(catalog.tools, policy);
  if (problem !== undefined) return { connector: unavailableConnector(name, { config: problem }), usable: false };
  return { connector: proxiedTools(catalog.tools, upstream, policy), usable: true };
}
