/**
 * `ai-codemode mcp`: serves a codemode runtime to MCP hosts, over stdio (desktop hosts start it as
 * a child process) or with `--http HOST:PORT` on a loopback address (Streamable HTTP at `/mcp`).
 * The runtime is the app's (`--runtime <module>`, loaded like `inspect --runtime`) or a code-mode
 * proxy over the MCP servers a config file lists (`--proxy servers.json`). On stdio, stdout carries
 * the protocol only: everything else goes to stderr. The MCP SDK is loaded only by this command.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import { CliError } from "../errors/cli-error.js";
import { messageOf } from "../shared/message-of.js";
import { missingPackage, missingPeersMessage } from "../shared/missing-peer.js";
import { badRequest, fetchRequestListener } from "./fetch-over-node-http.js";
import { guardJsonLines } from "./json-lines-guard.js";
import { originSet } from "../mcp/mcp-http-origins.js";
import { loadRuntimeModule } from "./load-runtime-module.js";
import type { CliIo } from "./cli-io.js";
import { openProxyRuntime, proxyApprovalHint, readProxyFile } from "./open-proxy-runtime.js";
import { LOOPBACK } from "./serve-inspector.js";
import { usageError } from "./usage-error.js";

/** The path the HTTP server answers MCP on. */
const MCP_HTTP_PATH = "/mcp";
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
): Promise<{
  runtime: CodemodeRuntime | (() => Promise<CodemodeRuntime>);
  close: () => Promise<void>;
  approvalHint?: string;
}> {
  const module = values["runtime"];
  const proxy = values["proxy"];
  if (typeof module === "string" && typeof proxy === "string")
    throw usageError("mcp serves the app's runtime (--runtime) or a proxy over MCP servers (--proxy), not both.");
  if (typeof module === "string") {
    if (values["modules"] !== undefined)
      throw usageError("--modules does not apply with --runtime: give the modules in the app's createCodemodeRuntime.");
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
  const read = await readProxyFile(proxy, values, io);
  const opened = await openProxyRuntime(read, io);
  // tools/list and initialize are answered at once: a server still starting is listed as such, never waited for.
  return { runtime: opened.currentRuntime, close: opened.close, approvalHint: proxyApprovalHint(read, values) };
}

/**
 * From here on, whatever the app or a library writes to stdout (console.log included) goes to stderr;
 * the returned stream writes to the real stdout, for the protocol alone. Returns how to undo it.
 */
function reserveStdout(): { protocol: Writable; restore: () => void } {
  const stdout = process.stdout;
  const original = stdout.write;
  const toStdout = original.bind(stdout) as (
    chunk: Buffer | string,
    callback: (error?: Error | null) => void,
  ) => boolean;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      toStdout(chunk, callback);
    },
  });
  return {
    protocol,
    restore: () => {
      stdout.write = original;
    },
  };
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
    process.once("SIGHUP", stop);
  });
}

async function serveStdio(
  { runtime, approvalHint }: Awaited<ReturnType<typeof openMcpRuntime>>,
  protocol: Writable,
  io: CliIo,
): Promise<void> {
  const [{ createCodemodeMcpServer }, stdio] = await Promise.all([
    import("../mcp/create-codemode-mcp-server.js"),
    import("@modelcontextprotocol/server/stdio"),
  ]);
  // A line that is not JSON (or not JSON-RPC) gets a JSON-RPC error instead of silence; the session goes on.
  const refuse = (error: Error): void => {
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
  const lines = process.stdin.pipe(guardJsonLines(refuse));
  const transport = new stdio.StdioServerTransport(lines, protocol);
  // The SDK picks the revision from the client's first message (2026-07-28 `server/discover` or a 2025 `initialize`)
  // and keeps one server for the connection.
  const served = stdio.serveStdio(
    () => createCodemodeMcpServer({ runtime, ...(approvalHint === undefined ? {} : { approvalHint }) }),
    { transport, onerror: refuse },
  );
  io.stderr("ai-codemode MCP server on stdio\n");
  // The host closing our stdin ends the session: in-flight calls are cancelled (their passes end) before exit.
  await waitForStop(io, (stop) => {
    process.stdin.once("end", stop);
    process.stdin.once("close", stop);
  });
  await served.close();
  // Stdin read no more, so nothing of it keeps the process alive.
  process.stdin.unpipe(lines);
  process.stdin.pause();
}

/** `--allow-origin a,b`: the origins whose pages may call the server besides its own, checked now. */
function allowedOrigins(value: string | boolean | undefined): string[] {
  if (typeof value !== "string") return [];
  const origins = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  try {
    originSet(origins);
  } catch (error) {
    throw usageError(`--allow-origin: ${messageOf(error).replace(/^\S+ /, "")} (got "${value}").`);
  }
  return origins;
}

async function serveHttp(
  { runtime, approvalHint }: Awaited<ReturnType<typeof openMcpRuntime>>,
  listen: { host: string; port: number },
  origins: string[],
  io: CliIo,
): Promise<void> {
  const { createCodemodeMcpHandler } = await import("../mcp/create-codemode-mcp-handler.js");
  const handler = createCodemodeMcpHandler({
    runtime,
    ...(approvalHint === undefined ? {} : { approvalHint }),
    // A browser page is refused unless it is of the server's own origin or --allow-origin names it.
    allowedOrigins: origins,
    // Loopback Host only (a DNS name rebound to 127.0.0.1 is refused): the local user's own runtime.
    authorize: (request) =>
      LOOPBACK.test(request.headers.get("host") ?? "")
        ? { unscoped: true }
        : new Response("Forbidden: loopback clients only.", { status: 403 }),
  });
  const answer = fetchRequestListener(handler);
  const server: Server = createServer((request, response) => {
    let pathname: string;
    try {
      pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    } catch {
      badRequest(request, response, "the request target is not a valid URL.");
      return;
    }
    if (pathname !== MCP_HTTP_PATH) {
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
    ["@modelcontextprotocol/server", () => import("@modelcontextprotocol/server")],
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
  if (listen === undefined && values["allow-origin"] !== undefined)
    throw usageError("--allow-origin applies to --http only.");
  const origins = allowedOrigins(values["allow-origin"]);
  await requirePeers(typeof values["proxy"] === "string");
  // On stdio the app's module must not print into the protocol, from the moment it is loaded.
  const reserved = listen === undefined ? reserveStdout() : undefined;
  try {
    const opened = await openMcpRuntime(values, io);
    try {
      if (listen === undefined) await serveStdio(opened, reserved?.protocol ?? process.stdout, io);
      else await serveHttp(opened, listen, origins, io);
      return 0;
    } finally {
      await opened.close();
    }
  } finally {
    reserved?.restore();
  }
}
