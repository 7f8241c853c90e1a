/**
 * How the proxy starts its upstream servers (real child processes): a server that answers
 * `initialize` and never `tools/list` is given up after `startTimeoutMs` while the others work;
 * a server that exits is explained (command, exit code, its stderr, the environment hint);
 * `passEnv` hands a variable through; closing the runtime the proxy returned stops the children.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { createCodemodeMcpProxy, type CodemodeMcpProxy } from "../../../src/mcp/proxy/create-codemode-mcp-proxy.js";
import { parseProxyConfig, type UpstreamConfig } from "../../../src/mcp/proxy/proxy-config.js";
import { tempFolder } from "../../support/temp-folder.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const NOTES_SERVER = fixture("notes-server.mjs");
const SILENT_SERVER = fixture("silent-server.mjs");
const ENV_SERVER = fixture("env-server.mjs");

/** Room for a healthy child to start on a loaded machine; the silent one is given up after it. */
const START_TIMEOUT_MS = 4_000;

const proxies: CodemodeMcpProxy[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

function proxyOver(folder: string, servers: Record<string, UpstreamConfig>, options: Record<string, unknown> = {}) {
  const proxy = createCodemodeMcpProxy({
    servers,
    runtime: { store: `file:${join(folder, "codemode.db")}` },
    stderr: "ignore",
    ...options,
  });
  proxies.push(proxy);
  return proxy;
}

function pids(file: string): number[] {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").map(Number) : [];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded) until `pid` is gone. */
async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100 && alive(pid); attempt++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe("the proxy's upstream starts", () => {
  it("gives up on a server that never lists its tools after startTimeoutMs; the others work; a later request retries it", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const silentStarts = join(folder, "silent.txt");
    let clock = 1_000;
    const proxy = proxyOver(
      folder,
      {
        silent: { command: process.execPath, args: [SILENT_SERVER], env: { SILENT_STARTS: silentStarts } },
        notes: { command: process.execPath, args: [NOTES_SERVER] },
      },
      { startTimeoutMs: START_TIMEOUT_MS, retryMs: 60_000, _internal: { now: () => clock } },
    );
    const began = performance.now();
    const runtime = await proxy.runtime();
    // The bound the issue asks for: the healthy server is usable within startTimeoutMs + 1 s.
    expect(performance.now() - began).toBeLessThan(START_TIMEOUT_MS + 1_000);
    expect(await runtime.execute({ code: "async () => notes.list_notes({})" })).toMatchObject({
      status: "completed",
      result: { notes: [] },
    });
    const description = runtime.tool().description ?? "";
    expect(description).toMatch(/silent: Unavailable now: the MCP server "silent" did not start/);
    expect(description).toMatch(/did not start: no answer to initialize and tools\/list within startTimeoutMs 4000 ms/);
    expect(description).toContain(SILENT_SERVER);
    expect(description).toContain("silent-server: started, waiting for the registry");
    expect(description).toMatch(/list their names in "passEnv"/);
    // The stuck child was stopped, and the failure is not cached for good.
    const [first] = pids(silentStarts);
    expect(await gone(first!)).toBe(true);
    expect(await proxy.runtime()).toBe(runtime);
    clock += 60_000;
    const retried = await proxy.runtime();
    expect(retried).not.toBe(runtime);
    expect(pids(silentStarts)).toHaveLength(2);
  });

  it("currentRuntime answers at once while a server hangs: it says which are still starting; other programs run", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const proxy = proxyOver(
      folder,
      {
        silent: { command: process.execPath, args: [SILENT_SERVER] },
        notes: { command: process.execPath, args: [NOTES_SERVER] },
      },
      // The hung server is still within its start for the whole test.
      { startTimeoutMs: 600_000 },
    );
    let runtime = await proxy.currentRuntime();
    expect(runtime.tool().description).toMatch(/silent: Starting: the MCP server "silent" is still starting/);
    // Bounded: the healthy server comes up while the hung one still hangs.
    for (let attempt = 0; attempt < 600 && /notes: Starting/.test(String(runtime.tool().description)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      runtime = await proxy.currentRuntime();
    }
    const description = runtime.tool().description ?? "";
    expect(description).not.toMatch(/notes: Starting/);
    expect(description).toMatch(/- silent: Starting: the MCP server "silent" is still starting/);
    expect(description).toMatch(
      /Starting: the MCP server "silent" is still starting \(for \d+ s; it is given up after startTimeoutMs 600000 ms\)/,
    );
    expect(JSON.stringify(await runtime.describe("silent"))).toContain("is still starting");
    expect(await runtime.execute({ code: "async () => notes.list_notes({})" })).toMatchObject({
      status: "completed",
      result: { notes: [] },
    });
  });

  it("a program naming a server still starting waits for its start and says why it failed; approvals wait for every start", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const proxy = proxyOver(
      folder,
      {
        silent: { command: process.execPath, args: [SILENT_SERVER] },
        notes: { command: process.execPath, args: [NOTES_SERVER] },
      },
      { startTimeoutMs: START_TIMEOUT_MS },
    );
    let runtime = await proxy.currentRuntime();
    for (let attempt = 0; attempt < 600 && /notes: Starting/.test(String(runtime.tool().description)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      runtime = await proxy.currentRuntime();
    }
    const paused = await runtime.execute({ code: "async () => notes.add_note({ text: 'early' })" });
    expect(paused).toMatchObject({ status: "paused" });
    const call = await runtime.execute({ code: "async () => silent.anything({})" });
    expect(call).toMatchObject({ status: "error" });
    expect(JSON.stringify(call)).toMatch(
      /silent has no method \\"anything\\"\. \(it has no methods: Unavailable now: the MCP server \\"silent\\" did not start: no answer to initialize and tools\/list within startTimeoutMs 4000 ms/,
    );
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: { count: 1 },
    });
    expect((await proxy.currentRuntime()).tool().description).toMatch(/silent: Unavailable now: .* did not start/);
  });

  it("explains a server that exits: the command, the exit code, its stderr and the variables it did not get", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const proxy = proxyOver(folder, {
      env: {
        command: process.execPath,
        args: [ENV_SERVER],
        passEnv: ["NO_SUCH_VARIABLE_FOR_TEST"],
        // The server prints what it was given on stderr: the reason the model reads must not carry it.
        env: { ECHO_ON_EXIT: "tok-3f9a-secret" },
      },
    });
    const description = (await proxy.runtime()).tool().description ?? "";
    expect(description).toContain("echo: [redacted]");
    expect(description).not.toContain("tok-3f9a-secret");
    expect(description).toMatch(
      /the MCP server "env" did not start: exited with code 2 before listing its tools \(command: .*env-server\.mjs\)/,
    );
    expect(description).toContain("UPSTREAM_TOKEN is not set");
    expect(description).toMatch(/Not set in the proxy's environment: NO_SUCH_VARIABLE_FOR_TEST/);
  });

  it("redacts the values of ${VAR}s in args (and the child's stderr quoting them) from every reason the model reads", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const secret = "argtok-7c1e-secret";
    const { mcpServers } = parseProxyConfig(
      JSON.stringify({
        mcpServers: { env: { command: process.execPath, args: [ENV_SERVER, "--token=${ARG_TOKEN}"] } },
      }),
      { ARG_TOKEN: secret },
      "servers.json",
    );
    const runtime = await proxyOver(folder, mcpServers).runtime();
    const description = runtime.tool().description ?? "";
    expect(description).toMatch(
      /exited with code 2 before listing its tools \(command: .*env-server\.mjs --token=\[redacted\]\)/,
    );
    expect(description).toContain("env-server: args: --token=[redacted]");
    const seen = [description, JSON.stringify(await runtime.describe("env"))];
    const call = await runtime.execute({ code: "async () => env.token_length({})" });
    seen.push(JSON.stringify(call));
    for (const text of seen) expect(text).not.toContain(secret);
  });

  it("redacts the values of ${VAR}s in a url (and a body echoing it) from every reason the model reads", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const secret = "urltok-93ab-secret";
    // A hostile upstream: refuses every request with a body that echoes the URL it was sent.
    const server: Server = createServer((request, response) => {
      response.writeHead(401, { "content-type": "text/plain" }).end(`denied for ${request.url}`);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    onTestFinished(() => new Promise<void>((done) => server.close(() => done())));
    const { port } = server.address() as AddressInfo;
    const { mcpServers } = parseProxyConfig(
      JSON.stringify({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp?key=\${URL_TOKEN}` } } }),
      { URL_TOKEN: secret },
      "servers.json",
    );
    const runtime = await proxyOver(folder, mcpServers).runtime();
    const description = runtime.tool().description ?? "";
    expect(description).toContain(`denied for /mcp?key=[redacted] (url: http://127.0.0.1:${port}/mcp?key=[redacted])`);
    const seen = [description, JSON.stringify(await runtime.describe("remote"))];
    seen.push(JSON.stringify(await runtime.execute({ code: "async () => remote.anything({})" })));
    for (const text of seen) expect(text).not.toContain(secret);
  });

  it("passes a variable named in passEnv from the proxy's environment, and no other", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    vi.stubEnv("UPSTREAM_TOKEN", "from-the-proxy");
    const without = proxyOver(folder, { env: { command: process.execPath, args: [ENV_SERVER] } });
    expect((await without.runtime()).tool().description).toMatch(/exited with code 2/);
    const withPass = proxyOver(folder, {
      env: { command: process.execPath, args: [ENV_SERVER], passEnv: ["UPSTREAM_TOKEN"] },
    });
    const runtime = await withPass.runtime();
    expect(await runtime.execute({ code: "async () => env.token_length({})" })).toMatchObject({
      status: "completed",
      result: { length: "from-the-proxy".length },
    });
  });

  it("closing the runtime the proxy returned stops its children (a script holding only the runtime exits)", async () => {
    const folder = tempFolder("codemode-proxy-start-");
    const startsFile = join(folder, "starts.txt");
    const proxy = proxyOver(folder, {
      notes: { command: process.execPath, args: [NOTES_SERVER], env: { NOTES_STARTS: startsFile } },
    });
    const runtime = await proxy.runtime();
    const [pid] = pids(startsFile);
    expect(alive(pid!)).toBe(true);
    await runtime.close();
    expect(await gone(pid!)).toBe(true);
    await expect(proxy.runtime()).rejects.toThrow(/closed/);
  });
});
