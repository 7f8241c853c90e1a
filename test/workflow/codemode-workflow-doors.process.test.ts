/**
 * The doors beside the chat's decision endpoint and the CLI: the inspector's API and an approval link, each served by
 * the app's server process (`createCodemodeInspector` mounted at `/inspector`) and reached by a real HTTP request,
 * wake the workflow waiting on the execution's hook. The run's recheck is far beyond the test: only the hook ends
 * the wait. One effect each. The inspector shows the execution with the workflow run it belongs to (a link to the
 * local web UI), and the Workflow SDK's own CLI (`workflow inspect`) shows the run with the program's step.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLink } from "../../src/mcp/approval-links.js";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import { workflowExecutionId } from "../../src/workflow/workflow-step.js";
import { chromiumPath, launchChromium } from "../support/chromium.js";
import { createWorkflowApp, type WorkflowApp } from "./workflow-app.js";
import { appEnv, LINK_SECRET, REQUEST_TIMEOUT_MS, startServer, until, type WorkflowServer } from "./workflow-server.js";

const program = (charge: string) => `async () => {
  const first = await billing.get_charge({ id: "${charge}-1" });
  const second = await billing.get_charge({ id: "${charge}-2" });
  return billing.refund({ chargeId: first.id, amount: first.amount + second.amount });
}`;

const executablePath = chromiumPath();

let app: WorkflowApp;
let journal: DurableRuntime;
let server: WorkflowServer | undefined;

beforeAll(async () => {
  app = await createWorkflowApp();
  journal = createDurableRuntime({ store: app.db });
  server = await startServer(app);
}, 240_000);

afterAll(async () => {
  await server?.kill();
  await journal?.close();
  await app?.remove();
});

/** Starts a run whose only way on is its hook; answers once its execution paused. */
async function pausedRun(charge: string) {
  const toolCallId = `call-${charge}`;
  const { runId } = (await server!.post("/start", {
    code: program(charge),
    toolCallId,
    recheckAfterMs: 3_600_000,
  })) as { runId: string };
  const executionId = await workflowExecutionId(runId, toolCallId);
  const detail = await until(async () => {
    const read = await journal.execution(executionId);
    return read?.status === "paused" ? read : undefined;
  }, `the pause of ${executionId}`);
  return { runId, executionId, detail };
}

async function request(path: string, init: RequestInit = {}) {
  return fetch(`${server!.base}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

const effects = (charge: string) => app.effects().filter((line) => line === `effect ${charge}-1`);

/** The fixture's step function, as the Workflow SDK names it (`step//<file>//<function>`). */
const CODEMODE_STEP = "step//./workflows/refund//codemodeStep";
/** Where the fixture's inspector links a workflow run: the local web UI of `npx workflow web`. */
const localRunUrl = (runId: string) => `http://localhost:3456/run/${encodeURIComponent(runId)}`;

/** `workflow inspect … --json` of the Workflow SDK's CLI, run as a user runs it in the app's folder (local world). */
function workflowInspect(args: string[]): Promise<unknown> {
  const cli = join(app.folder, "node_modules", "workflow", "bin", "run.js");
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, "inspect", ...args, "--json"],
      { cwd: app.folder, env: { ...appEnv(app), WORKFLOW_NO_UPDATE_CHECK: "1" }, timeout: REQUEST_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`workflow inspect ${args.join(" ")} failed: ${String(error)}\n${stderr}`));
        else resolve(JSON.parse(stdout));
      },
    );
  });
}

interface InspectedStep {
  runId: string;
  stepId: string;
  stepName: string;
  status: string;
  attempt: number;
  createdAt: string;
}

