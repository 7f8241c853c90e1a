import { describe, expect, it } from "vitest";
import type { ConnectorLifecycleContext } from "../../../src/connectors/types.js";
import { createMockConnector } from "../../../src/test/index.js";
import { testRuntime } from "../runtime-fixture.js";

describe("lifecycle hooks", () => {
  it("onPassEnd after every pass; disposeExecution after completion, error and rejection, never after a pause; errors ignored", async () => {
    const events: string[] = [];
    const used = createMockConnector("used", {
      methods: { gate: { needsApproval: true }, boom: { fails: "boom" } },
    });
    used.onPassEnd = (context: ConnectorLifecycleContext) => {
      events.push(`used:pass:${context.status}`);
      throw new Error("hook failures are ignored");
    };
    used.disposeExecution = (context: ConnectorLifecycleContext) => {
      events.push(`used:dispose:${context.status}`);
      return Promise.reject(new Error("ignored too"));
    };
    const untouched = createMockConnector("idle", { methods: { noop: {} } });
    untouched.disposeExecution = (context: ConnectorLifecycleContext) =>
      void events.push(`idle:dispose:${context.status}`);
    const runtime = testRuntime({ connectors: { used, idle: untouched } });

    const paused = await runtime.execute({ code: "async () => used.gate({})" });
    expect(events).toEqual(["used:pass:paused"]);
    events.length = 0;
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("completed");
    expect(events.sort()).toEqual(["idle:dispose:completed", "used:dispose:completed", "used:pass:completed"]);
    events.length = 0;
    expect((await runtime.execute({ code: "async () => used.boom({})" })).status).toBe("error");
    expect(events.sort()).toEqual(["idle:dispose:error", "used:dispose:error", "used:pass:error"]);
    events.length = 0;
    const second = await runtime.execute({ code: "async () => used.gate({})" });
    events.length = 0;
    await runtime.reject({ executionId: second.executionId });
    expect(events.sort()).toEqual(["idle:dispose:rejected", "used:dispose:rejected"]);
  });
});

describe("stuck hooks", () => {
  it("a hook that never settles does not hold the run's answer", async () => {
    const stuck = createMockConnector("stuck", { methods: { go: {} } });
    stuck.onPassEnd = () => new Promise(() => {});
    stuck.disposeExecution = () => new Promise(() => {});
    const runtime = testRuntime({ connectors: { stuck }, _internal: { hookTimeoutMs: 20 } });
    expect(await runtime.execute({ code: "async () => stuck.go({ a: 1 })" })).toMatchObject({
      status: "completed",
      result: { a: 1 },
    });
  });
});
