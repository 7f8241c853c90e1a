/**
 * `createCodemodeMcpHandler` in process: the SDK's Streamable HTTP client transport with its
 * `fetch` pointed at the handler. `authorize` decides the scope (or refuses), a session belongs to
 * the scope that began it, sessions are bounded, and `sessions: false` serves each request alone.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import {
  createCodemodeMcpHandler,
  type CodemodeMcpHandler,
  type CodemodeMcpHandlerOptions,
} from "../../src/mcp/create-codemode-mcp-handler.js";
import { createMockConnector } from "../../src/test/mock-connector.js";
import { tempFolder } from "../support/temp-folder.js";

const URL_BASE = "http://app.test/api/mcp";
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function runtimeIn(folder: string): CodemodeRuntime {
  const shop = createMockConnector("shop", {
    methods: { list: { result: ["tea"] }, buy: { needsApproval: true, result: "bought" } },
  });
  const runtime = createCodemodeRuntime({ connectors: { shop }, store: `file:${join(folder, "codemode.db")}` });
  cleanups.push(() => runtime.close());
  return runtime;
}

function handlerFor(options: CodemodeMcpHandlerOptions): CodemodeMcpHandler {
  const handler = createCodemodeMcpHandler(options);
  cleanups.push(() => handler.close());
  return handler;
}

/** A client whose requests carry `user` in a header the test's `authorize` reads. */
async function clientOf(handler: CodemodeMcpHandler, user: string, sessionId?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(URL_BASE), {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("x-user", user);
      return handler(new Request(input, { ...init, headers }));
    },
    ...(sessionId === undefined ? {} : { sessionId }),
  });
  const client = new Client({ name: "handler-test", version: "1" });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

const byUser: CodemodeMcpHandlerOptions["authorize"] = (request) => {
  const user = request.headers.get("x-user");
  return user === null || user === "nobody" ? false : { scope: user };
};

