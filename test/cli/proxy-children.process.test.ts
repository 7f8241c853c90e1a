/**
 * Every door that starts upstream children ends them when it is stopped, a child still starting
 * included: `ai-codemode mcp --proxy` on stdio (SIGTERM, SIGINT, its stdin closed by the host) and
 * a one-shot command with `--proxy` (`approve`, SIGTERM and SIGINT). Real processes: the upstream
 * sleeps before it speaks MCP and records its pid; after the stop, that pid must be gone.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../mcp/support/proxy-scenario.js";
import { tempFolder } from "../support/temp-folder.js";

const SLOW_SERVER = fileURLToPath(new URL("../mcp/fixtures/slow-server.mjs", import.meta.url));

/** Children of a test still running when it ends (a failed assertion): killed so nothing outlives the suite. */
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** Whether `pid` runs: a zombie (ended, its parent gone and not yet reaped by init) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  try {
    // The state follows the command name in parentheses: "pid (comm) S …".
    return readFileSync(stat, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** Polls `check` every 50 ms, at most `limitMs` (generous: the machine is loaded). */
async function until(check: () => boolean, limitMs = 30_000): Promise<boolean> {
  const end = performance.now() + limitMs;
  while (!check() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

/** servers.json with one upstream that is slow to start; its pid goes to the returned file. */
function slowConfig(folder: string): { file: string; pids: string } {
  const pids = join(folder, "slow-pids.txt");
  const file = join(folder, "servers.json");
  writeFileSync(
    file,
    JSON.stringify({
      store: `file:${join(folder, "codemode.db")}`,
      startTimeoutMs: 600_000,
      mcpServers: { slow: { command: process.execPath, args: [SLOW_SERVER], env: { SLOW_PIDS: pids } } },
    }),
  );
  return { file, pids };
}

function start(folder: string, args: string[]): ChildProcessWithoutNullStreams & { output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: folder,
    env: { PATH: process.env["PATH"] ?? "", HOME: folder },
    stdio: ["pipe", "pipe", "pipe"],
  });
  leftovers.push(child.pid!);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** The pid of the slow upstream, once it was spawned. */
async function upstreamPid(pids: string): Promise<number> {
  expect(await until(() => existsSync(pids) && readFileSync(pids, "utf8").includes("\n"))).toBe(true);
  const pid = Number(readFileSync(pids, "utf8").trim().split("\n")[0]);
  leftovers.push(pid);
  return pid;
}

const send = (child: ChildProcessWithoutNullStreams, message: object) =>
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

/** `mcp --proxy` on stdio, initialized and asked for its tools (which start the upstream in the background). */
async function stdioProxy(folder: string, file: string) {
  const child = start(folder, ["mcp", "--proxy", file]);
  send(child, {
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host", version: "1.0.0" } },
  });
  send(child, { method: "notifications/initialized" });
  send(child, { id: 2, method: "tools/list" });
  return child;
}

describe("a stopped door ends the upstream children it started, one still starting included", () => {
  for (const stop of ["SIGTERM", "SIGINT", "stdin closed"] as const) {
    it(`ai-codemode mcp --proxy on stdio: ${stop}`, async () => {
      const folder = tempFolder("codemode-proxy-children-");
      const { file, pids } = slowConfig(folder);
      const child = await stdioProxy(folder, file);
      const pid = await upstreamPid(pids);
      // tools/list was answered while the upstream still sleeps.
      expect(await until(() => child.output().includes('"id":2'))).toBe(true);
      expect(child.output()).toContain("still starting");
      if (stop === "stdin closed") child.stdin.end();
      else child.kill(stop);
      await exited(child);
      expect(await until(() => !alive(pid))).toBe(true);
    });
  }

  it("a script that exits without closing its createCodemodeMcpProxy (process.exit) ends the starting child", async () => {
    const folder = tempFolder("codemode-proxy-children-");
    const pids = join(folder, "slow-pids.txt");
    const mcpEntry = pathToFileURL(fileURLToPath(new URL("../../dist/mcp.js", import.meta.url))).href;
    writeFileSync(
      join(folder, "script.mjs"),
      `import { existsSync } from "node:fs";
import { createCodemodeMcpProxy } from ${JSON.stringify(mcpEntry)};
const proxy = createCodemodeMcpProxy({
  servers: { slow: { command: process.execPath, args: [${JSON.stringify(SLOW_SERVER)}], env: { SLOW_PIDS: ${JSON.stringify(pids)} } } },
  runtime: { store: ${JSON.stringify(`file:${join(folder, "codemode.db")}`)} },
  startTimeoutMs: 600000,
  stderr: "ignore",
});
await proxy.currentRuntime();
while (!existsSync(${JSON.stringify(pids)})) await new Promise((resolve) => setTimeout(resolve, 20));
process.exit(0);
`,
    );
    const child = spawn(process.execPath, [join(folder, "script.mjs")], { cwd: folder, stdio: "ignore" });
    leftovers.push(child.pid!);
    // Listened for at once: the script may exit before the upstream's pid file is seen here.
    const scriptExited = new Promise((resolve) => child.once("exit", resolve));
    const pid = await upstreamPid(pids);
    await scriptExited;
    expect(await until(() => !alive(pid))).toBe(true);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`ai-codemode approve --proxy: ${signal} while the upstream starts`, async () => {
      const folder = tempFolder("codemode-proxy-children-");
      const { file, pids } = slowConfig(folder);
      const child = start(folder, ["approve", "0123456789abcdef", "--proxy", file]);
      child.stdin.end();
      const pid = await upstreamPid(pids);
      child.kill(signal);
      const code = await exited(child);
      expect(code).toBe(signal === "SIGTERM" ? 143 : 130);
      expect(await until(() => !alive(pid))).toBe(true);
    });
  }
});
