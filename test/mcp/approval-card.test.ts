/**
 * The approval card (MCP Apps) over a real HTTP handler with `approvalLinks`: a client declaring MCP Apps lists and
 * reads `ui://ai-codemode/approval`, sees it named by `codemode`, gets a paused call answered at once with the
 * card's payload (calls whole, a signed token only in `_meta`), and the card's app-only tool decides once: a reused,
 * forged or other user's token changes nothing. A client without MCP Apps sees what it saw before. A server without
 * approval links offers the card too, signing with a secret of the process. A 2026-07-28 client (capabilities in
 * each request) gets the card too, with and without sessions.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it, onTestFinished } from "vitest";
import { byUser, mailRuntime, serveHandler } from "./support/handler-over-http.js";

const SECRET = "a-secret-of-at-least-32-characters!!";
const APP = "https://app.example/admin/codemode";
const CARD = "ui://ai-codemode/approval";
const LONG = "x".repeat(5000);
const SEND = `async () => mail.send({ to: "ada@example.com", body: ${JSON.stringify(LONG)} })`;
const APPS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

async function clientOf(url: string, user: string, capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client({ name: "card-test", version: "1" }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "x-user": user } } }),
  );
  onTestFinished(() => client.close());
  return client;
}

interface CardPayload {
  token: string;
  executionId: string;
  calls: Array<{ seq: number; connector: string; method: string; args: { body: string } }>;
}

const payloadOf = (result: { _meta?: Record<string, unknown> | undefined }) =>
  result._meta?.["ai-codemode/approval"] as CardPayload | undefined;
const textOf = (result: { content?: unknown }) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("");

describe("the approval card", () => {
  it("is listed, read and named to an MCP Apps client; its token decides once, only for its owner", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, approvalLinks: { url: APP, secret: SECRET } });
    // Declaring elicitation too: the card is shown instead of a form.
    const ada = await clientOf(url, "ada", { ...APPS, elicitation: { form: {}, url: {} } });

    const { resources } = await ada.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: CARD, mimeType: "text/html;profile=mcp-app" })]);
    const read = await ada.readResource({ uri: CARD });
    const html = (read.contents[0] as { text: string }).text;
    expect(html).toContain("<!doctype html>");
    expect(html).toContain("default-src 'none'");
    expect(html).toContain("codemode_approval_card");
    expect(read.contents[0]?._meta).toEqual({ ui: { csp: {}, prefersBorder: true } });

    const { tools } = await ada.listTools();
    const codemode = tools.find((tool) => tool.name === "codemode");
    expect(codemode?._meta).toMatchObject({ ui: { resourceUri: CARD } });
    const decider = tools.find((tool) => tool.name === "codemode_approval_card");
    expect(decider?._meta).toEqual({ ui: { resourceUri: CARD, visibility: ["app"] } });

    const paused = await ada.callTool({ name: "codemode", arguments: { code: SEND } });
    expect(paused.structuredContent).toMatchObject({ status: "paused" });
    const payload = payloadOf(paused);
    expect(payload?.calls).toEqual([
      { seq: expect.any(Number), connector: "mail", method: "send", args: { to: "ada@example.com", body: LONG } },
    ]);
    expect((payload as unknown as { code: string }).code).toBe(SEND);
    // The token never reaches the model's view.
    expect(textOf(paused)).not.toContain(payload!.token);
    expect(JSON.stringify(paused.structuredContent)).not.toContain(payload!.token);
    expect(textOf(paused)).toContain("approval card");
    const seq = payload!.calls[0]!.seq;
    const decisions = [{ seq, choice: "approve" }];

    // A forged token (its payload altered) and another user's use of a true one change nothing.
    const [body = "", mac = ""] = payload!.token.split(".");
    const forged = `${body.slice(0, -2)}${body.endsWith("A") ? "B" : "A"}${body.slice(-1)}.${mac}`;
    const forgedAnswer = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: forged, decisions },
    });
    expect(forgedAnswer.isError).toBe(true);
    expect(textOf(forgedAnswer)).toContain("Nothing was changed");
    const bob = await clientOf(url, "bob", APPS);
    const bobs = await bob.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload!.token, decisions },
    });
    expect(bobs.isError).toBe(true);
    expect(textOf(bobs)).toContain("another user");
    expect(sent).toEqual([]);

    const decided = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload!.token, decisions },
    });
    expect(decided.isError).toBeFalsy();
    expect(textOf(decided)).toContain("1 of 1 call(s) approved. The program continued and completed.");
    expect(sent).toHaveLength(1);
    const detail = await runtime.execution(payload!.executionId, { scope: "ada" });
    expect(detail?.calls.find((call) => call.seq === seq)?.decidedBy).toBe("approval card");

    const reused = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload!.token, decisions },
    });
    expect(reused.isError).toBe(true);
    expect(textOf(reused)).toContain("A card decides once");
    expect(sent).toHaveLength(1);
  });

  it("rejects with a reason, and refuses a decision that leaves a call undecided", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, approvalLinks: { url: APP, secret: SECRET } });
    const ada = await clientOf(url, "ada", APPS);
    const payload = payloadOf(await ada.callTool({ name: "codemode", arguments: { code: SEND } }))!;
    const none = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload.token, decisions: [] },
    });
    expect(none.isError).toBe(true);
    const seq = payload.calls[0]!.seq;
    const rejected = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload.token, decisions: [{ seq, choice: "reject" }], reason: "not today" },
    });
    expect(textOf(rejected)).toContain("0 of 1 call(s) approved");
    expect(sent).toEqual([]);
  });

  it("changes nothing for a client without MCP Apps", async () => {
    const { runtime } = mailRuntime();
    const withLinks = await serveHandler({ runtime, authorize: byUser, approvalLinks: { url: APP, secret: SECRET } });
    const plain = await clientOf(withLinks, "ada", {});
    const { tools } = await plain.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_search",
      "codemode_describe",
      "codemode_outcome",
    ]);
    expect(tools.every((tool) => tool._meta === undefined)).toBe(true);
    expect((await plain.listResources()).resources).toEqual([]);
    await expect(plain.readResource({ uri: CARD })).rejects.toThrow();
    const paused = await plain.callTool({ name: "codemode", arguments: { code: SEND } });
    expect(paused.structuredContent).toMatchObject({ status: "paused" });
    expect(paused._meta?.["ai-codemode/approval"]).toBeUndefined();
    expect(textOf(paused)).not.toContain("approval card");
    await expect(
      plain.callTool({ name: "codemode_approval_card", arguments: { token: "x", decisions: [] } }),
    ).rejects.toThrow(/Unknown tool/);
  });

  it("is offered by a server without approval links too, its tokens signed with a secret of the process", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const ada = await clientOf(url, "ada", APPS);
    expect((await ada.listTools()).tools.find((tool) => tool.name === "codemode")?._meta).toMatchObject({
      ui: { resourceUri: CARD },
    });
    const payload = payloadOf(await ada.callTool({ name: "codemode", arguments: { code: SEND } }))!;
    const decisions = [{ seq: payload.calls[0]!.seq, choice: "approve" }];
    // The process's secret: another user's session holds a token that verifies, but is not theirs.
    const bob = await clientOf(url, "bob", APPS);
    const bobs = await bob.callTool({ name: "codemode_approval_card", arguments: { token: payload.token, decisions } });
    expect(textOf(bobs)).toContain("another user");
    const forged = `${payload.token.slice(0, -3)}${payload.token.endsWith("AAA") ? "BBB" : "AAA"}`;
    const forgedAnswer = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: forged, decisions },
    });
    expect(textOf(forgedAnswer)).toContain("not valid");
    expect(sent).toEqual([]);
    const decided = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload.token, decisions },
    });
    expect(textOf(decided)).toContain("1 of 1 call(s) approved");
    expect(sent).toHaveLength(1);
  });

  it.each([
    ["with sessions", true],
    ["without sessions (approval links)", false],
  ] as const)("works for a 2026-07-28 client %s", async (_label, sessions) => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({
      runtime,
      authorize: byUser,
      sessions,
      approvalLinks: { url: APP, secret: SECRET },
    });
    const ada = new Client(
      { name: "card-test", version: "1" },
      { capabilities: APPS, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await ada.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "x-user": "ada" } } }),
    );
    onTestFinished(() => ada.close());
    expect(ada.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await ada.listResources()).resources.map((resource) => resource.uri)).toEqual([CARD]);
    const paused = await ada.callTool({ name: "codemode", arguments: { code: SEND } });
    const payload = payloadOf(paused)!;
    const decisions = [{ seq: payload.calls[0]!.seq, choice: "approve" }];
    const decided = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload.token, decisions },
    });
    expect(textOf(decided)).toContain("1 of 1 call(s) approved");
    const again = await ada.callTool({
      name: "codemode_approval_card",
      arguments: { token: payload.token, decisions },
    });
    expect(again.isError).toBe(true);
    expect(sent).toHaveLength(1);
  });
});
