/**
 * `createCodemodeMcpProxy({ servers })`: a codemode runtime whose namespaces are upstream MCP
 * servers (stdio commands and URLs), so a host talks to one codemode server instead of ten.
 * Each server becomes a connector through `@ai-sdk/mcp` (annotations set the policy, as for any
 * MCP tool set: `destructiveHint` → approval, `readOnlyHint` → `readOnly`). Servers start at the
 * first request that needs the catalog (not at start-up), together, and are reused; one that
 * fails to start is a namespace without methods whose description says why, tried again at a
 * later request; one that dies is started again at its next call. Credentials given in `env` and
 * `headers` stay in the proxy: the sandbox sees only the tools.
 */
import type { ToolSet } from "ai";
import {
  createCodemodeRuntime,
  type CodemodeRuntime,
  type CodemodeRuntimeOptions,
} from "../../ai/create-codemode-runtime.js";
import type { Connector } from "../../connectors/types.js";
import { InvalidOptionError } from "../../errors.js";
import { resolveSearchOptions } from "../../ai/search-options.js";
import { resolveRuntimeOptions } from "../../runtime/runtime-options.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";
import { closestName } from "../../shared/closest-name.js";
import { resolveUpstreams, type UpstreamConfig, type UpstreamPolicy } from "./proxy-config.js";
import { DEFAULT_UPSTREAM_START_TIMEOUT_MS, UpstreamServer, type UpstreamStderr } from "./upstream-server.js";

/** How long after a failed start the proxy tries that server again (at the next request after it). */
const DEFAULT_UPSTREAM_RETRY_MS = 30_000;

/** Options of {@link createCodemodeMcpProxy}. */
export interface CodemodeMcpProxyOptions {
  /** The upstream servers by namespace: `{ command, args?, env?, cwd? }` or `{ url, headers?, transport? }`. */
  servers: Record<string, UpstreamConfig>;
  /** The runtime's other options (store, name, limits, …); its connectors are the servers. */
  runtime?: Omit<CodemodeRuntimeOptions, "connectors">;
  /** The children's stderr. @default "inherit" */
  stderr?: UpstreamStderr;
  /** How long one server may take to start and list its tools, in ms. @default 30000 */
  startTimeoutMs?: number;
  /** How long after a failed start the server is tried again, in ms. @default 30000 */
  retryMs?: number;
  /**
   * Test seams; not part of the published types.
   * @internal
   */
  _internal?: {
    /** The clock retries are timed by (ms). */
    now?: () => number;
  };
}

/** A running proxy. */
export interface CodemodeMcpProxy {
  /**
   * The runtime over the servers (pass it as `createCodemodeMcpServer({ runtime: proxy.runtime })`):
   * the first call starts the servers; later calls reuse them.
   */
  runtime(): Promise<CodemodeRuntime>;
  /** Stops every server and closes the runtimes (closing a runtime it returned does the same). */
  close(): Promise<void>;
}

/** Every key of {@link CodemodeMcpProxyOptions} (a key added there and not here fails to compile). */
const PROXY_OPTION_KEYS = keysOf<CodemodeMcpProxyOptions>({
  servers: true,
  runtime: true,
  stderr: true,
  startTimeoutMs: true,
  retryMs: true,
  _internal: true,
});

