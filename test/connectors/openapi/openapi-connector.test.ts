import { readFileSync } from "node:fs";
import { Validator } from "@cfworker/json-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import { OpenApiRequestError, OpenApiResponseError } from "../../../src/errors.js";
import type { Connector, ConnectorCallContext, ConnectorMethod } from "../../../src/connectors/types.js";
import { startIssueTrackerServer, type IssueTrackerServer } from "./fixtures/issue-tracker-server.js";

const TOKEN = "tracker-token-0123456789";
const SPEC = readFileSync(new URL("./fixtures/issue-tracker.yaml", import.meta.url), "utf8");

function context(method: string, abortSignal = new AbortController().signal): ConnectorCallContext {
  return {
    executionId: "exec-1",
    seq: 0,
    idempotencyKey: "exec-1:0",
    toolCallId: "call-1",
    connector: "tracker",
    method,
    abortSignal,
    messages: [],
    context: undefined,
  };
}

function method(connector: Connector, name: string): ConnectorMethod {
  const found = connector.methods[name];
  if (found === undefined) throw new Error(`no method ${name}`);
  return found;
}

/** Validates like the runtime does, then calls. */
async function call(connector: Connector, name: string, args: unknown, signal?: AbortSignal): Promise<unknown> {
  const target = method(connector, name);
  const checked = await target.validate!(args);
  if (!checked.success) throw new Error(checked.error);
  return target.execute(checked.value, context(name, signal));
}

function conforms(schema: unknown, value: unknown): boolean {
  return new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12").validate(value).valid;
}

