/**
 * The process running the workflow (the app's server: local world, steps, the chat-style decision door) is
 * SIGKILLed before the pause, after the pause, and after the approval while the effect runs; started again on the
 * same folder, the workflow completes with the effect run exactly once each time.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { workflowExecutionId } from "../../src/workflow/workflow-step.js";
import { createWorkflowApp, type WorkflowApp } from "./workflow-app.js";
import { appEnv, startServer, until, untilWaitingOnHook, type WorkflowServer } from "./workflow-server.js";

const program = (charge: string) => `async () => {
  const first = await billing.get_charge({ id: "${charge}-1" });
  const second = await billing.get_charge({ id: "${charge}-2" });
  return billing.refund({ chargeId: first.id, amount: first.amount + second.amount });
}`;
const RECHECK_AFTER_MS = 2000;

let app: WorkflowApp;
let journal: DurableRuntime;
const servers: WorkflowServer[] = [];

// Each test has its own app (folder, world, journal); its servers end with it.
beforeEach(async () => {
  app = await createWorkflowApp();
  journal = createDurableRuntime({ store: app.db });
}, 240_000);

afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  await journal?.close();
  await app?.remove();
});

async function serve(start?: { code: string; toolCallId: string }, recheckAfterMs = RECHECK_AFTER_MS) {
  const server = await startServer(app, start && { ...start, recheckAfterMs });
  servers.push(server);
  return server;
}

/** The local world's hook records. */
function hookFiles(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
    );
  return existsSync(app.dataDir) ? walk(app.dataDir).filter((file) => file.includes("hook")) : [];
}

const lines = (prefix: string) => app.effects().filter((line) => line === prefix);
const status = async (executionId: string) => (await journal.execution(executionId))?.status;

describe("the workflow survives SIGKILL of its process", () => {
  it("(b) after the pause: restarted, a decision resumes it; one effect", async () => {
    // No recheck within the test: the workflow sits on its hook (the world idle) when killed, and only the hook
    // (woken by the restarted process's decision) ends the wait.
    const first = await serve({ code: program("b"), toolCallId: "call-b" }, 3_600_000);
    const executionId = await workflowExecutionId(first.runId!, "call-b");
    await until(async () => ((await status(executionId)) === "paused" ? true : undefined), "the pause");
    // The workflow waits: its hook for the execution is in the world's data, and no step is in flight.
    await until(
      () => (hookFiles().some((file) => readFileSync(file, "utf8").includes(executionId)) ? true : undefined),
      "the hook",
    );
    await untilWaitingOnHook(first, first.runId!);
    await first.kill();
    const second = await serve();
    expect(await second.post("/decide", { executionId, approved: true })).toMatchObject({ status: "completed" });
    expect(await second.post("/result", { runId: first.runId })).toMatchObject({
      status: "completed",
      executionId,
      result: { refundId: "re_b-1" },
    });
    expect(lines("effect b-1")).toHaveLength(1);
  }, 240_000);

  it("(a) before the pause, mid-read: restarted, the step takes the run over after its lease and pauses; one effect", async () => {
    writeFileSync(join(app.folder, "slow-read-a-2"), "");
    const first = await serve({ code: program("a"), toolCallId: "call-a" });
    const executionId = await workflowExecutionId(first.runId!, "call-a");
    await until(() => (app.effects().includes("slow read-a-2") ? true : undefined), "the slow read");
    expect(await status(executionId)).toBe("running");
    await first.kill();
    const second = await serve();
    await until(async () => ((await status(executionId)) === "paused" ? true : undefined), "the pause after take-over");
    expect(lines("effect a-1")).toHaveLength(0);
    expect(await second.post("/decide", { executionId, approved: true })).toMatchObject({ status: "completed" });
    expect(await second.post("/result", { runId: first.runId })).toMatchObject({
      status: "completed",
      result: { refundId: "re_a-1" },
    });
    expect(lines("effect a-1")).toHaveLength(1);
  }, 240_000);

  it("(c) after the approval while the effect runs: restarted, the effect is never run again; the workflow ends", async () => {
    writeFileSync(join(app.folder, "slow-effect"), "");
    const first = await serve({ code: program("c"), toolCallId: "call-c" });
    const executionId = await workflowExecutionId(first.runId!, "call-c");
    await until(async () => ((await status(executionId)) === "paused" ? true : undefined), "the pause");
    void first.post("/decide", { executionId, approved: true }).catch(() => undefined);
    await until(() => (app.effects().includes("slow effect") ? true : undefined), "the effect running");
    await first.kill();
    const second = await serve();
    // Its outcome is unknown (the process died mid-call): the program gets `interrupted`, the call never runs again.
    expect(await second.post("/result", { runId: first.runId })).toMatchObject({
      status: "error",
      kind: "interrupted",
      executionId,
    });
    expect(lines("effect c-1")).toHaveLength(1);
  }, 240_000);

  it("a decision from the CLI in another process resumes the waiting workflow (no recheck needed)", async () => {
    // A recheck far beyond the test: only the hook can end the wait.
    const server = await serve({ code: program("d"), toolCallId: "call-d" }, 3_600_000);
    const executionId = await workflowExecutionId(server.runId!, "call-d");
    await until(async () => ((await status(executionId)) === "paused" ? true : undefined), "the pause");
    const cli = join(app.folder, "node_modules", "ai-codemode", "dist", "cli.js");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, "approve", executionId, "--runtime", join(app.folder, "lib", "cli-runtime.mjs")],
      { cwd: app.folder, env: { ...appEnv(app), APP_WORKFLOW_BASE: server.base }, timeout: 120_000 },
    );
    expect(stdout).toContain("completed");
    expect(await server.post("/result", { runId: server.runId })).toMatchObject({
      status: "completed",
      result: { refundId: "re_d-1" },
    });
    expect(lines("effect d-1")).toHaveLength(1);
  }, 240_000);
});
