/**
 * One upstream MCP server of a proxy, reached through `@ai-sdk/mcp` (loaded on first use): started
 * when its catalog is first needed, kept and reused across calls, started again at the next call
 * after it died. A call that never reached a dead server (the client was already closed) is sent
 * once to a fresh start; one that was in flight when the server died is reported as such, never
 * silently sent twice.
 */
import type { MCPClient, MCPTransport } from "@ai-sdk/mcp";
import type { ToolSet } from "ai";
import { messageOf } from "../../shared/message-of.js";
import { childEnvironment, environmentHint, ObservedStdioTransport } from "./observed-stdio-transport.js";
import { missingPackage, missingPeersMessage } from "../../shared/missing-peer.js";
import type { UpstreamConfig } from "./proxy-config.js";
import { redactUpstreamSecrets } from "./redact-upstream-secrets.js";

/** How long a server may take to start and list its tools. */
export const DEFAULT_UPSTREAM_START_TIMEOUT_MS = 30_000;

/** How long a failed start waits for the child's last stderr and exit code before explaining. */
const END_WAIT_MS = 1_000;
/** The start's deadline passed (a marker, never shown). */
const TIMED_OUT = new Error("timed out");
/** The proxy was closed during the start (a marker, never shown). */
const CLOSED = new Error("closed");

/** A Streamable HTTP or SSE server, as `createMCPClient` takes it. */
interface HttpTransportConfig {
  type: "http" | "sse";
  url: string;
  headers?: Record<string, string>;
}

/** What the child's stderr does: passed to the host's log (`inherit`), or dropped. */
export type UpstreamStderr = "inherit" | "ignore";

/** The outcome of starting a server for its catalog. */
export type UpstreamCatalog = { ok: true; tools: ToolSet } | { ok: false; error: string };

/** A transport failure of the client (no JSON-RPC error code): the connection, not the tool, failed. */
function isTransportFailure(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return (
    typeof name === "string" &&
    name.includes("MCPClientError") &&
    typeof (error as { code?: unknown }).code !== "number"
  );
}

/** The client refused to send (it was closed before this call): the server never saw it. */
const NOT_SENT = /closed client|not connected/i;

/** One upstream server. */
export class UpstreamServer {
  readonly #name: string;
  readonly #config: UpstreamConfig;
  readonly #stderr: UpstreamStderr;
  readonly #startTimeoutMs: number;
  #client: Promise<{ client: MCPClient; tools: ToolSet }> | undefined;
  /** The started client, once `#client` resolved (until it is discarded). */
  #running: { client: MCPClient; tools: ToolSet } | undefined;
  /** Starts under way, aborted by `close()`. */
  readonly #starting = new Set<AbortController>();
  /** Every child this server spawned that may still run, killed by `kill()` when the process exits. */
  readonly #children = new Set<ObservedStdioTransport>();
  #closed = false;

  constructor({
    name,
    config,
    stderr,
    startTimeoutMs,
  }: { name: string; config: UpstreamConfig; stderr: UpstreamStderr; startTimeoutMs: number }) {
    this.#name = name;
    this.#config = config;
    this.#stderr = stderr;
    this.#startTimeoutMs = startTimeoutMs;
  }