describe("openApiConnector against a loopback issue tracker", () => {
  let server: IssueTrackerServer;
  let tracker: Connector;
  const headerCalls: string[] = [];

  beforeAll(async () => {
    server = await startIssueTrackerServer({ token: TOKEN });
    tracker = await openApiConnector({
      spec: SPEC,
      baseUrl: server.baseUrl,
      headers: async (operation) => {
        headerCalls.push(operation.name);
        await Promise.resolve();
        return { Authorization: `Bearer ${TOKEN}` };
      },
    });
  });
  afterAll(() => server.close());

  it("makes one method per operation, named from operationId or method and path", () => {
    expect(Object.keys(tracker.methods).sort()).toEqual(
      [
        "addComment",
        "crash",
        "createIssue",
        "delete_projects_by_project_issues_by_number",
        "getIssue",
        "listIssues",
        "search",
        "slow",
        "updateIssue",
        "whoami",
      ].sort(),
    );
    expect(tracker.description).toBe(
      "Issue Tracker (version 1.2.0). A small issue tracker: projects hold issues, issues hold threaded comments.",
    );
    expect(method(tracker, "listIssues").description).toBe(
      "List issues in a project\n\nReturns the project's issues, newest first. Filter by state and labels.\n\nGET /projects/{project}/issues",
    );
    expect(method(tracker, "delete_projects_by_project_issues_by_number").description).toBe(
      "Delete an issue\n\nDELETE /projects/{project}/issues/{number}",
    );
  });

  it("lists with path and query parameters, sending the host's credentials", async () => {
    const issues = await call(tracker, "listIssues", {
      project: "core",
      state: "all",
      labels: ["feature", "ui"],
      limit: 10,
    });
    expect(issues).toMatchObject([{ number: 2, title: "Add dark mode" }]);
    const request = server.requests.at(-1)!;
    expect(request.path).toBe("/api/projects/core/issues");
    expect(request.query).toBe("?state=all&labels=feature%2Cui&limit=10");
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(headerCalls.at(-1)).toBe("listIssues");
    expect(conforms(method(tracker, "listIssues").outputSchema, issues)).toBe(true);
  });

  it("creates with a JSON body and returns the parsed 201 body", async () => {
    const before = server.count("POST");
    const created = await call(tracker, "createIssue", {
      project: "core",
      body: { title: "Flaky test", labels: ["ci"] },
    });
    expect(created).toMatchObject({
      number: 3,
      title: "Flaky test",
      state: "open",
      labels: [{ name: "ci" }],
      assignee: null,
    });
    expect(server.count("POST")).toBe(before + 1);
    const request = server.requests.at(-1)!;
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({ title: "Flaky test", labels: ["ci"] });
    // The output schema carries 3.0 `nullable` as JSON Schema: a null assignee conforms.
    expect(conforms(method(tracker, "createIssue").outputSchema, created)).toBe(true);
    expect(await call(tracker, "getIssue", { project: "core", number: 3 })).toEqual(created);
  });

  it("rejects a 404 with the status and the start of the body", async () => {
    const failure = await call(tracker, "getIssue", { project: "core", number: 99 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenApiResponseError);
    expect((failure as OpenApiResponseError).status).toBe(404);
    expect((failure as Error).message).toBe(
      'GET /projects/{project}/issues/{number} failed with HTTP 404 Not Found: {"message":"Issue 99 not found"}',
    );
  });

  it("rejects a 500 with a short excerpt in which the echoed token is redacted", async () => {
    const failure = (await call(tracker, "crash", {}).catch((error: unknown) => error)) as OpenApiResponseError;
    expect(failure.status).toBe(500);
    expect(failure.message).toMatch(
      /^GET \/crash failed with HTTP 500 Internal Server Error: Internal error while handling request with authorization \[redacted\] stack frame/,
    );
    expect(failure.message).not.toContain(TOKEN);
    expect(failure.excerpt.length).toBe(301);
    expect(failure.excerpt.endsWith("…")).toBe(true);
  });

  it("never returns the credential, even when the server echoes it", async () => {
    const me = await call(tracker, "whoami", {});
    expect(me).toEqual({ login: "alice", echoedAuthorization: "[redacted]" });
    expect(JSON.stringify(me)).not.toContain(TOKEN);
  });

  it("rejects with the server's 401 when the host sends no credentials", async () => {
    const anonymous = await openApiConnector({ spec: SPEC, baseUrl: server.baseUrl });
    await expect(call(anonymous, "listIssues", { project: "core" })).rejects.toThrow(
      'GET /projects/{project}/issues failed with HTTP 401 Unauthorized: {"message":"Bad credentials"}',
    );
  });

  it("sends header parameters and recursive JSON bodies", async () => {
    const comment = { body: "Seen on CI too", replies: [{ body: "Same here", replies: [{ body: "Fixed?" }] }] };
    const first = await call(tracker, "addComment", {
      project: "core",
      number: 1,
      "X-Request-Id": "req-7",
      body: comment,
    });
    expect(first).toMatchObject({
      body: "Seen on CI too",
      replies: [{ body: "Same here", replies: [{ body: "Fixed?" }] }],
    });
    expect(server.requests.at(-1)!.headers["x-request-id"]).toBe("req-7");
    const again = await call(tracker, "addComment", {
      project: "core",
      number: 1,
      "X-Request-Id": "req-7",
      body: comment,
    });
    expect(again).toEqual(first);
    expect(conforms(method(tracker, "addComment").outputSchema, first)).toBe(true);
  });

  it("serializes deepObject query parameters", async () => {
    const found = await call(tracker, "search", { q: "dark", filter: { project: "core", state: "closed" } });
    expect(found).toMatchObject({ total: 1, items: [{ number: 2 }] });
    expect(server.requests.at(-1)!.query).toBe("?q=dark&filter%5Bproject%5D=core&filter%5Bstate%5D=closed");
  });

  it("patches, deletes (204 → undefined) and then reads a 404", async () => {
    expect(await call(tracker, "updateIssue", { project: "core", number: 1, body: { state: "closed" } })).toMatchObject(
      {
        number: 1,
        state: "closed",
      },
    );
    expect(
      await call(tracker, "delete_projects_by_project_issues_by_number", { project: "core", number: 1 }),
    ).toBeUndefined();
    await expect(call(tracker, "getIssue", { project: "core", number: 1 })).rejects.toThrow("HTTP 404");
  });

  it("validates arguments before anything is sent", async () => {
    const before = server.requests.length;
    const list = method(tracker, "listIssues");
    expect(await list.validate!({ project: "core", state: "bogus" })).toMatchObject({ success: false });
    expect(await list.validate!({ state: "open" })).toMatchObject({ success: false });
    expect(await list.validate!({ project: "core", title: "misplaced body field" })).toMatchObject({ success: false });
    expect(await list.validate!({ project: "core", limit: 0 })).toMatchObject({ success: false });
    const create = method(tracker, "createIssue");
    expect(await create.validate!({ project: "core" })).toMatchObject({ success: false });
    expect(await create.validate!({ project: "core", body: { title: "" } })).toMatchObject({ success: false });
    // Recursion through $defs is validated at depth.
    const comment = method(tracker, "addComment");
    const deep = { project: "core", number: 2, body: { body: "a", replies: [{ body: "b", replies: [{ body: 5 }] }] } };
    const result = await comment.validate!(deep);
    expect(result.success).toBe(false);
    expect(await method(tracker, "whoami").validate!(undefined)).toEqual({ success: true, value: {} });
    expect(server.requests.length).toBe(before);
  });

  it("passes the abort signal to fetch", async () => {
    const controller = new AbortController();
    const pending = call(tracker, "slow", {}, controller.signal);
    while (server.requests.at(-1)?.path !== "/api/slow") await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const failure = await pending.catch((error: unknown) => error);
    expect((failure as Error).message).toBe("GET /slow was aborted before the server answered");
    expect(OpenApiRequestError.isInstance(failure) && failure.failure === "aborted").toBe(true);
  });

  it("keeps credentials out of the error when the server cannot be reached", async () => {
    const closed = await startIssueTrackerServer({ token: TOKEN });
    await closed.close();
    const unreachable = await openApiConnector({
      spec: SPEC,
      baseUrl: closed.baseUrl,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const failure = (await call(unreachable, "whoami", {}).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/^GET \/whoami could not reach the server: /);
    expect(OpenApiRequestError.isInstance(failure) && failure.failure === "unreachable").toBe(true);
    expect(failure.message).not.toContain(TOKEN);
  });

  it("hides the host's header error from the program", async () => {
    const broken = await openApiConnector({
      spec: SPEC,
      baseUrl: server.baseUrl,
      headers: () => {
        throw new Error(`refresh failed for ${TOKEN}`);
      },
    });
    const failure = (await call(broken, "whoami", {}).catch((error: unknown) => error)) as Error;
    expect(failure.message).toBe("GET /whoami was not sent: the host could not provide its request headers");
    expect(OpenApiRequestError.isInstance(failure) && failure.failure === "headers").toBe(true);
    expect((failure.cause as Error).message).toContain("refresh failed");
  });
});