function post(handler: CodemodeMcpHandler, headers: Record<string, string>, body: unknown): Promise<Response> {
  return handler(
    new Request(URL_BASE, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    }),
  );
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("createCodemodeMcpHandler", () => {
  it("runs programs in the scope authorize gave; another scope cannot read them", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    const handler = handlerFor({ runtime, authorize: byUser });
    const ada = await clientOf(handler, "ada");
    const out = await ada.callTool({ name: "codemode", arguments: { code: "async () => shop.list({})" } });
    const executionId = String((out.structuredContent as { executionId: string }).executionId);
    expect((await runtime.execution(executionId))?.scope).toBe("ada");
    const bob = await clientOf(handler, "bob");
    expect((await bob.callTool({ name: "codemode_outcome", arguments: { executionId } })).isError).toBe(true);
  });

  it("refuses what authorize refuses: false is 401, a Response is sent as it is, a malformed grant is 401", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    const refused = handlerFor({ runtime, authorize: byUser });
    expect((await post(refused, { "x-user": "nobody" }, INITIALIZE)).status).toBe(401);
    const custom = handlerFor({
      runtime,
      authorize: () => new Response("sign in", { status: 401, headers: { "www-authenticate": "Bearer" } }),
    });
    const answer = await post(custom, {}, INITIALIZE);
    expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    const malformed = handlerFor({ runtime, authorize: () => ({ scope: "" }) });
    expect((await post(malformed, {}, INITIALIZE)).status).toBe(401);
    const confused = handlerFor({ runtime, authorize: () => ({ scope: "ada", unscoped: true }) as never });
    expect((await post(confused, {}, INITIALIZE)).status).toBe(401);
  });

  it("refuses a page of another origin before authorize; its own origin and allowedOrigins pass", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    let asked = 0;
    const handler = handlerFor({
      runtime,
      authorize: (request) => {
        asked++;
        return byUser(request);
      },
      allowedOrigins: ["https://tools.example"],
    });
    const foreign = await post(handler, { "x-user": "ada", origin: "https://evil.example" }, INITIALIZE);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: { message: expect.stringMatching(/evil\.example.*not allowed/) },
    });
    expect((await post(handler, { "x-user": "ada", origin: "http://localhost:3000" }, INITIALIZE)).status).toBe(403);
    expect(asked).toBe(0);
    expect((await post(handler, { "x-user": "ada", origin: "http://app.test" }, INITIALIZE)).status).toBe(200);
    expect((await post(handler, { "x-user": "ada", origin: "https://tools.example" }, INITIALIZE)).status).toBe(200);
    expect((await post(handler, { "x-user": "ada" }, INITIALIZE)).status).toBe(200);
  });

  it("a session belongs to the scope that began it: another scope's request with its id finds no session", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    const handler = handlerFor({ runtime, authorize: byUser });
    const started = await post(handler, { "x-user": "ada" }, INITIALIZE);
    const sessionId = started.headers.get("mcp-session-id")!;
    expect(sessionId).toBeTruthy();
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    expect((await post(handler, { ...headers, "x-user": "bob" }, list)).status).toBe(404);
    await post(handler, { ...headers, "x-user": "ada" }, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await post(handler, { ...headers, "x-user": "ada" }, list)).status).toBe(200);
  });

  it("keeps at most sessions.max sessions and closes idle ones", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    let clock = 0;
    const handler = handlerFor({
      runtime,
      authorize: byUser,
      sessions: { max: 2, idleMs: 1000 },
      _internal: { now: () => clock },
    });
    const idOf = async () => (await post(handler, { "x-user": "ada" }, INITIALIZE)).headers.get("mcp-session-id")!;
    const list = (id: string) =>
      post(
        handler,
        { "x-user": "ada", "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
        { jsonrpc: "2.0", id: 3, method: "tools/list" },
      );
    const first = await idOf();
    const second = await idOf();
    await idOf(); // the third evicts the least recently used (the first)
    expect((await list(first)).status).toBe(404);
    expect((await list(second)).status).not.toBe(404);
    clock += 5000;
    await idOf(); // a new session sweeps the idle ones
    expect((await list(second)).status).toBe(404);
  });

  it("sessions: false serves each request alone (no elicitation: a pause says how a person decides)", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    const handler = handlerFor({ runtime, authorize: () => ({ unscoped: true }), sessions: false });
    const client = await clientOf(handler, "anyone");
    expect((await client.listTools()).tools[0]?.name).toBe("codemode");
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => shop.buy({})" } });
    expect(out.structuredContent).toMatchObject({ status: "paused" });
    expect(String((out.structuredContent as { message: string }).message)).toMatch(/No person can be asked/);
  });

  it("a codemode call with retry never runs: where no retry ids are given, as a task, or not a string", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    const code = "async () => shop.buy({})";
    const plain = await clientOf(handlerFor({ runtime, authorize: byUser, sessions: false }), "ada");
    expect((await plain.listTools()).tools[0]?.inputSchema.properties).not.toHaveProperty("retry");
    const refused = await plain.callTool({ name: "codemode", arguments: { code, retry: "x.yyyyyyyyyyyyyyyyyyyyyy" } });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/gives no retry ids/) }] });

    const links = { url: "https://app.test/codemode", secret: "s".repeat(32) };
    const linked = await clientOf(
      handlerFor({ runtime, authorize: byUser, sessions: false, approvalLinks: links }),
      "ada",
    );
    expect((await linked.listTools()).tools[0]?.inputSchema.properties).toHaveProperty("retry");
    const numeric = await linked.callTool({ name: "codemode", arguments: { code, retry: 42 } });
    expect(numeric).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Nothing ran/) }] });
    await expect(
      linked.request(
        { method: "tools/call", params: { name: "codemode", arguments: { code, retry: "x.y" }, task: {} } },
        CreateTaskResultSchema,
      ),
    ).rejects.toThrow(/without a task/);
    expect(await runtime.executions(10)).toEqual([]);
  });

  it("sessions: false answers GET and DELETE with 405: no stream that closes at once for a client to reopen", async () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    const handler = handlerFor({ runtime, authorize: byUser, sessions: false });
    for (const method of ["GET", "DELETE"]) {
      const answer = await handler(
        new Request(URL_BASE, { method, headers: { "x-user": "ada", accept: "text/event-stream" } }),
      );
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
      expect(await answer.json()).toMatchObject({ error: { message: expect.stringMatching(/sessions: false/) } });
    }
    // authorize still comes first.
    expect((await handler(new Request(URL_BASE, { method: "GET" }))).status).toBe(401);
  });

  it("refuses bad options at construction, naming the path", () => {
    const runtime = runtimeIn(tempFolder("codemode-mcp-handler-"));
    expect(() => createCodemodeMcpHandler({ runtime } as never)).toThrow(
      /createCodemodeMcpHandler\.authorize is required/,
    );
    expect(() => createCodemodeMcpHandler({ runtime, authorize: byUser, sesions: false } as never)).toThrow(
      /createCodemodeMcpHandler\.sesions is not a known option \(did you mean "sessions"\?\)/,
    );
    expect(() => createCodemodeMcpHandler({ runtime, authorize: byUser, maxBodyBytes: 0 })).toThrow(
      /maxBodyBytes must be a positive integer/,
    );
    expect(() =>
      createCodemodeMcpHandler({ runtime, authorize: byUser, allowedOrigins: ["https://a.example/path"] }),
    ).toThrow(/createCodemodeMcpHandler\.allowedOrigins\[0\] must be an origin/);
    expect(() => createCodemodeMcpHandler({ runtime, authorize: byUser, sessions: { perOwner: 0 } })).toThrow(
      /sessions\.perOwner must be a positive integer/,
    );
    expect(() =>
      createCodemodeMcpHandler({ runtime, authorize: byUser, elicitation: { timeout: 5 } as never }),
    ).toThrow(/elicitation\.timeout is not a known option/);
  });
});
