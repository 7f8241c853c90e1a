/**
 * The method policy keys of `connector()` on OpenAPI operations, each taking effect through a runtime against the
 * loopback issue tracker: `revert` (rollback), `editable` (approve with changes), `cost` and `maxCalls` (budgets).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import type { OpenApiOperationOptions } from "../../../src/connectors/openapi/openapi-connector-options.js";
import { InvalidOptionError } from "../../../src/errors.js";
import { testRuntime } from "../../runtime/runtime-fixture.js";
import { startIssueTrackerServer, type IssueTrackerServer } from "./fixtures/issue-tracker-server.js";

const TOKEN = "policy-tracker-token-7";
const SPEC = readFileSync(new URL("./fixtures/issue-tracker.yaml", import.meta.url), "utf8");
const CREATE_TWO = `async () => {
  const a = await tracker.createIssue({ project: "core", body: { title: "One" } });
  const b = await tracker.createIssue({ project: "core", body: { title: "Two" } });
  return [a.number, b.number];
}`;

describe("OpenAPI operations take the method policy keys of connector()", () => {
  let server: IssueTrackerServer;

  beforeAll(async () => {
    server = await startIssueTrackerServer({ token: TOKEN });
  });
  afterAll(async () => {
    await server.close();
  });

  async function runtimeWith(createIssue: OpenApiOperationOptions, limits: { maxCost?: number } = {}) {
    const tracker = await openApiConnector({
      spec: SPEC,
      baseUrl: server.baseUrl,
      headers: { Authorization: `Bearer ${TOKEN}` },
      operations: { createIssue },
    });
    return testRuntime({ connectors: { tracker }, limits });
  }
  const posts = (): number => server.count("POST");

  it("rolls an operation back with its revert", async () => {
    const reverted: unknown[] = [];
    const runtime = await runtimeWith({
      revert: async (_args, issue) => {
        const { number } = issue as { number: number };
        reverted.push(number);
        const response = await fetch(`${server.baseUrl}/projects/core/issues/${number}`, {
          method: "DELETE",
          headers: { Authorization: `Bearer ${TOKEN}` },
        });
        expect(response.status).toBe(204);
      },
    });
    const done = await runtime.execute({
      code: 'const issue = await tracker.createIssue({ project: "core", body: { title: "Oops" } }); issue.number',
    });
    expect(done.status).toBe("completed");
    const created = (done as { result: number }).result;
    expect(await runtime.rollback({ executionId: done.executionId })).toMatchObject({ status: "rolled_back" });
    expect(reverted).toEqual([created]);
    expect(server.requests.filter((request) => request.method === "DELETE")).toHaveLength(1);
  });

  it("lets an approver change an editable operation's arguments", async () => {
    const runtime = await runtimeWith({ needsApproval: true, editable: true });
    const paused = await runtime.execute({
      code: '(await tracker.createIssue({ project: "core", body: { title: "Draft" } })).title',
    });
    expect(paused).toMatchObject({ status: "paused", pending: [{ method: "createIssue", editable: true }] });
    const seq = (paused as { pending: Array<{ seq: number }> }).pending[0]!.seq;
    const approved = await runtime.approve({
      executionId: paused.executionId,
      seq,
      args: { project: "core", body: { title: "Final" } },
    });
    expect(approved).toMatchObject({ status: "completed", result: "Final" });
  });

  it("counts an operation's cost against maxCost, and ends the run at the budget", async () => {
    const runtime = await runtimeWith({ cost: () => 1 }, { maxCost: 1 });
    const before = posts();
    const output = await runtime.execute({ code: CREATE_TWO });
    expect(output).toMatchObject({ status: "error", kind: "limit" });
    expect(posts() - before).toBe(1);
  });

  it("ends the run at the operation's maxCalls", async () => {
    const runtime = await runtimeWith({ maxCalls: 1 });
    const before = posts();
    const output = await runtime.execute({ code: CREATE_TWO });
    expect(output).toMatchObject({ status: "error", kind: "limit" });
    expect(posts() - before).toBe(1);
  });

  it("checks each key where it is written", async () => {
    const refused = async (createIssue: unknown): Promise<string> => {
      const error = await runtimeWith(createIssue as OpenApiOperationOptions).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      return (error as Error).message;
    };
    expect(await refused({ revert: "no" })).toContain("operations.createIssue.revert must be a function");
    expect(await refused({ editable: "yes" })).toContain("operations.createIssue.editable must be a boolean");
    expect(await refused({ cost: 3 })).toContain("operations.createIssue.cost must be a function");
    expect(await refused({ maxCalls: 0 })).toContain("operations.createIssue.maxCalls must be a positive integer");
    expect(await refused({ cost: () => 1, replay: "reexecute" })).toContain("cannot be combined with replay");
  });
});
