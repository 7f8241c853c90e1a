// @vitest-environment jsdom
/**
 * The execution view's "Workflow run" line, as the inspector page builds it: the run id as text without an address, a
 * link (new tab, `rel="noopener noreferrer"`) with an `http:`/`https:` one, and text again for any other scheme, even
 * if the API were to hand the page one.
 */
import { describe, expect, it } from "vitest";
import { createCodemodeInspector } from "../../../src/inspector/create-codemode-inspector.js";
import { detailNodes } from "../../../src/inspector/page/detail-view.js";
import { linkAddress, workflowRunLine } from "../../../src/inspector/page/workflow-run-view.js";
import { timelineScale } from "../../../src/inspector/timeline-scale.js";
import { createMockConnector } from "../../../src/test/index.js";
import { testRuntime } from "../../runtime/runtime-fixture.js";

/** The execution view the page draws from `GET …/api/executions/:id` of an inspector with these options. */
async function executionView(workflowRunUrl?: (workflowRunId: string) => string | undefined): Promise<HTMLElement> {
  const runtime = testRuntime({
    connectors: { billing: createMockConnector("billing", { methods: { lookup: { result: { order: 7 } } } }) },
  });
  const { executionId } = await runtime.execute(
    { code: "async () => (await billing.lookup({})).order" },
    { workflowRunId: "wrun_01KBZ" },
  );
  const inspector = createCodemodeInspector({
    runtime,
    authorize: () => ({ unscoped: true }),
    ...(workflowRunUrl === undefined ? {} : { workflowRunUrl }),
  });
  const response = await inspector(new Request(`https://app.example/codemode/api/executions/${executionId}`));
  const data = await response.json();
  await runtime.close();
  const ctx = {
    state: { selected: executionId, readOnly: false, listKey: "", detailKey: "", chosen: {}, reason: "", edits: {} },
    getJson: async () => ({}) as never,
    loadList: async () => {},
    loadDetail: async () => {},
  };
  const view = document.createElement("section");
  view.append(...detailNodes(ctx, timelineScale, data));
  return view;
}

describe("the execution view's workflow run line", () => {
  it("is drawn from the API: text without the inspector's workflowRunUrl, a link with it", async () => {
    const plain = await executionView();
    expect(plain.querySelector('[data-testid="workflow-run"]')?.textContent).toBe("Workflow run wrun_01KBZ");
    expect(plain.querySelector('[data-testid="workflow-run"] a')).toBeNull();
    const linked = await executionView((id) => `http://localhost:3456/run/${encodeURIComponent(id)}`);
    const link = linked.querySelector('[data-testid="workflow-run-link"]');
    expect(link?.getAttribute("href")).toBe("http://localhost:3456/run/wrun_01KBZ");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
    const refused = await executionView(() => "javascript:alert(document.cookie)");
    expect(refused.querySelector('[data-testid="workflow-run"] a')).toBeNull();
  });

  it("shows the run id as text without an address", () => {
    const line = workflowRunLine("wrun_01KBZ", undefined);
    expect(line.getAttribute("data-testid")).toBe("workflow-run");
    expect(line.textContent).toBe("Workflow run wrun_01KBZ");
    expect(line.querySelector("a")).toBeNull();
  });

  it("links the run id to its address, opened without opener or referrer", () => {
    const line = workflowRunLine("wrun_01KBZ", "http://localhost:3456/run/wrun_01KBZ");
    const link = line.querySelector("a")!;
    expect(link.getAttribute("href")).toBe("http://localhost:3456/run/wrun_01KBZ");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("data-testid")).toBe("workflow-run-link");
    expect(link.textContent).toBe("wrun_01KBZ");
  });

  it("refuses a javascript: (or any non-web) address: text, no link", () => {
    for (const hostile of [
      "javascript:alert(document.cookie)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,x",
      "/run/x",
      42,
    ]) {
      const line = workflowRunLine("wrun_01KBZ", hostile);
      expect(line.querySelector("a"), String(hostile)).toBeNull();
      expect(line.textContent).toBe("Workflow run wrun_01KBZ");
    }
    expect(linkAddress("https://vercel.com/acme/shop/workflows/runs/wrun_1")).toBe(
      "https://vercel.com/acme/shop/workflows/runs/wrun_1",
    );
  });

  it("shows a hostile run id as text, in the link too", () => {
    const id = `"><img src=x onerror=alert(1)>`;
    for (const url of [undefined, `http://localhost:3456/run/${encodeURIComponent(id)}`]) {
      const line = workflowRunLine(id, url);
      expect(line.querySelector("img")).toBeNull();
      expect(line.textContent).toBe(`Workflow run ${id}`);
    }
  });
});
