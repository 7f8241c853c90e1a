/**
 * `createCodemodeMcpProxy({ servers })`: a codemode runtime whose namespaces are upstream MCP
 * servers (stdio commands and URLs), so a host talks to one codemode server instead of ten.
 * Each server becomes a connector through `@ai-sdk/mcp` (annotations set the policy, as for any
 * MCP tool set: `destructiveHint` → approval, `readOnlyHint` → `readOnly`). Servers start at the
 * first request that needs the catalog (not at start-up), together, and are reused; `runtime()`
 * waits for every start, `currentRuntime()` answers at once (a server still starting says so). One
 * that fails to start is a namespace without methods whose description says why, tried again at a
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
import { resolveRuntimeOptions } from "../../runtime/durable-runtime-options.js";
import { isRecord } from "../../shared/is-record.js";
import { declareOptions, option, type OptionField } from "../../shared/options/declare-options.js";
import { oneOfOption } from "../../shared/options/option-checks.js";
import { resolveUpstreams, type UpstreamConfig } from "./proxy-config.js";
import { startingConnector, upstreamConnector } from "./upstream-connectors.js";
import {
  DEFAULT_UPSTREAM_START_TIMEOUT_MS,
  type UpstreamCatalog,
  UpstreamServer,
  type UpstreamStderr,
} from "./upstream-server.js";

/** How long after a failed start the proxy tries that server again (at the next request after it). */
const DEFAULT_UPSTREAM_RETRY_MS = 30_000;

/** Options of {@link createCodemodeMcpProxy}. */
export interface CodemodeMcpProxyOptions {
  /** The upstream servers by namespace: `{ command, args?, env?, cwd? }` or `{ url, headers?, transport? }`. */
  servers: Record<string, UpstreamConfig>;
  /**
   * The runtime's other options (store, name, limits, …); its connectors are the servers.
   * @default {} (the runtime's defaults)
   */
  runtime?: Omit<CodemodeRuntimeOptions, "connectors">;
  /**
   * The children's stderr: `"inherit"` shows it in this process's stderr, `"ignore"` drops it.
   * @default "inherit"
   */
  stderr?: UpstreamStderr;
  /**
   * How long one server may take to start and list its tools, in milliseconds.
   * @default 30_000
   */
  startTimeoutMs?: number;
  /**
   * How long after a failed start the server is tried again, in milliseconds.
   * @default 30_000
   */
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
  /**
   * The runtime as it is now, without waiting for servers still starting: their namespaces say so (in the
   * catalog and `describe`) until they started. A program that names one waits for its start; others run at
   * once. Approving, rejecting and rolling back wait for every start (the program's calls are replayed). What an MCP
   * server should answer `tools/list` from: `createCodemodeMcpServer({ runtime: proxy.currentRuntime })`.
   */
  currentRuntime(): Promise<CodemodeRuntime>;
  /** Stops every server and closes the runtimes (closing a runtime it returned does the same). */
  close(): Promise<void>;
}

/** Milliseconds, a positive integer; `fallback` when omitted. */
function milliseconds(fallback: number): OptionField<number> {
  return option((value, path) => {
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
      throw new InvalidOptionError({ path, message: "must be a positive integer (milliseconds)" });
    return value;
  });
}

/**
 * How each option of {@link CodemodeMcpProxyOptions} is checked and defaulted (the runtime's options are checked
 * by the runtime's own declaration, with the servers as its connectors).
 */
