/**
 * Approval links over an MCP session: a client declaring URL-mode elicitation gets `elicitation/create` with the
 * link instead of a form; the person decides on the inspector's page; the tool call answers with the result and
 * the server sends `notifications/elicitation/complete`. A declined link decides nothing. The option is checked
 * at construction.
 */
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeInspector } from "../../src/inspector/create-codemode-inspector.js";
import { createCodemodeMcpServer } from "../../src/mcp/create-codemode-mcp-server.js";
import { byUser, mailRuntime, serveHandler } from "./support/handler-over-http.js";

const SECRET = "a-secret-of-at-least-32-characters!!";
const APP = "https://app.example/admin/codemode";
const SEND = 'async () => mail.send({ to: "ada@example.com", body: "hi" })';

/** A client of `url` as ada declaring URL-mode elicitation (and `form` when asked); `setUp` adds its handlers. */
async function linkClient(url: string, form: boolean, setUp: (client: Client) => void): Promise<Client> {
  const client = new Client(
    { name: "links", version: "1" },
    { capabilities: { elicitation: { url: {}, ...(form ? { form: {} } : {}) } } },
  );
  setUp(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "x-user": "ada" } } }),
  );
  onTestFinished(() => client.close());
  return client;
}

/** A handler with approval links, the app's inspector beside it, and what the client was sent. */
async function setUp() {
  const { runtime, sent } = mailRuntime();
  const url = await serveHandler({ runtime, authorize: byUser, approvalLinks: { url: APP, secret: SECRET } });
  const inspector = createCodemodeInspector({
    runtime,
    authorize: () => ({ unscoped: true }),
    decidedBy: () => "grace",
    approvalLinks: { secret: SECRET, scope: (request) => request.headers.get("x-user") ?? undefined },
  });
  /** The person: opens the link as `user` and approves every call on it. */
  const approveAt = async (link: string, user: string): Promise<number> => {
    const page = await (await inspector(new Request(link, { headers: { "x-user": user } }))).text();
    const seqs = [...page.matchAll(/name="choice-(\d+)" value="approve"/g)].map((match) => match[1]);
    const answer = await inspector(
      new Request(link, {
        method: "POST",
        headers: {
          "x-user": user,
          origin: new URL(APP).origin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(seqs.map((seq) => [`choice-${seq}`, "approve"])).toString(),
      }),
    );
    return answer.status;
  };
  return { runtime, sent, url, approveAt };
}

describe("approval links with a session", () => {
  it("sends the link by URL-mode elicitation, answers with the result once the person decided, then completes", async () => {
    const { runtime, sent, url, approveAt } = await setUp();
    const asked: ElicitRequest["params"][] = [];
    const completed: string[] = [];
    const decided: Promise<number>[] = [];
    const client = await linkClient(url, true, (made) => {
      made.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        // The person opens the link after the client accepted (the decision comes in the browser, not in this answer).
        if (request.params.mode === "url") decided.push(approveAt(request.params.url, "ada"));
        return { action: "accept" };
      });
      made.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
        completed.push(notification.params.elicitationId);
      });
    });

    const result = await client.callTool({ name: "codemode", arguments: { code: SEND } });
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "sent" });
    expect(await Promise.all(decided)).toEqual([200]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: "url" });
    const link = asked[0] as { url: string; elicitationId: string; message: string };
    expect(link.url).toMatch(/^https:\/\/app\.example\/admin\/codemode\/link\//);
    expect(link.message).toMatch(/paused before mail\.send/);
    expect(completed).toEqual([link.elicitationId]);
    expect(JSON.stringify(result)).not.toContain(link.url);
    expect(sent).toHaveLength(1);
    const [execution] = await runtime.executions(1, { scope: "ada" });
    expect((await runtime.execution(execution!.executionId))?.calls.map((call) => call.decidedBy)).toEqual(["grace"]);
  });

  it("decides nothing when the person declines to open the link", async () => {
    const { sent, url } = await setUp();
    const client = await linkClient(url, false, (made) => {
      made.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" }));
    });
    const result = await client.callTool({ name: "codemode", arguments: { code: SEND } });
    expect(result.structuredContent).toMatchObject({ status: "paused" });
    expect(String((result.structuredContent as { message?: unknown }).message)).toMatch(
      /declined to open the approval link: nothing was approved/,
    );
    expect(sent).toEqual([]);
  });
});

describe("the approvalLinks option", () => {
  it("is checked at construction, naming the option", () => {
    const { runtime } = mailRuntime();
    const make =
      (approvalLinks: unknown, extra: object = {}) =>
      () =>
        createCodemodeMcpServer({ runtime, approvalLinks: approvalLinks as never, ...extra });
    expect(make({ url: "app.example/codemode", secret: SECRET })).toThrow(/approvalLinks\.url.*absolute http/);
    expect(make({ url: APP, secret: "short" })).toThrow(/approvalLinks\.secret.*at least 32/);
    expect(make({ url: APP, secret: SECRET, ttlMs: -1 })).toThrow(/approvalLinks\.ttlMs/);
    expect(make({ url: APP, secret: SECRET, ttl: 5 })).toThrow(/approvalLinks/);
    expect(make({ url: APP, secret: SECRET }, { elicitation: false })).toThrow(/approvalLinks.*needs elicitation/);
    expect(make({ url: `${APP}/`, secret: SECRET })).not.toThrow();
  });
});
