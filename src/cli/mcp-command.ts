/**
 * `ai-codemode mcp`: serves a codemode runtime to MCP hosts, over stdio (desktop hosts start it as
 * a child process) or with `--http HOST:PORT` on a loopback address (Streamable HTTP at `/mcp`).
 * The runtime is the app's (`--runtime <module>`, loaded like `inspect --runtime`) or a code-mode
 * proxy over the MCP servers a config file lists (`--proxy servers.json`). On stdio, stdout carries
 * the protocol only: everything else goes to stderr. The MCP SDK is loaded only by this command.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import { CliError } from "../errors/cli-error.js";
import { messageOf } from "../shared/message-of.js";
import { missingPackage, missingPeersMessage } from "../shared/missing-peer.js";
import { fetchRequestListener } from "./fetch-over-node-http.js";
import { loadRuntimeModule } from "./load-runtime-module.js";
import type { CliIo } from "./cli-io.js";
import { resolveCliStore } from "./open-store-runtime.js";
import { LOOPBACK } from "./serve-inspector.js";
import { usageError } from "./usage-error.js";

/** The path the HTTP server answers MCP on. */
export const MCP_HTTP_PATH = "/mcp";
const LOOPBACK_BIND = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** `HOST:PORT` (IPv6 in brackets), loopback hosts only. */
function parseListen(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(port) || port > 65_535)
    throw usageError(`--http takes HOST:PORT, e.g. --http 127.0.0.1:3920 (got "${text}").`);
  const host = match[1]!;
  if (!LOOPBACK_BIND.has(host))
    throw usageError(
      `--http serves loopback addresses only (127.0.0.1, localhost, [::1]): anyone who reaches it runs programs. ` +
        "To serve others, mount createCodemodeMcpHandler({ runtime, authorize }) in your app.",
    );
  return { host: host.replace(/^\[|\]$/g, ""), port };
}

/** The runtime to serve and how to release it. */
async function openMcpRuntime(
  values: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<{ runtime: CodemodeRuntime | (() => Promise<CodemodeRuntime>); close: () => Promise<void> }> {
  const module = values["runtime"];
  const proxy = values["proxy"];
  if (typeof module === "string" && typeof proxy === "string")
    throw usageError("mcp serves the app's runtime (--runtime) or a proxy over MCP servers (--proxy), not both.");
  if (typeof module === "string") {
    if (values["store"] !== undefined || values["name"] !== undefined)
      throw usageError("--store and --name do not apply with --runtime: the app's runtime decides both.");
    const loaded = await loadRuntimeModule(module, io.cwd);
    if (!loaded.ok) throw new CliError({ message: loaded.error });
    const runtime = loaded.runtime as Partial<CodemodeRuntime>;
    if (typeof runtime.tool !== "function" || typeof runtime.execute !== "function")
      throw new CliError({
        message: `--runtime ${module}: the export is not a runtime from createCodemodeRuntime() (it has no tool()/execute()).`,
      });
    return { runtime: runtime as CodemodeRuntime, close: async () => runtime.close?.() };
  }
  if (typeof proxy !== "string")
    throw usageError(
      "mcp needs the runtime to serve: --runtime <module> (the app's createCodemodeRuntime) or --proxy <servers.json> " +
        '(a code-mode proxy over MCP servers: { "mcpServers": { "name": { "command", "args" } | { "url" } } }).',
    );
  const file = resolve(io.cwd, proxy);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError({ message: `--proxy ${proxy}: cannot read ${file} (${messageOf(error)}).`, cause: error });
  }
  const [{ parseProxyConfig }, { createCodemodeMcpProxy }] = await Promise.all([
    import("../mcp/proxy/proxy-config.js"),
    import("../mcp/proxy/create-codemode-mcp-proxy.js"),
  ]);
  const config = parseProxyConfig(text, io.env, proxy);
  const store = (values["store"] as string | undefined) ?? config.store;
  const name = (values["name"] as string | undefined) ?? config.name;
  const made = createCodemodeMcpProxy({
    servers: config.mcpServers,
    runtime: {
      store: resolveCliStore(store, io.env),
      ...(name === undefined ? {} : { name }),
    },
  });
  return { runtime: made.runtime, close: made.close };
}

