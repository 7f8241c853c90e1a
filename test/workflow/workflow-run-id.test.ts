/**
 * The workflow run an execution belongs to: the codemode step records it with the execution it starts, and the
 * journal's views show it (the execution's detail and listing, the inspector's JSON API, `ai-codemode show`).
 */
import { describe, expect, it } from "vitest";
import { formatExecution } from "../../src/cli/format-execution.js";
import { createCodemodeInspector } from "../../src/inspector/create-codemode-inspector.js";
import { executionTimeline } from "../../src/inspector/execution-timeline.js";
import { createMockConnector } from "../../src/test/index.js";
import { runCodemodeWorkflowStep, workflowExecutionId } from "../../src/workflow/workflow-step.js";
import { memoryStoreRuntime, testRuntime } from "../runtime/runtime-fixture.js";

const SECRET = "codemode-workflow-run-id-secret-0123456789abcdef";
const PROGRAM = `async () => (await billing.lookup({})).order`;

function billing() {
  return createMockConnector("billing", { methods: { lookup: { result: { order: 7 } } } });
}

describe("the workflow run id of an execution", () => {
  it("is recorded by the codemode step and read back by execution() and executions(); absent otherwise", async () => {
    const runtime = testRuntime({ connectors: { billing: billing() } });
    const output = await runCodemodeWorkflowStep(
      runtime,
      { action: "run", code: PROGRAM, workflowRunId: "wrun_01", toolCallId: "call-1" },
      { secret: SECRET },
    );
    expect(output).toMatchObject({ status: "completed", result: 7 });
    const executionId = await workflowExecutionId("wrun_01", "call-1");
    expect(await runtime.execution(executionId)).toMatchObject({ workflowRunId: "wrun_01", toolCallId: "call-1" });
    const plain = await runtime.execute({ code: PROGRAM });
    expect((await runtime.execution(plain.executionId))?.workflowRunId).toBeUndefined();
    const listed = await runtime.executions(10);
    expect(listed.find((e) => e.executionId === executionId)?.workflowRunId).toBe("wrun_01");
    await runtime.close();
  });

  it("is kept by the in-memory journal store the runtime's rule tests use", async () => {
    const runtime = memoryStoreRuntime({ connectors: { billing: billing() } });
    const output = await runtime.execute({ code: PROGRAM }, { workflowRunId: "wrun_02" });
    expect((await runtime.execution(output.executionId))?.workflowRunId).toBe("wrun_02");
  });

  it("is refused when it is not a short string, and nothing runs", async () => {
    const connector = billing();
    const runtime = testRuntime({ connectors: { billing: connector } });
    const output = await runtime.execute({ code: PROGRAM }, { workflowRunId: "w".repeat(201) });
    expect(output).toMatchObject({ status: "error", kind: "validation" });
    expect(output.status === "error" ? output.error : "").toContain("workflowRunId");
    expect(connector.ledger.entries).toEqual([]);
    await runtime.close();
  });

  it("is in the inspector's JSON API and in `ai-codemode show`", async () => {
    const runtime = testRuntime({ connectors: { billing: billing() } });
    const { executionId } = await runtime.execute({ code: PROGRAM }, { workflowRunId: "wrun_03\u001b[31m" });
    const inspector = createCodemodeInspector({ runtime, authorize: () => ({ unscoped: true }) });
    const response = await inspector(new Request(`https://app.example/codemode/api/executions/${executionId}`));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { execution: { workflowRunId?: string } };
    expect(body.execution.workflowRunId).toBe("wrun_03\u001b[31m");
    const detail = (await runtime.execution(executionId))!;
    const text = formatExecution(detail, executionTimeline(detail));
    // The id is the caller's text: shown, never a terminal escape.
    expect(text).toMatch(/^Workflow run wrun_03/m);
    expect(text).not.toContain("\u001b");
    const plain = await runtime.execute({ code: PROGRAM });
    const other = (await runtime.execution(plain.executionId))!;
    expect(formatExecution(other, executionTimeline(other))).not.toContain("Workflow run");
    await runtime.close();
  });
});
