/**
 * `ai-codemode mcp --http` as a real child process on 127.0.0.1 (the built CLI serving an app's
 * `--runtime` module), sent what a hostile peer or a local web page sends: a Host header or request
 * target that is not a URL (answered 400, the process serves on), and an `Origin` of another local
 * page (refused unless `--allow-origin` names it; the server's own origin passes).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLI } from "./support/proxy-scenario.js";
import { tempFolder } from "../support/temp-folder.js";
import { listeningUrl } from "./support/listening-url.js";

/** Writes an app runtime module in `folder` (one connector, its journal in the folder). */
function writeRuntimeModule(folder: string): string {
  const distIndex = pathToFileURL(resolve(import.meta.dirname, "../../dist/index.js")).href;
  const file = join(folder, "codemode.config.mjs");
  writeFileSync(
    file,
    `import { createCodemodeRuntime } from ${JSON.stringify(distIndex)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(folder, "codemode.db")}`)},
  connectors: { math: { methods: { double: { execute: ({ n }) => n * 2 } } } },
});\n`,
  );
  return file;
}

/** Starts `ai-codemode mcp --http 127.0.0.1:0 --runtime …` with `extra` flags; stopped when the test ends. */
async function startServer(extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const folder = tempFolder("codemode-mcp-hostile-");
  const module = writeRuntimeModule(folder);
  return startCli(folder, ["mcp", "--http", "127.0.0.1:0", "--runtime", module, ...extra]);
}

/** Runs the built CLI with `args` in `folder` until it prints the URL it serves; stopped when the test ends. */
function startCli(folder: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: folder,
    env: { PATH: process.env["PATH"] ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exited;
  });
  return listeningUrl(child);
}

/** Writes `head` (request line and headers, as given, with `connection: close`) on a raw socket; resolves with the status line. */
function rawStatusLine(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    // Written without half-closing: a server may drop a half-closed connection before answering a GET.
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on("end", () => done(text.split("\r\n")[0] ?? ""));
    socket.on("error", fail);
  });
}

/** POSTs `tools/list` without a session with `headers`; resolves with the status. */
function postStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode ?? 0));
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  });
}

async function stillServes(url: string): Promise<void> {
  const client = new Client({ name: "hostile-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => math.double({ n: 21 })" } });
    expect(out.structuredContent).toMatchObject({ status: "completed", result: 42 });
  } finally {
    await client.close();
  }
}

describe("ai-codemode mcp --http against hostile requests (a real process on 127.0.0.1)", () => {
  it("answers 400 to a Host header or target that is not a URL, and keeps serving", async () => {
    const server = await startServer();
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const post = (host: string, target = "/mcp") =>
      `POST ${target} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
      `accept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
    expect(await rawStatusLine(server.url, post("["))).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawStatusLine(server.url, post("127.0.0.1:99999"))).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawStatusLine(server.url, post("127.0.0.1", "//["))).toMatch(/^HTTP\/1\.1 400 /);
    expect(server.child.exitCode).toBeNull();
    await stillServes(server.url);
  });

  it("inspect --web answers 400 to a Host header that is not a URL too, and keeps serving", async () => {
    const folder = tempFolder("codemode-inspect-hostile-");
    const server = await startCli(folder, ["inspect", "--web", "--port", "0", "--runtime", writeRuntimeModule(folder)]);
    const get = (host: string) => `GET / HTTP/1.1\r\nHost: ${host}\r\nconnection: close\r\n\r\n`;
    expect(await rawStatusLine(server.url, get("["))).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawStatusLine(server.url, get("127.0.0.1:99999"))).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawStatusLine(server.url, get(new URL(server.url).host))).toMatch(/^HTTP\/1\.1 200 /);
    expect(server.child.exitCode).toBeNull();
  });

  it("refuses another local page's Origin, accepts its own origin, and others only when --allow-origin names them", async () => {
    const server = await startServer();
    const own = new URL(server.url).origin;
    expect(await postStatus(server.url, { origin: "http://localhost:5173" })).toBe(403);
    expect(await postStatus(server.url, { origin: "http://127.0.0.1:1" })).toBe(403);
    expect(await postStatus(server.url, { origin: "null" })).toBe(403);
    // Accepted: the origin check passes and the request reaches MCP (400: no session header).
    expect(await postStatus(server.url, { origin: own })).toBe(400);
    expect(await postStatus(server.url, {})).toBe(400);

    const allowing = await startServer(["--allow-origin", "http://localhost:5173, http://localhost:6274"]);
    expect(await postStatus(allowing.url, { origin: "http://localhost:5173" })).toBe(400);
    expect(await postStatus(allowing.url, { origin: "http://localhost:6274" })).toBe(400);
    expect(await postStatus(allowing.url, { origin: "http://localhost:8080" })).toBe(403);
  });
});
