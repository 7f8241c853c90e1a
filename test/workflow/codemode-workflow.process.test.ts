/**
 * `ai-codemode/workflow` on the Workflow SDK's local world: a program with two reads and an effect that needs
 * approval runs as a durable step of a `"use workflow"` function; its pause makes the workflow wait on a hook; a
 * decision made by a door of the process wakes it; a forged hook payload changes nothing.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkflowApp, type WorkflowApp } from "./workflow-app.js";

const SECRET = "codemode-workflow-test-secret-0123456789abcdef";
const PROGRAM = `async () => {
  const first = await billing.get_charge({ id: "ch_1" });
  const second = await billing.get_charge({ id: "ch_2" });
  return billing.refund({ chargeId: first.id, amount: first.amount + second.amount });
}`;

let app: WorkflowApp;
// biome-ignore lint/suspicious/noExplicitAny: the SDK's modules are loaded from the app folder at run time.
let sdk: { start: any; resumeHook: any; getRun: any; world: any; runtime: any };

async function load(app: WorkflowApp, path: string) {
  return import(pathToFileURL(join(app.folder, "node_modules", path)).href);
}

beforeAll(async () => {
  app = await createWorkflowApp();
  process.env["CODEMODE_WORKFLOW_SECRET"] = SECRET;
  process.env["CODEMODE_DB"] = app.db;
  process.env["CODEMODE_EFFECTS_FILE"] = app.effectsFile;
  const { createWorld } = await load(app, "@workflow/world-local/dist/index.js");
  const { setWorld } = await load(app, "@workflow/core/dist/runtime.js");
  const api = await load(app, "workflow/dist/api.js");
  const world = createWorld({ dataDir: app.dataDir, recoverActiveRuns: false });
  let handler: ((request: Request) => Promise<Response>) | undefined;
  world.registerHandler("__wkf_workflow_", async (request: Request) => {
    handler ??= (await import(pathToFileURL(join(app.outDir, "combined.mjs")).href)).POST;
    return handler!(request);
  });
  await world.start?.();
  setWorld(world);
  // The door: the app's own runtime module (same store, same tools), as a chat route would import it.
  const { runtime } = await import(pathToFileURL(join(app.folder, "lib", "codemode.mjs")).href);
  const { wakeCodemodeWorkflows } = await load(app, "ai-codemode/dist/workflow.js");
  wakeCodemodeWorkflows();
  sdk = { start: api.start, resumeHook: api.resumeHook, getRun: api.getRun, world, runtime };
}, 240_000);

afterAll(async () => {
  await sdk?.runtime.close();
  await sdk?.world.close?.();
  await app?.remove();
  delete process.env["CODEMODE_WORKFLOW_SECRET"];
  delete process.env["CODEMODE_DB"];
  delete process.env["CODEMODE_EFFECTS_FILE"];
});

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function startPaused(toolCallId: string) {
  const run = await sdk.start({ workflowId: "workflow//./workflows/refund//refundFlow" }, [PROGRAM, toolCallId]);
  const paused = await until(async () => {
    const list = await sdk.runtime.executions(50);
    return list.find(
      (e: { toolCallId?: string; status: string }) => e.toolCallId === toolCallId && e.status === "paused",
    );
  }, "the paused execution");
  // The workflow waits on the execution's hook.
  const hook = await until(async () => {
    const hooks = await sdk.world.hooks.list({ runId: run.runId });
    return hooks.data.find((h: { token: string }) => h.token.includes(paused.executionId));
  }, "the workflow's hook");
  return { run, executionId: paused.executionId as string, hook };
}

describe("codemodeWorkflowTool on the local world", () => {
  it("pauses on a hook; an approval by a door wakes it; the effect runs once, the reads once", async () => {
    const { run, executionId, hook } = await startPaused("call-approve");
    expect(executionId).toMatch(/^wf_[0-9a-f]{40}$/);
    expect(hook.token).not.toContain(SECRET);
    expect(app.effects().filter((line) => line.startsWith("effect"))).toEqual([]);
    const approved = await sdk.runtime.approve({ executionId });
    expect(approved.status).toBe("completed");
    const result = await run.returnValue;
    expect(result).toMatchObject({ status: "completed", executionId, result: { refundId: "re_ch_1" } });
    const mine = app.effects();
    expect(mine.filter((line) => line === "effect ch_1")).toHaveLength(1);
    expect(mine.filter((line) => line === "read ch_1")).toHaveLength(1);
    expect(mine.filter((line) => line === "read ch_2")).toHaveLength(1);
  }, 240_000);

  it("a forged hook payload (the right token, an approval inside) changes nothing: the workflow waits again", async () => {
    const { run, executionId, hook } = await startPaused("call-forged");
    await sdk.resumeHook(hook.token, { approved: true, executionId, decision: "approve" });
    // The step read the journal (still paused) and the workflow waits on a new hook of the same token.
    await until(async () => {
      const hooks = await sdk.world.hooks.list({ runId: run.runId });
      return hooks.data.find(
        (h: { token: string; hookId: string }) => h.token === hook.token && h.hookId !== hook.hookId,
      );
    }, "the workflow's next hook");
    const detail = await sdk.runtime.execution(executionId);
    expect(detail.status).toBe("paused");
    expect(app.effects()).not.toContain("effect ch_1-forged");
    const rejected = await sdk.runtime.reject({ executionId, reason: "not this one" });
    expect(rejected.status).toBe("rejected");
    const result = await run.returnValue;
    expect(result).toMatchObject({ status: "error", kind: "rejected", executionId });
  }, 240_000);
});
