/**
 * The fixture app's server as a real process (`fixtures/app/server.mjs`): started, SIGKILLed and started again
 * on the same folder, with its doors (`POST /decide` as the chat's decision endpoint, `/inspector/…` the inspector's
 * API and approval links) and the run's result (`POST /result`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { WorkflowApp } from "./workflow-app.js";

const WORKFLOW_SECRET = "codemode-workflow-test-secret-0123456789abcdef";
/** The secret the app's inspector verifies approval links with (the MCP server's `approvalLinks.secret`). */
export const LINK_SECRET = "codemode-workflow-link-secret-0123456789abcdef";
/** The chat route's `toolApprovalSecret` (and the chat step's `chat.toolApprovalSecret`). */
export const TOOL_APPROVAL_SECRET = "codemode-workflow-chat-secret-0123456789abcdef";

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
    CODEMODE_LINK_SECRET: LINK_SECRET,
    CODEMODE_TOOL_APPROVAL_SECRET: TOOL_APPROVAL_SECRET,
    CODEMODE_LEASE_MS: "1500",
    WORKFLOW_LOCAL_DATA_DIR: app.dataDir,
    // The Workflow SDK re-runs a step whose process crashed once its ownership lease ends (860 s by default). Short
    // enough for a test, long enough that a step still running on a loaded machine is not presumed dead: at 3 s a
    // slow step got a second, concurrent attempt while its owner lived, and that run never ended after the kill.
    WORKFLOW_INLINE_OWNERSHIP_LEASE_SECONDS: "20",
  };
}

/** Longest wait for one answer of the app server (a run's result waits for the workflow to end). */
export const REQUEST_TIMEOUT_MS = 150_000;

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export { until };

/**
 * Waits until the run sits on a hook with no step in flight (the world idle): a process killed then leaves nothing
 * half done. Killing it while the step that follows the hook's creation runs is another case (the world must
 * recover an in-flight step), not "after the pause".
 */
export async function untilWaitingOnHook(server: WorkflowServer, runId: string): Promise<void> {
  await until(async () => {
    const events = (await server.post("/events", { runId })) as string[];
    const count = (type: string) => events.filter((event) => event === type).length;
    const idle = count("step_created") === count("step_completed") && events.at(-1) !== "hook_received";
    return idle && count("hook_created") > count("hook_disposed") ? true : undefined;
  }, "the run waiting on its hook");
}

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
  let started: { base: string; runId?: string };
  try {
    started = await until(() => {
      if (child.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
      return existsSync(info)
        ? (JSON.parse(readFileSync(info, "utf8")) as { base: string; runId?: string })
        : undefined;
    }, "the server");
  } catch (error) {
    // A server that never said it listens is not handed to the test, so it ends here.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    throw error;
  }
  rmSync(info, { force: true });
  const { base, runId } = started;
  return {
    base,
    runId,
    child,
    async post(path, body) {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }).catch((error: unknown) => {
        throw new Error(`POST ${path} to the app server got no answer: ${String(error)}; its stderr: ${stderr}`);
      });
      return response.json();
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
