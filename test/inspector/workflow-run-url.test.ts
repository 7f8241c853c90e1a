/**
 * The inspector's `workflowRunUrl` option: `GET …/api/executions/:id` answers the address of the execution's workflow
 * run when the option gives an absolute `http:`/`https:` URL, and nothing otherwise (no option, no run id, a
 * `javascript:` or relative address, a throw), so the page can only ever link to a web address.
 */
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import {
  createCodemodeInspector,
  type CodemodeInspectorOptions,
} from "../../src/inspector/create-codemode-inspector.js";
import { workflowRunLink } from "../../src/inspector/workflow-run-url.js";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "../runtime/runtime-fixture.js";

const PROGRAM = `async () => (await billing.lookup({})).order`;
/** The local web UI of `npx workflow web`: its route for one run. */
const LOCAL_UI = (workflowRunId: string) => `http://localhost:3456/run/${encodeURIComponent(workflowRunId)}`;

async function detailOf(workflowRunUrl: CodemodeInspectorOptions["workflowRunUrl"], workflowRunId?: string) {
  const runtime = testRuntime({
    connectors: { billing: createMockConnector("billing", { methods: { lookup: { result: { order: 7 } } } }) },
  });
  const { executionId } = await runtime.execute(
    { code: PROGRAM },
    workflowRunId === undefined ? undefined : { workflowRunId },
  );
  const inspector = createCodemodeInspector({
    runtime,
    authorize: () => ({ unscoped: true }),
    ...(workflowRunUrl === undefined ? {} : { workflowRunUrl }),
  });
  const response = await inspector(new Request(`https://app.example/codemode/api/executions/${executionId}`));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { execution: { workflowRunId?: string }; workflowRunUrl?: string };
  await runtime.close();
  return body;
}

describe("the inspector's link to an execution's workflow run", () => {
  it("is not given without the option: the run id alone", async () => {
    const body = await detailOf(undefined, "wrun_01KBZ");
    expect(body.execution.workflowRunId).toBe("wrun_01KBZ");
    expect(body).not.toHaveProperty("workflowRunUrl");
  });

  it("is the option's address for the run, the run id encoded by it", async () => {
    const body = await detailOf(LOCAL_UI, "wrun_01KBZ");
    expect(body.workflowRunUrl).toBe("http://localhost:3456/run/wrun_01KBZ");
    // A run id is journaled text (execute's `workflowRunId`): encoded, it cannot leave the run's path.
    const hostile = await detailOf(LOCAL_UI, `../../admin?x="><img src=x>#`);
    expect(hostile.workflowRunUrl).toBe("http://localhost:3456/run/..%2F..%2Fadmin%3Fx%3D%22%3E%3Cimg%20src%3Dx%3E%23");
    expect(new URL(hostile.workflowRunUrl!).pathname.startsWith("/run/")).toBe(true);
  });

  it("is not asked for an execution outside a workflow", async () => {
    const asked: string[] = [];
    const body = await detailOf((id) => {
      asked.push(id);
      return LOCAL_UI(id);
    });
    expect(body).not.toHaveProperty("workflowRunUrl");
    expect(asked).toEqual([]);
  });

  it("refuses anything but an absolute http(s) URL: the run id stays text", async () => {
    for (const hostile of [
      "javascript:alert(document.cookie)",
      " JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "/run/wrun_01KBZ",
      "//evil.example/run",
      "",
    ]) {
      const body = await detailOf(() => hostile, "wrun_01KBZ");
      expect(body, hostile).not.toHaveProperty("workflowRunUrl");
    }
    const thrown = await detailOf(() => {
      throw new Error("no dashboard configured");
    }, "wrun_01KBZ");
    expect(thrown).not.toHaveProperty("workflowRunUrl");
    expect(thrown.execution.workflowRunId).toBe("wrun_01KBZ");
  });

  it("keeps the address normalized (what the browser would open)", () => {
    expect(
      workflowRunLink(() => "HTTPS://Vercel.com/acme/shop/workflows/runs/wrun_1?environment=production", "wrun_1"),
    ).toBe("https://vercel.com/acme/shop/workflows/runs/wrun_1?environment=production");
    expect(workflowRunLink(() => undefined, "wrun_1")).toBeUndefined();
    expect(workflowRunLink(undefined, "wrun_1")).toBeUndefined();
  });

  it("must be a function", () => {
    const runtime = testRuntime();
    expect(() =>
      createCodemodeInspector({
        runtime,
        workflowRunUrl: "http://localhost:3456/run/" as unknown as (workflowRunId: string) => string,
      }),
    ).toThrow(InvalidOptionError);
  });
});