function waitForStop(io: CliIo, extra?: (stop: () => void) => void): Promise<void> {
  return new Promise<void>((done) => {
    const stop = () => done();
    extra?.(stop);
    if (io.signal !== undefined) {
      if (io.signal.aborted) stop();
      io.signal.addEventListener("abort", stop, { once: true });
      return;
    }
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

async function serveStdio(runtime: CodemodeRuntime | (() => Promise<CodemodeRuntime>), io: CliIo): Promise<void> {
  const [{ createCodemodeMcpServer }, { StdioServerTransport }] = await Promise.all([
    import("../mcp/create-codemode-mcp-server.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
  ]);
  const server = createCodemodeMcpServer({ runtime });
  const transport = new StdioServerTransport();
  // A line that is not JSON (or not JSON-RPC) gets a JSON-RPC error instead of silence; the session goes on.
  transport.onerror = (error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : undefined;
    if (code === undefined) {
      io.stderr(`ai-codemode mcp: ${error.message}\n`);
      return;
    }
    const message =
      code === -32700
        ? `Parse error: a line is not JSON (${error.message}).`
        : "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.";
    void transport.send({ jsonrpc: "2.0", id: null, error: { code, message } } as never).catch(() => undefined);
  };
  await server.connect(transport);
  io.stderr("ai-codemode MCP server on stdio\n");
  // The host closing our stdin ends the session: in-flight calls are cancelled (their passes end) before exit.
  await waitForStop(io, (stop) => {
    process.stdin.once("end", stop);
    process.stdin.once("close", stop);
  });
  await server.close();
}

/** The host of an `Origin` header (`""` for `null` or anything that is not a URL). */
function originHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return "";
  }
}

async function serveHttp(
  runtime: CodemodeRuntime | (() => Promise<CodemodeRuntime>),
  listen: { host: string; port: number },
  io: CliIo,
): Promise<void> {
  const { createCodemodeMcpHandler } = await import("../mcp/create-codemode-mcp-handler.js");
  const handler = createCodemodeMcpHandler({
    runtime,
    // Loopback only, and no page of another site (a browser sends its Origin): the local user's own runtime.
    authorize: (request) => {
      const host = request.headers.get("host") ?? "";
      const origin = request.headers.get("origin");
      const sameMachine = LOOPBACK.test(host) && (origin === null || LOOPBACK.test(originHost(origin)));
      return sameMachine ? { unscoped: true } : new Response("Forbidden: loopback clients only.", { status: 403 });
    },
  });
  const answer = fetchRequestListener(handler);
  const server: Server = createServer((request, response) => {
    if (new URL(request.url ?? "/", "http://localhost").pathname !== MCP_HTTP_PATH) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`MCP is served at ${MCP_HTTP_PATH}.`);
      return;
    }
    answer(request, response);
  });
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(listen.port, listen.host, () => done());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${listen.host.includes(":") ? `[${listen.host}]` : listen.host}:${port}${MCP_HTTP_PATH}`;
  io.stdout(`ai-codemode MCP server on ${url}\n`);
  io.onListening?.(url);
  await waitForStop(io);
  await handler.close();
  await new Promise<void>((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
}

/** The optional peer dependencies this command needs: each missing one is named once, with the install command. */
async function requirePeers(proxy: boolean): Promise<void> {
  const needed: Array<[name: string, load: () => Promise<unknown>]> = [
    ["@modelcontextprotocol/sdk", () => import("@modelcontextprotocol/sdk/server/mcp.js")],
    ...(proxy ? [["@ai-sdk/mcp", () => import("@ai-sdk/mcp")] as [string, () => Promise<unknown>]] : []),
  ];
  const missing: string[] = [];
  for (const [name, load] of needed) {
    try {
      await load();
    } catch (error) {
      if (missingPackage(error, [name]) === undefined) {
        throw new CliError({ message: `ai-codemode mcp could not load ${name}: ${messageOf(error)}`, cause: error });
      }
      missing.push(name);
    }
  }
  if (missing.length > 0) {
    throw new CliError({ message: missingPeersMessage(`ai-codemode mcp${proxy ? " --proxy" : ""}`, missing) });
  }
}

/** Runs `ai-codemode mcp`; resolves with the exit code when the host or a signal stops it. */
export async function runMcpCommand({
  values,
  io,
}: {
  values: Record<string, string | boolean | undefined>;
  io: CliIo;
}): Promise<number> {
  const http = values["http"];
  const listen = typeof http === "string" ? parseListen(http) : undefined;
  await requirePeers(typeof values["proxy"] === "string");
  const opened = await openMcpRuntime(values, io);
  try {
    if (listen === undefined) await serveStdio(opened.runtime, io);
    else await serveHttp(opened.runtime, listen, io);
    return 0;
  } finally {
    await opened.close();
  }
}