const PROXY_OPTIONS = declareOptions<CodemodeMcpProxyOptions>()({
  servers: option((value, path) => resolveUpstreams(value, undefined, path)),
  runtime: option((value, path) => {
    const runtime = value ?? {};
    if (isRecord(runtime) && "connectors" in runtime)
      throw new InvalidOptionError({
        path: `${path}.connectors`,
        message: "is not taken: the servers are the connectors",
      });
    return runtime as Omit<CodemodeRuntimeOptions, "connectors">;
  }),
  stderr: oneOfOption<UpstreamStderr>(["inherit", "ignore"], "inherit"),
  startTimeoutMs: milliseconds(DEFAULT_UPSTREAM_START_TIMEOUT_MS),
  retryMs: milliseconds(DEFAULT_UPSTREAM_RETRY_MS),
  _internal: option((value) => (isRecord(value) ? value : {}) as NonNullable<CodemodeMcpProxyOptions["_internal"]>),
});

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
  const {
    servers,
    runtime: runtimeOptions,
    stderr,
    startTimeoutMs,
    retryMs,
    _internal: internal,
  } = PROXY_OPTIONS.resolve(options, "createCodemodeMcpProxy");
  const now = internal.now ?? Date.now;
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
  let closed = false;
  let closing: Promise<void> | undefined;
  // A process that exits without closing the proxy (process.exit, an uncaught error) still stops the children.
  const killChildren = (): void => {
    for (const [, upstream] of upstreams) upstream.kill();
  };
  const closeAll = (): Promise<void> => {
    closed = true;
    closing ??= (async () => {
      process.off("exit", killChildren);
      await Promise.all(upstreams.map(([, upstream]) => upstream.close()));
      await Promise.all(runtimes.map((runtime) => runtime.close()));
    })();
    return closing;
  };

  /** A runtime over `connectors`, closed with the proxy (closing it closes the proxy). */
  const runtimeOver = (connectors: Record<string, ToolSet | Connector>): CodemodeRuntime => {
    const made = createCodemodeRuntime({ ...runtimeOptions, connectors });
    runtimes.push(made);
    // A script that only holds the runtime must not be kept alive by children.
    return { ...made, close: closeAll };
  };

  /** The connectors of every server: started, failed, or (absent from `settled`) still starting. */
  const connectorsOf = (settled: ReadonlyMap<string, UpstreamCatalog>, startedAtMs: number) => {
    const connectors: Record<string, ToolSet | Connector> = {};
    let failed = false;
    for (const [name, upstream] of upstreams) {
      const tools = upstream.startedTools;
      const catalog = settled.get(name) ?? (tools === undefined ? undefined : { ok: true as const, tools });
      if (catalog === undefined) {
        connectors[name] = startingConnector(name, now() - startedAtMs, startTimeoutMs);
        continue;
      }
      const made = upstreamConnector(name, upstream, catalog, servers[name] ?? {});
      connectors[name] = made.connector;
      failed ||= !made.usable;
    }
    return { connectors, failed };
  };

  /** One round of starts: every server's catalog as it settles, and the runtime once all did. */
  interface Build {
    settled: Map<string, UpstreamCatalog>;
    /** Each server's start in this round, settled with its catalog. */
    starts: Map<string, Promise<unknown>>;
    startedAtMs: number;
    done: boolean;
    result: Promise<{ runtime: CodemodeRuntime; retryAtMs: number | undefined }>;
    /** The runtime `currentRuntime()` gave for `settled.size` servers settled. */
    early?: { count: number; runtime: CodemodeRuntime };
  }
  let current: Build | undefined;

  const startBuild = (): Build => {
    if (!process.listeners("exit").includes(killChildren)) process.on("exit", killChildren);
    const settled = new Map<string, UpstreamCatalog>();
    const startedAtMs = now();
    const starts = new Map(
      upstreams.map(([name, upstream]) => [name, upstream.catalog().then((catalog) => settled.set(name, catalog))]),
    );
    const result = (async () => {
      await Promise.all(starts.values());
      const { connectors, failed } = connectorsOf(settled, startedAtMs);
      return { runtime: runtimeOver(connectors), retryAtMs: failed ? now() + retryMs : undefined };
    })();
    const build: Build = { settled, starts, startedAtMs, done: false, result };
    result.then(
      () => {
        build.done = true;
      },
      () => {
        build.done = true;
        if (current === build) current = undefined;
      },
    );
    return build;
  };

  /** The round of starts to answer from: the current one, or a new one when a failed server's retry time has come. */
  const latest = async (): Promise<Build> => {
    if (closed) throw new Error("The codemode MCP proxy is closed.");
    current ??= startBuild();
    const build = current;
    if (!build.done) return build;
    const { retryAtMs } = await build.result;
    if (retryAtMs === undefined || now() < retryAtMs) return build;
    // A server failed to start and its retry time has come: the first caller to see it starts again, for everyone.
    if (current === build) current = startBuild();
    return current;
  };

  /** The runtime while some servers still start; resuming an execution waits for the round to end. */
  const earlyRuntime = (build: Build): CodemodeRuntime => {
    const count = build.settled.size;
    if (build.early?.count === count) return build.early.runtime;
    const made = runtimeOver(connectorsOf(build.settled, build.startedAtMs).connectors);
    const started = async () => (await build.result).runtime;
    const runtime: CodemodeRuntime = {
      ...made,
      // A program that names a server still starting waits for that start (bounded by startTimeoutMs), no other.
      execute: async (input, options) => {
        const code = typeof input?.code === "string" ? input.code : "";
        const named = upstreams.filter(
          ([name, upstream]) =>
            !build.settled.has(name) && upstream.startedTools === undefined && namesGlobal(code, name),
        );
        if (named.length === 0) return made.execute(input, options);
        await Promise.all(named.map(([name]) => build.starts.get(name)));
        return (await proxy.currentRuntime()).execute(input, options);
      },
      approve: async (...args) => (await started()).approve(...args),
      decide: async (...args) => (await started()).decide(...args),
      reject: async (...args) => (await started()).reject(...args),
      rollback: async (...args) => (await started()).rollback(...args),
    };
    build.early = { count, runtime };
    return runtime;
  };

  const proxy: CodemodeMcpProxy = {
    async runtime() {
      return (await (await latest()).result).runtime;
    },
    async currentRuntime() {
      const build = await latest();
      return build.done ? (await build.result).runtime : earlyRuntime(build);
    },
    close: closeAll,
  };
  return proxy;
}

/** Whether `code` uses the global `name` as a namespace (`name.x`, `name?.x`, `name["x"]`). */
function namesGlobal(code: string, name: string): boolean {
  const escaped = name.replace(/\$/g, "\\$");
  return new RegExp(`(^|[^\\w$.])${escaped}\\s*(\\?\\.|\\.|\\[)`).test(code);
}
