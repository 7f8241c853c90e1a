/**
 * One upstream MCP server of a proxy, reached through `@ai-sdk/mcp` (loaded on first use): started
 * when its catalog is first needed, kept and reused across calls, started again at the next call
 * after it died. A call that never reached a dead server (the client was already closed) is sent
 * once to a fresh start; one that was in flight when the server died is reported as such, never
 * silently sent twice.
 */
import type { MCPClient } from "@ai-sdk/mcp";
import type { ToolSet } from "ai";
import { messageOf } from "../../shared/message-of.js";
import { missingPackage, missingPeersMessage } from "../../shared/missing-peer.js";
import type { UpstreamConfig } from "./proxy-config.js";

/** How long a server may take to start and list its tools. */
export const DEFAULT_UPSTREAM_START_TIMEOUT_MS = 30_000;

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

  async #start(): Promise<{ client: MCPClient; tools: ToolSet }> {
    const { createMCPClient } = await import("@ai-sdk/mcp").catch((error: unknown) => {
      if (missingPackage(error, ["@ai-sdk/mcp"]) === undefined) throw error;
      throw new Error(missingPeersMessage("The MCP proxy", ["@ai-sdk/mcp"]), { cause: error });
    });
    const signal = AbortSignal.timeout(this.#startTimeoutMs);
    const config = this.#config;
    let transport: Parameters<typeof createMCPClient>[0]["transport"];
    if ("command" in config) {
      const { StdioMCPTransport } = await import("@ai-sdk/mcp/mcp-stdio");
      transport = new StdioMCPTransport({
        command: config.command,
        ...(config.args === undefined ? {} : { args: config.args }),
        ...(config.env === undefined ? {} : { env: config.env }),
        ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
        stderr: this.#stderr,
      });
    } else {
      transport = {
        type: config.transport ?? "http",
        url: config.url,
        ...(config.headers === undefined ? {} : { headers: config.headers }),
      };
    }
    const client = await createMCPClient({
      transport,
      name: "ai-codemode-proxy",
      initializationOptions: { signal },
      onUncaughtError: () => undefined,
    });
    try {
      return { client, tools: (await client.tools()) as ToolSet };
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** The running client, started if there is none. */
  #connected(): Promise<{ client: MCPClient; tools: ToolSet }> {
    if (this.#closed) return Promise.reject(new Error(`The proxy is closed.`));
    if (this.#client === undefined) {
      const started = this.#start();
      this.#client = started;
      // A failed start is forgotten, so the next request tries again.
      started.catch(() => {
        if (this.#client === started) this.#client = undefined;
      });
    }
    return this.#client;
  }

  /** Forgets `client` (closing it) so the next call starts the server again. */
  #discard(client: MCPClient): void {
    void this.#client?.then(
      (current) => {
        if (current.client === client) this.#client = undefined;
      },
      () => undefined,
    );
    void client.close().catch(() => undefined);
  }

  /** Starts the server (if needed) for its tool list. */
  async catalog(): Promise<UpstreamCatalog> {
    try {
      return { ok: true, tools: (await this.#connected()).tools };
    } catch (error) {
      return { ok: false, error: messageOf(error) };
    }
  }

  /** Calls `tool` on the running server, starting it again if it died. */
  async call(tool: string, args: unknown, options: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      let running: { client: MCPClient; tools: ToolSet };
      try {
        running = await this.#connected();
      } catch (error) {
        throw new Error(`The MCP server "${this.#name}" could not be started: ${messageOf(error)}`);
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
          `The MCP server "${this.#name}" stopped during this call (${messageOf(error)}): the call may or may not have run. ` +
            "The proxy starts it again at the next call.",
        );
      }
    }
  }

  /** Stops the server (if it runs). */
  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#client;
    this.#client = undefined;
    const running = await current?.catch(() => undefined);
    await running?.client.close().catch(() => undefined);
  }
}
