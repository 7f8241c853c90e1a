// End-to-end: the app's MCP endpoint (app/api/mcp/route.ts, `createCodemodeMcpHandler` with `sessions: false`)
// after `next build`, served by `next start`, driven by the MCP SDK's client over Streamable HTTP as a signed-in
// user (the session's value as a bearer token). A program that merges a pull request pauses as an MCP task; a
// person approves it through the inspector's API (/codemode/api, their name journaled as decidedBy); tasks/result
// returns the merge, which the database shows happened once. Run: npm run e2e
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { startServer, stopServer } from "./support/app-server.mjs";
import { openExampleStore } from "./support/example-store.mjs";

const tmpDir = path.join(import.meta.dirname, ".tmp-mcp");
const port = Number(process.env.E2E_MCP_PORT ?? 3422);
const databaseUrl = `file:${path.join(tmpDir, "e2e.db")}`;
const INSPECTOR_TOKEN = "e2e-mcp-inspector-token";
const MERGE = (number) => `async () => tools.merge_pull_request({ repo: "acme/web", number: ${number} })`;

let server;
let store;
const clients = [];

/** A new signed-in user, as the app makes one: the session cookie's value (what the route takes as a bearer token). */
async function signIn() {
  const answer = await fetch(`${server.baseUrl}/session`, { redirect: "manual" });
  const cookie = /codemode_example_session=([^;]+)/.exec(answer.headers.get("set-cookie") ?? "")?.[1];
  assert.ok(cookie, "the app set a session cookie");
  return decodeURIComponent(cookie);
}

/** An MCP SDK client of the app's endpoint, with `token` as its bearer. */
async function mcpClient(token) {
  const client = new Client({ name: "e2e-mcp", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", server.baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** The inspector's JSON API as the person `name` (HTTP Basic with the inspector token). */
function inspectorApi(pathname, name, init = {}) {
  const credentials = Buffer.from(`${name}:${INSPECTOR_TOKEN}`).toString("base64");
  return fetch(`${server.baseUrl}/codemode/api${pathname}`, {
    ...init,
    headers: { authorization: `Basic ${credentials}`, "content-type": "application/json", ...init.headers },
  });
}

before(async () => {
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir, { recursive: true });
  server = await startServer({ port, databaseUrl, env: { CODEMODE_INSPECTOR_TOKEN: INSPECTOR_TOKEN } });
  store = openExampleStore(databaseUrl);
});

after(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await store?.close();
  await stopServer(server);
  rmSync(tmpDir, { recursive: true, force: true });
});

test("a client without a valid token is refused before anything runs", async () => {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  for (const authorization of [undefined, "Bearer user_forged.signature"]) {
    const answer = await fetch(`${server.baseUrl}/api/mcp`, {
      method: "POST",
      headers: authorization === undefined ? headers : { ...headers, authorization },
      body,
    });
    assert.equal(answer.status, 401);
  }
  await assert.rejects(mcpClient("user_forged.signature"), /401|Unauthorized|authorized/i);
});

test("lists codemode over the app's tools; a merge pauses as a task; approved in the inspector; tasks/result returns it once", async () => {
  const ada = await mcpClient(await signIn());
  const { tools } = await ada.listTools();
  const codemode = tools.find((listed) => listed.name === "codemode");
  assert.deepEqual(codemode?.execution, { taskSupport: "optional" });
  assert.match(codemode?.description ?? "", /merge_pull_request/);

  // Reading runs at once; a merge needs a person.
  const listed = await ada.callTool({
    name: "codemode",
    arguments: { code: 'async () => (await tools.list_pull_requests({ repo: "acme/web" })).length' },
  });
  assert.equal(listed.structuredContent?.status, "completed");

  const { task } = await ada.request(
    { method: "tools/call", params: { name: "codemode", arguments: { code: MERGE(42) }, task: {} } },
    CreateTaskResultSchema,
  );
  assert.equal(task.status, "input_required");
  assert.match(task.statusMessage ?? "", /inspector at \/codemode/);
  assert.deepEqual(await store.merges(), []);

  // Another user does not see the task.
  const bob = await mcpClient(await signIn());
  await assert.rejects(bob.experimental.tasks.getTask(task.taskId), /not found/i);
  assert.deepEqual(
    (await bob.experimental.tasks.listTasks()).tasks.map((listedTask) => listedTask.taskId),
    [],
  );

  // tasks/result waits (reading the journal) while a person approves in the inspector.
  const waiting = ada.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
  const approved = await inspectorApi(`/executions/${encodeURIComponent(task.taskId)}/approve`, "grace", {
    method: "POST",
    body: "{}",
  });
  assert.equal(approved.status, 200);
  assert.equal((await approved.json()).output.status, "completed");
  const result = await waiting;
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, {
    status: "completed",
    executionId: task.taskId,
    result: { repo: "acme/web", number: 42, merged: true, sha: "c0ffee42" },
  });

  assert.equal((await ada.experimental.tasks.getTask(task.taskId)).status, "completed");
  const again = await ada.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
  assert.deepEqual(again.structuredContent, result.structuredContent);
  assert.deepEqual(await store.merges(), [42]);
  assert.deepEqual(await store.deciders(task.taskId), { "tools.merge_pull_request": "grace" });
});

test("a client that asks for no task gets the paused result, and codemode_outcome reads it once decided", async () => {
  const ada = await mcpClient(await signIn());
  const paused = await ada.callTool({ name: "codemode", arguments: { code: MERGE(43) } });
  assert.equal(paused.structuredContent?.status, "paused");
  const { executionId } = paused.structuredContent;
  assert.match(paused.structuredContent?.message ?? "", /inspector at \/codemode/);

  const rejected = await inspectorApi(`/executions/${encodeURIComponent(executionId)}/reject`, "grace", {
    method: "POST",
    body: JSON.stringify({ reason: "not this one" }),
  });
  assert.equal(rejected.status, 200);
  const outcome = await ada.callTool({ name: "codemode_outcome", arguments: { executionId } });
  assert.equal(outcome.structuredContent?.status, "rejected");
  assert.deepEqual(await store.merges(), [42]);
});