  /** The transport to the server, and for a child process the observer that explains its failures. */
  async #transport(): Promise<{ transport: MCPTransport | HttpTransportConfig; observed?: ObservedStdioTransport }> {
    const config = this.#config;
    if (!("command" in config)) {
      return {
        transport: {
          type: config.transport ?? "http",
          url: config.url,
          ...(config.headers === undefined ? {} : { headers: config.headers }),
        },
      };
    }
    const { StdioMCPTransport } = await import("@ai-sdk/mcp/mcp-stdio");
    const { env } = childEnvironment({ env: config.env, passEnv: config.passEnv, from: process.env });
    const inner = new StdioMCPTransport({
      command: config.command,
      ...(config.args === undefined ? {} : { args: config.args }),
      ...(env === undefined ? {} : { env }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: "pipe",
    });
    const observed = new ObservedStdioTransport({ inner, stderr: this.#stderr });
    return { transport: observed, observed };
  }

  /** Why the start failed, in words a person can act on (`exit`: how the child ended, `"timeout"`, or unknown). */
  #reason(error: unknown, exit: string | undefined, observed: ObservedStdioTransport | undefined): string {
    const config = this.#config;
    // What happened first: a model's catalog shows only the start of it.
    const how =
      exit === "timeout"
        ? `no answer to initialize and tools/list within startTimeoutMs ${this.#startTimeoutMs} ms`
        : exit === undefined
          ? messageOf(error)
          : `${exit} before listing its tools`;
    const what =
      "command" in config
        ? `command: ${[config.command, ...(config.args ?? [])].join(" ").slice(0, 200)}`
        : `url: ${config.url}`;
    const stderr = observed?.stderrTail ?? "";
    const tail = stderr === "" ? "" : `; its stderr ended with: ${JSON.stringify(stderr)}`;
    if (!("command" in config)) return redactUpstreamSecrets(this.#config, `${how} (${what})${tail}.`);
    const given = childEnvironment({ env: config.env, passEnv: config.passEnv, from: process.env });
    return `${redactUpstreamSecrets(this.#config, `${how} (${what})${tail}.`)} ${environmentHint(given.missing)}`;
  }

  /** Starts the server and lists its tools, all within `startTimeoutMs` (a server that never answers is stopped). */
  async #start(): Promise<{ client: MCPClient; tools: ToolSet }> {
    // Registered first: `close()` during any step below stops this start (and the child it may have spawned).
    const deadline = new AbortController();
    this.#starting.add(deadline);
    let observed: ObservedStdioTransport | undefined;
    try {
      const { createMCPClient } = await import("@ai-sdk/mcp").catch((error: unknown) => {
        if (missingPackage(error, ["@ai-sdk/mcp"]) === undefined) throw error;
        throw new Error(missingPeersMessage("The MCP proxy", ["@ai-sdk/mcp"]), { cause: error });
      });
      if (deadline.signal.aborted) throw CLOSED;
      const made = await this.#transport();
      observed = made.observed;
      if (observed !== undefined) {
        const child = observed;
        this.#children.add(child);
        void child.finished.then(() => this.#children.delete(child));
      }
      if (deadline.signal.aborted) throw CLOSED;
      const { transport } = made;
      const work = (async () => {
        const client = await createMCPClient({
          transport,
          name: "ai-codemode-proxy",
          initializationOptions: { signal: deadline.signal },
          onUncaughtError: () => undefined,
        });
        try {
          // The client's own signal covers initialization only: tools/list is bounded by the race below.
          return { client, tools: (await client.tools()) as ToolSet };
        } catch (error) {
          await client.close().catch(() => undefined);
          throw error;
        }
      })();
      return await this.#within(work, deadline, observed);
    } catch (error) {
      if (error === CLOSED) {
        await observed?.close().catch(() => undefined);
        throw new Error("The proxy is closed.");
      }
      throw error;
    } finally {
      this.#starting.delete(deadline);
    }
  }

  /** `work` within `startTimeoutMs`; on failure the child is stopped and the failure explained. */
  async #within<T extends { client: MCPClient }>(
    work: Promise<T>,
    deadline: AbortController,
    observed: ObservedStdioTransport | undefined,
  ): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(TIMED_OUT), this.#startTimeoutMs);
      deadline.signal.addEventListener("abort", () => fail(CLOSED), { once: true });
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      const timedOut = error === TIMED_OUT;
      // How it ended before the proxy stopped it (a timed-out child is then killed, which says nothing).
      const exit = timedOut ? observed?.exit : undefined;
      deadline.abort();
      await observed?.close().catch(() => undefined);
      void work.then(({ client }) => client.close()).catch(() => undefined);
      if (error === CLOSED) throw error;
      if (!timedOut) await observed?.ended(END_WAIT_MS);
      throw new Error(this.#reason(error, timedOut ? (exit ?? "timeout") : observed?.exit, observed));
    } finally {
      clearTimeout(timer);
    }
  }

  /** The running client, started if there is none. */
  #connected(): Promise<{ client: MCPClient; tools: ToolSet }> {
    if (this.#closed) return Promise.reject(new Error(`The proxy is closed.`));
    if (this.#client === undefined) {
      const started = this.#start();
      this.#client = started;
      // A failed start is forgotten, so the next request tries again.
      started.then(
        (running) => {
          if (this.#client === started) this.#running = running;
        },
        () => {
          if (this.#client === started) this.#client = undefined;
        },
      );
    }
    return this.#client;
  }

  /** Forgets `client` (closing it) so the next call starts the server again. */
  #discard(client: MCPClient): void {
    void this.#client?.then(
      (current) => {
        if (current.client === client) {
          this.#client = undefined;
          this.#running = undefined;
        }
      },
      () => undefined,
    );
    void client.close().catch(() => undefined);
  }

  /** The tools of the running server, known without waiting; `undefined` while it is not started. */
  get startedTools(): ToolSet | undefined {
    return this.#running?.tools;
  }

  /** Starts the server (if needed) for its tool list. */
  async catalog(): Promise<UpstreamCatalog> {
    try {
      return { ok: true, tools: (await this.#connected()).tools };
    } catch (error) {
      return { ok: false, error: redactUpstreamSecrets(this.#config, messageOf(error)) };
    }
  }

  /** Calls `tool` on the running server, starting it again if it died. */
  async call(tool: string, args: unknown, options: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      let running: { client: MCPClient; tools: ToolSet };
      try {
        running = await this.#connected();
      } catch (error) {
        throw new Error(
          `The MCP server "${this.#name}" could not be started: ${redactUpstreamSecrets(this.#config, messageOf(error))}`,
        );
      }
      const execute = running.tools[tool]?.execute;
      if (execute === undefined) throw new Error(`The MCP server "${this.#name}" has no tool "${tool}" any more.`);
      try {
        return await execute(args, options as Parameters<typeof execute>[1]);
      } catch (error) {
        if (!isTransportFailure(error)) throw error;
        this.#discard(running.client);
        if (attempt === 0 && NOT_SENT.test(messageOf(error))) continue;
        throw new Error(
          `The MCP server "${this.#name}" stopped during this call (${redactUpstreamSecrets(this.#config, messageOf(error))}): ` +
            "the call may or may not have run. The proxy starts it again at the next call.",
        );
      }
    }
  }

  /** Stops the server (if it runs), a start under way included. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const start of this.#starting) start.abort();
    this.kill();
    const current = this.#client;
    this.#client = undefined;
    this.#running = undefined;
    const running = await current?.catch(() => undefined);
    await running?.client.close().catch(() => undefined);
  }

  /** Signals every child this server spawned to stop, at once (synchronous: it runs as the process exits). */
  kill(): void {
    for (const child of this.#children) {
      child.kill();
      this.#children.delete(child);
    }
  }
}