describe("each door wakes the waiting workflow", () => {
  it("the inspector's API: POST …/api/executions/:id/approve", async () => {
    const { runId, executionId } = await pausedRun("inspector");
    const response = await request(`/inspector/api/executions/${executionId}/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ output: { status: "completed", executionId } });
    expect(await server!.post("/result", { runId })).toMatchObject({
      status: "completed",
      executionId,
      result: { refundId: "re_inspector-1" },
    });
    expect(effects("inspector")).toHaveLength(1);
    // The inspector's JSON API links the execution to its workflow run, and to where the run is observed.
    const shown = await request(`/inspector/api/executions/${executionId}`);
    expect(await shown.json()).toMatchObject({
      execution: { executionId, status: "completed", workflowRunId: runId },
      workflowRunUrl: localRunUrl(runId),
    });
    // The Workflow SDK's side, as its CLI shows it: the run lists the program's step, each attempt completed. The
    // first ran the program (and paused it), the next read the decision from the journal, both for this execution.
    expect(await workflowInspect(["run", runId])).toMatchObject({
      runId,
      status: "completed",
      output: { status: "completed", executionId },
    });
    const steps = ((await workflowInspect(["steps", "--runId", runId])) as InspectedStep[]).sort((a, b) =>
      a.createdAt.localeCompare(b.createdAt),
    );
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const step of steps) {
      expect(step).toMatchObject({ runId, stepName: CODEMODE_STEP, status: "completed" });
      expect(step.attempt).toBeGreaterThanOrEqual(1);
    }
    const [first, last] = [steps[0]!, steps.at(-1)!];
    expect(await workflowInspect(["step", first.stepId])).toMatchObject({
      runId,
      input: { args: [{ action: "run", workflowRunId: runId, toolCallId: "call-inspector" }] },
      output: { status: "paused", executionId },
    });
    expect(await workflowInspect(["step", last.stepId])).toMatchObject({
      input: { args: [{ action: "check", workflowRunId: runId, toolCallId: "call-inspector" }] },
      output: { status: "completed", executionId, result: { refundId: "re_inspector-1" } },
    });
  }, 240_000);

  it.skipIf(executablePath === undefined)(
    "the inspector's page shows the execution with its workflow run id",
    async () => {
      const { runId, executionId } = await pausedRun("page");
      const browser = await launchChromium(executablePath);
      try {
        const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
        await page.goto(`${server!.base}/inspector/#/e/${encodeURIComponent(executionId)}`);
        const line = page.getByTestId("workflow-run");
        await line.waitFor({ timeout: 60_000 });
        expect(await line.textContent()).toBe(`Workflow run ${runId}`);
        // The run id links to the run in the local web UI, opened without opener or referrer.
        const link = page.getByTestId("workflow-run-link");
        expect(await link.getAttribute("href")).toBe(localRunUrl(runId));
        expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
        if (process.env["UPDATE_FIGURES"] === "1")
          await page.screenshot({ path: join(app.folder, "..", "workflow-run.png") });
      } finally {
        await browser.close();
      }
      // The run still waits; it ends with a rejection from the inspector's API.
      const rejected = await request(`/inspector/api/executions/${executionId}/reject`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ reason: "only looked" }),
      });
      expect(await rejected.json()).toMatchObject({ output: { status: "rejected" } });
      expect(await server!.post("/result", { runId })).toMatchObject({
        status: "error",
        kind: "rejected",
        executionId,
      });
      expect(effects("page")).toHaveLength(0);
    },
    240_000,
  );

  it("an approval link, opened and its form posted; a second post of the same link changes nothing", async () => {
    const { runId, executionId, detail } = await pausedRun("link");
    const link = await issueLink(
      { url: `${server!.base}/inspector`, secret: LINK_SECRET, ttlMs: 600_000 },
      detail.pending,
      undefined,
    );
    const opened = await request(new URL(link.url).pathname);
    expect(opened.status).toBe(200);
    const page = await opened.text();
    expect(page).toContain(executionId);
    const seq = detail.pending[0]!.seq;
    expect(page).toContain(`name="choice-${seq}"`);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const decided = await request(new URL(link.url).pathname, {
      method: "POST",
      headers: form,
      body: new URLSearchParams({ [`choice-${seq}`]: "approve" }).toString(),
    });
    expect(decided.status).toBe(200);
    expect(await decided.text()).toContain("completed");
    expect(await server!.post("/result", { runId })).toMatchObject({
      status: "completed",
      executionId,
      result: { refundId: "re_link-1" },
    });
    expect(effects("link")).toHaveLength(1);
    const again = await request(new URL(link.url).pathname, {
      method: "POST",
      headers: form,
      body: new URLSearchParams({ [`choice-${seq}`]: "approve" }).toString(),
    });
    expect(again.status).toBe(409);
    expect(effects("link")).toHaveLength(1);
  }, 240_000);
});
