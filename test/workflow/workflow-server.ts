/**
 * The fixture app's server as a real process (`fixtures/app/server.mjs`): started, SIGKILLed and started again
 * on the same folder, with one door (`POST /decide`) and the run's result (`POST /result`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { WorkflowApp } from "./workflow-app.js";

const WORKFLOW_SECRET = "codemode-workflow-test-secret-0123456789abcdef";

export interface WorkflowServer {
  base: string;
  runId: string | undefined;
  child: ChildProcess;
  post(path: string, body: unknown): Promise<unknown>;
  kill(): Promise<void>;
}

/** The environment of every process of the app (server, CLI): store, effects file, secret, a short lease. */
export function appEnv(app: WorkflowApp): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CODEMODE_DB: app.db,
    CODEMODE_EFFECTS_FILE: app.effectsFile,
    CODEMODE_WORKFLOW_SECRET: WORKFLOW_SECRET,
    CODEMODE_LEASE_MS: "1500",
    WORKFLOW_LOCAL_DATA_DIR: app.dataDir,
    // The Workflow SDK re-runs a step whose process crashed once its ownership lease ends (860 s by default).
    WORKFLOW_INLINE_OWNERSHIP_LEASE_SECONDS: "3",
  };
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export { until };

/** Starts the server; with `start`, it starts a run of the program. */
export async function startServer(
  app: WorkflowApp,
  start?: { code: string; toolCallId: string; recheckAfterMs: number },
): Promise<WorkflowServer> {
  const info = join(app.folder, `server-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const args = start === undefined ? [] : [start.code, start.toolCallId, String(start.recheckAfterMs)];
  const child = spawn(process.execPath, [join(app.folder, "server.mjs"), info, ...args], {
    cwd: app.folder,
    env: appEnv(app),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const { base, runId } = await until(() => {
    if (child.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
    return existsSync(info) ? (JSON.parse(readFileSync(info, "utf8")) as { base: string; runId?: string }) : undefined;
  }, "the server");
  rmSync(info);
  return {
    base,
    runId,
    child,
    async post(path, body) {
      const response = await fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body) });
      return response.json();
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
