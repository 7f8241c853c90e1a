import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, memoryLibsqlClient, testRuntime } from "./runtime-fixture.js";

function deploy() {
  return createMockConnector("deploy", {
    methods: {
      status: { result: "green" },
      ship: { needsApproval: true, result: (args: unknown) => ({ shipped: args }) },
    },
  });
}

const CODE = "async () => { const s = await deploy.status({}); return deploy.ship({ s }); }";

// Compare-and-set lives in the rows each statement reports changed: both store drivers must agree.
describe.each([
  ["embedded driver", memoryClient],
  ["@libsql/client", memoryLibsqlClient],
])("approve and reject (%s)", (_driver, newClient) => {
  it("approve resumes with the same id and performs the approved call once", async () => {
    const connector = deploy();
    const runtime = testRuntime({ connectors: { deploy: connector }, store: newClient() });
    const first = await runtime.execute({ code: CODE });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toEqual({
      status: "completed",
      executionId: first.executionId,
      result: { shipped: { s: "green" } },
    });
    const detail = await runtime.execution(first.executionId);
    expect(detail).toMatchObject({ status: "completed", passes: 2 });
    expect(detail?.calls[1]).toMatchObject({ status: "applied", needsApproval: true });
    expect(detail?.calls[1]?.approvedAt).toBeTypeOf("number");
  });

  it("a stale approval changes nothing and says why", async () => {
    const connector = deploy();
    const runtime = testRuntime({ connectors: { deploy: connector }, store: newClient() });
    const done = await runtime.execute({ code: "async () => deploy.status({})" });
    const stale = await runtime.approve({ executionId: done.executionId });
    expect(stale).toMatchObject({ status: "error", kind: "stale" });
    expect((stale as { error: string }).error).toContain("already completed");

    const paused = await runtime.execute({ code: CODE });
    expect(await runtime.reject({ executionId: paused.executionId, reason: "not today" })).toEqual({
      status: "rejected",
      executionId: paused.executionId,
      applied: [{ seq: 1, connector: "deploy", method: "status", args: {} }],
    });
    const afterReject = await runtime.approve({ executionId: paused.executionId });
    expect(afterReject).toMatchObject({ status: "error", kind: "stale" });
    expect((afterReject as { error: string }).error).toContain("was rejected");
    expect(connector.ledger.count("deploy.ship")).toBe(0);
    expect(await runtime.approve({ executionId: "nope" })).toMatchObject({ status: "error", kind: "not-found" });
  });

  it("reject ends the run without undoing earlier calls, records the reason, and pending empties", async () => {
    const connector = deploy();
    const runtime = testRuntime({ connectors: { deploy: connector }, store: newClient() });
    const paused = await runtime.execute({ code: CODE });
    await runtime.reject({ executionId: paused.executionId, seq: 2, reason: "too risky" });
    const detail = await runtime.execution(paused.executionId);
    expect(detail).toMatchObject({ status: "rejected", kind: "rejected" });
    expect(detail?.error).toContain("too risky");
    expect(detail?.calls.map((call) => call.status)).toEqual(["applied", "error"]);
    expect(await runtime.pending()).toEqual([]);
    expect(await runtime.reject({ executionId: paused.executionId })).toMatchObject({ status: "error", kind: "stale" });
  });

  it("reject lists the calls applied before it (approved ones included; steps, failures and the program row not)", async () => {
    const connector = createMockConnector("github", {
      methods: {
        list: { result: [43, 44] },
        broken: { fails: "boom" },
        merge: { needsApproval: true, result: (args: unknown) => ({ merged: args }) },
      },
    });
    const runtime = testRuntime({ connectors: { github: connector }, store: newClient(), approveProgram: true });
    const code = [
      "async () => {",
      "  const open = await github.list({ repo: 'acme/web' });",
      "  await github.broken({}).catch(() => 'ignored');",
      "  const note = await codemode.step('note', () => 'merging');",
      "  const merged = [];",
      "  for (const number of open) merged.push(await github.merge({ repo: 'acme/web', number }));",
      "  return { note, merged };",
      "}",
    ].join("\n");
    const paused = await runtime.execute({ code });
    await runtime.approve({ executionId: paused.executionId, seq: 0 }); // the program row; pauses on #43
    const second = await runtime.approve({ executionId: paused.executionId }); // merges #43, pauses on #44
    expect(second).toMatchObject({ status: "paused", pending: [{ method: "merge", args: { number: 44 } }] });
    const rejected = await runtime.reject({ executionId: paused.executionId, reason: "not #44" });
    expect(rejected).toEqual({
      status: "rejected",
      executionId: paused.executionId,
      applied: [
        { seq: 1, connector: "github", method: "list", args: { repo: "acme/web" } },
        { seq: 4, connector: "github", method: "merge", args: { repo: "acme/web", number: 43 } },
      ],
    });
    expect(connector.ledger.count("github.merge")).toBe(1);
  });

  it("reject of a program that never ran lists nothing applied", async () => {
    const runtime = testRuntime({ connectors: { deploy: deploy() }, store: newClient(), approveProgram: true });
    const paused = await runtime.execute({ code: CODE });
    expect(await runtime.reject({ executionId: paused.executionId })).toEqual({
      status: "rejected",
      executionId: paused.executionId,
      applied: [],
    });
  });

  it("of two approvals at once exactly one resumes; the other gets conflict and runs nothing", async () => {
    const connector = deploy();
    const client = newClient();
    const a = testRuntime({ connectors: { deploy: connector }, store: client });
    const paused = await a.execute({ code: CODE });
    const results = await Promise.all([
      a.approve({ executionId: paused.executionId, seq: 2 }),
      a.approve({ executionId: paused.executionId, seq: 2 }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["completed", "error"]);
    expect(results.find((result) => result.status === "error")).toMatchObject({ kind: "conflict" });
    expect(connector.ledger.count("deploy.ship")).toBe(1);
    // A late duplicate of the same approval is a conflict too: that call was already approved.
    expect(await a.approve({ executionId: paused.executionId, seq: 2 })).toMatchObject({
      status: "error",
      kind: "conflict",
    });
  });

  it("refuses to resume when a recorded connector is missing, and leaves the run paused", async () => {
    const connector = deploy();
    const client = newClient();
    const extra = createMockConnector("audit", { methods: { log: {} } });
    const first = testRuntime({ connectors: { deploy: connector, audit: extra }, store: client });
    const paused = await first.execute({ code: CODE });
    const second = testRuntime({ connectors: { deploy: connector }, store: client });
    const refused = await second.approve({ executionId: paused.executionId });
    expect(refused).toMatchObject({ status: "error", kind: "connector-missing" });
    expect((refused as { error: string }).error).toContain("audit");
    expect((await second.execution(paused.executionId))?.status).toBe("paused");
    expect(connector.ledger.count("deploy.ship")).toBe(0);
    expect(await first.approve({ executionId: paused.executionId })).toMatchObject({ status: "completed" });
  });

  it("approving an unknown call number is not-found; approving a non-pending call is stale", async () => {
    const runtime = testRuntime({ connectors: { deploy: deploy() }, store: newClient() });
    const paused = await runtime.execute({ code: CODE });
    expect(await runtime.approve({ executionId: paused.executionId, seq: 9 })).toMatchObject({ kind: "not-found" });
    expect(await runtime.approve({ executionId: paused.executionId, seq: 1 })).toMatchObject({ kind: "stale" });
    expect((await runtime.execution(paused.executionId))?.status).toBe("paused");
  });
});
