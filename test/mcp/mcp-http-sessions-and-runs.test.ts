/**
 * What one MCP client of `createCodemodeMcpHandler` can do to others over real HTTP on 127.0.0.1:
 * opening many sessions closes only its own (never a session whose program waits on an approval
 * form), and one request (a JSON-RPC batch) or one owner starts only so many program runs.
 */
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { approveWhatIsOffered, byUser, clientAs, mailRuntime, serveHandler } from "./support/handler-over-http.js";

/** A person who answers each form only when the test says so. */
function heldPerson() {
  const waiting: Array<() => void> = [];
  let arrived: () => void = () => undefined;
  let next = new Promise<void>((done) => {
    arrived = done;
  });
  return {
    answer: (params: Parameters<typeof approveWhatIsOffered>[0]) =>
      new Promise<ElicitResult>((done) => {
        waiting.push(() => done(approveWhatIsOffered(params) as ElicitResult));
        arrived();
      }),
    /** Resolves once a form is waiting (then arms for the next). */
    async formArrived() {
      await next;
      next = new Promise<void>((done) => {
        arrived = done;
      });
    },
    releaseAll() {
      for (const release of waiting.splice(0)) release();
    },
  };
}

/** A JSON-RPC response as the tests read it. */
interface Reply {
  result?: { isError?: boolean; content: Array<{ text: string }> };
  error?: { message: string };
}

const SEND = (to: string) => `async () => mail.send({ to: ${JSON.stringify(to)} })`;

/** POSTs JSON-RPC `body` on `session` and resolves with the JSON-RPC responses (JSON or server-sent events). */
async function rpc(
  url: string,
  user: string,
  body: unknown,
  session?: string,
): Promise<{ status: number; session: string | null; messages: Reply[] }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-user": user,
      "mcp-protocol-version": "2025-06-18",
      ...(session === undefined ? {} : { "mcp-session-id": session }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const messages = (response.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)))
    : text === ""
      ? []
      : [JSON.parse(text)].flat();
  return { status: response.status, session: response.headers.get("mcp-session-id"), messages };
}

async function rawSession(url: string, user: string): Promise<string> {
  const started = await rpc(url, user, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  await rpc(url, user, { jsonrpc: "2.0", method: "notifications/initialized" }, started.session!);
  return started.session!;
}

describe("MCP sessions over HTTP are bounded per owner", () => {
  it("another owner opening many sessions never ends a session waiting on an approval form", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, sessions: { max: 4 } });
    const person = heldPerson();
    const ada = await clientAs(url, "ada", person.answer);
    const call = ada.callTool({ name: "codemode", arguments: { code: SEND("bob") } });
    await person.formArrived();
    const mallory = [];
    for (let index = 0; index < 10; index++) {
      const client = await clientAs(url, "mallory");
      await client.listTools();
      mallory.push(client);
    }
    // Mallory's own oldest sessions made room for her newer ones.
    await expect(mallory[0]!.listTools()).rejects.toThrow(/Session not found/);
    await expect(mallory[9]!.listTools()).resolves.toBeDefined();
    person.releaseAll();
    expect((await call).structuredContent).toMatchObject({ status: "completed", result: "sent" });
    expect(sent).toEqual([{ to: "bob" }]);
  });

  it("perOwner: an owner's next session closes its own least recently used idle one; with all busy it is refused", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, sessions: { perOwner: 2 } });
    const first = await rawSession(url, "ada");
    const second = await rawSession(url, "ada");
    await rawSession(url, "ada");
    const list = { jsonrpc: "2.0", id: 9, method: "tools/list" };
    expect((await rpc(url, "ada", list, first)).status).toBe(404);
    expect((await rpc(url, "ada", list, second)).status).toBe(200);

    const person = heldPerson();
    const busy = [await clientAs(url, "bob", person.answer), await clientAs(url, "bob", person.answer)];
    const calls = busy.map((client) => client.callTool({ name: "codemode", arguments: { code: SEND("carol") } }));
    await person.formArrived();
    await person.formArrived();
    const refused = await rpc(url, "bob", {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(refused.status).toBe(429);
    expect(refused.messages[0]?.error?.message).toMatch(/Too many MCP sessions are open for this user/);
    person.releaseAll();
    for (const out of await Promise.all(calls)) expect(out.structuredContent).toMatchObject({ status: "completed" });
  });
});

describe("program runs over HTTP are bounded per request and per owner", () => {
  it("a JSON-RPC batch of 6 codemode calls runs 4; the excess is told why and runs nothing", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const session = await rawSession(url, "ada");
    const batch = Array.from({ length: 6 }, (_, index) => ({
      jsonrpc: "2.0",
      id: index + 1,
      method: "tools/call",
      params: { name: "codemode", arguments: { code: `async () => ${index}` } },
    }));
    const answered = await rpc(url, "ada", batch, session);
    expect(answered.messages).toHaveLength(6);
    const results = answered.messages.map((message) => message.result!);
    const ran = results.filter((result) => result.isError !== true);
    const refused = results.filter((result) => result.isError === true);
    expect(ran).toHaveLength(4);
    expect(refused).toHaveLength(2);
    for (const result of refused)
      expect(result.content[0]?.text).toMatch(/^Not run: one request may start at most 4 codemode programs/);
    expect(await runtime.executions(50, { scope: "ada" })).toHaveLength(4);
  });

  it("one owner's runs in flight are bounded over all its sessions; another owner is not affected", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, _internal: { runs: { perOwner: 2 } } });
    const person = heldPerson();
    const held = [await clientAs(url, "ada", person.answer), await clientAs(url, "ada", person.answer)];
    const calls = held.map((client) => client.callTool({ name: "codemode", arguments: { code: SEND("x") } }));
    await person.formArrived();
    await person.formArrived();
    const third = await clientAs(url, "ada");
    const refused = await third.callTool({ name: "codemode", arguments: { code: "async () => mail.peek({})" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/2 codemode programs of this user are already running \(at most 2/);
    const bob = await clientAs(url, "bob");
    const other = await bob.callTool({ name: "codemode", arguments: { code: "async () => mail.peek({})" } });
    expect(other.structuredContent).toMatchObject({ status: "completed", result: "nothing new" });
    person.releaseAll();
    await Promise.all(calls);
    expect(sent).toHaveLength(2);
    const again = await third.callTool({ name: "codemode", arguments: { code: "async () => mail.peek({})" } });
    expect(again.structuredContent).toMatchObject({ status: "completed" });
  });
});