/** The namespace of a server that cannot be used: no methods, and a description the model reads. */
function unavailableConnector(name: string, problem: { start: string } | { config: string }): Connector {
  return {
    description:
      "start" in problem
        ? `Unavailable now: the MCP server "${name}" did not start: ${problem.start.slice(0, 1_500)} ` +
          "The proxy tries again in a later request."
        : `Unavailable: the MCP server "${name}" started, but ${problem.config}`,
    methods: {},
  };
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

/**
 * The config's word over the server's annotations: a tool listed in `readOnly` is annotated read-only,
 * one that needs approval gets `needsApproval: true` (and loses any read-only claim).
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
  const approves = Array.isArray(needsApproval) ? needsApproval.includes(name) : needsApproval;
  if (approves === undefined) return {};
  if (!approves) return { needsApproval: false } as Partial<ToolSet[string]>;
  return {
    needsApproval: true,
    metadata: { ...metadata, annotations: { ...annotations, readOnlyHint: false } },
  } as Partial<ToolSet[string]>;
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

function positive(value: unknown, fallback: number, path: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidOptionError({ path, message: "must be a positive integer (milliseconds)" });
  return value;
}

/**
 * Creates a code-mode proxy over upstream MCP servers. Nothing starts until `runtime()` is called.
 *
 * @example
 * const proxy = createCodemodeMcpProxy({
 *   servers: {
 *     memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
 *     linear: { url: "https://mcp.linear.app/mcp", headers: { authorization: `Bearer ${process.env.LINEAR_TOKEN}` } },
 *   },
 * });
 * const server = createCodemodeMcpServer({ runtime: proxy.runtime });
 */
export function createCodemodeMcpProxy(options: CodemodeMcpProxyOptions): CodemodeMcpProxy {
  if (typeof options !== "object" || options === null)
    throw new InvalidOptionError({ path: "createCodemodeMcpProxy", message: "takes { servers, … }" });
  assertKnownKeys(options, PROXY_OPTION_KEYS, "createCodemodeMcpProxy");
  const servers = resolveUpstreams(options.servers, undefined, "createCodemodeMcpProxy.servers");
  const { runtime: runtimeOptions = {}, stderr = "inherit" } = options;
  if (stderr !== "inherit" && stderr !== "ignore")
    throw new InvalidOptionError({ path: "createCodemodeMcpProxy.stderr", message: 'must be "inherit" or "ignore"' });
  if ("connectors" in runtimeOptions)
    throw new InvalidOptionError({
      path: "createCodemodeMcpProxy.runtime.connectors",
      message: "is not taken: the servers are the connectors",
    });
  const startTimeoutMs = positive(
    options.startTimeoutMs,
    DEFAULT_UPSTREAM_START_TIMEOUT_MS,
    "createCodemodeMcpProxy.startTimeoutMs",
  );
  const retryMs = positive(options.retryMs, DEFAULT_UPSTREAM_RETRY_MS, "createCodemodeMcpProxy.retryMs");
  const now = options._internal?.now ?? Date.now;
  // The runtime options are checked now (values only: nothing is opened).
  const { search, ...durableOptions } = runtimeOptions;
  resolveSearchOptions(search);
  // The namespaces too (as empty connectors: their methods are known once the servers start).
  resolveRuntimeOptions({
    ...durableOptions,
    connectors: Object.fromEntries(Object.keys(servers).map((name) => [name, { methods: {} }])),
  });

  const upstreams = Object.entries(servers).map(
    ([name, config]) => [name, new UpstreamServer({ name, config, stderr, startTimeoutMs })] as const,
  );
  const runtimes: CodemodeRuntime[] = [];
  let closing: Promise<void> | undefined;
  const closeAll = (): Promise<void> => {
    closed = true;
    closing ??= (async () => {
      await Promise.all(upstreams.map(([, upstream]) => upstream.close()));
      await Promise.all(runtimes.map((runtime) => runtime.close()));
    })();
    return closing;
  };
  let current: Promise<{ runtime: CodemodeRuntime; retryAtMs: number | undefined }> | undefined;
  let closed = false;

  const build = async (): Promise<{ runtime: CodemodeRuntime; retryAtMs: number | undefined }> => {
    const catalogs = await Promise.all(
      upstreams.map(async ([name, upstream]) => [name, upstream, await upstream.catalog()] as const),
    );
    const connectors: Record<string, ToolSet | Connector> = {};
    let failed = false;
    for (const [name, upstream, catalog] of catalogs) {
      const policy = servers[name] ?? {};
      const problem = catalog.ok ? unknownPolicyName(catalog.tools, policy) : undefined;
      if (catalog.ok && problem === undefined) connectors[name] = proxiedTools(catalog.tools, upstream, policy);
      else {
        failed = true;
        connectors[name] = unavailableConnector(
          name,
          catalog.ok ? { config: problem ?? "" } : { start: catalog.error },
        );
      }
    }
    const made = createCodemodeRuntime({ ...runtimeOptions, connectors });
    runtimes.push(made);
    // Closing the runtime closes the proxy: a script that only holds the runtime must not be kept alive by children.
    const runtime: CodemodeRuntime = { ...made, close: closeAll };
    return { runtime, retryAtMs: failed ? now() + retryMs : undefined };
  };

  const rebuild = (): Promise<{ runtime: CodemodeRuntime; retryAtMs: number | undefined }> => {
    const attempt = build();
    attempt.catch(() => {
      if (current === attempt) current = undefined;
    });
    return attempt;
  };

  return {
    async runtime() {
      if (closed) throw new Error("The codemode MCP proxy is closed.");
      current ??= rebuild();
      const attempt = current;
      const built = await attempt;
      if (built.retryAtMs === undefined || now() < built.retryAtMs) return built.runtime;
      // A server failed to start and its retry time has come: the first caller to see it rebuilds, for everyone.
      if (current === attempt) current = rebuild();
      return (await current).runtime;
    },
    close: closeAll,
  };
}
