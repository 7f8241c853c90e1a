/**
 * POST SSE streams of a 2025-11-25 session open with a priming event (an id, empty data) and a
 * `retry` field, as that revision says a server SHOULD; the events are kept, so a client that
 * reconnects with `Last-Event-ID` gets what followed. A request whose header names an older
 * revision than its session negotiated (as the conformance suite's raw requests do) is framed by
 * the session's. Raw HTTP, to read the stream as it is sent.
 */
import { describe, expect, it } from "vitest";
import { byUser, mailRuntime, serveHandler } from "./support/handler-over-http.js";

interface SseEvent {
  id?: string;
  retry?: string;
  data?: string;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => {
      const event: SseEvent = {};
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, "");
        if (field === "id" || field === "retry") event[field] = value;
        if (field === "data") event.data = (event.data === undefined ? "" : `${event.data}\n`) + value;
      }
      return event;
    });
}

async function post(url: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-user": "alice",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...body }),
  });
}

async function session(url: string): Promise<string> {
  const opened = await post(url, {
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const sessionId = opened.headers.get("mcp-session-id");
  await opened.text();
  expect(sessionId).toBeTruthy();
  const initialized = await post(
    url,
    { method: "notifications/initialized" },
    { "mcp-session-id": sessionId!, "mcp-protocol-version": "2025-11-25" },
  );
  expect(initialized.status).toBe(202);
  return sessionId!;
}

describe("POST SSE streams of a 2025-11-25 session", () => {
  for (const claimed of ["2025-11-25", "2025-03-26"]) {
    it(`open with a priming event and a retry field, and resume by Last-Event-ID (header ${claimed})`, async () => {
      const { runtime } = mailRuntime();
      const url = await serveHandler({ runtime, authorize: byUser });
      const sessionId = await session(url);
      const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": claimed };
      const called = await post(
        url,
        { id: 2, method: "tools/call", params: { name: "codemode", arguments: { code: "async () => mail.peek({})" } } },
        headers,
      );
      expect(called.headers.get("content-type")).toContain("text/event-stream");
      const events = parseSse(await called.text());
      const [priming, ...rest] = events;
      expect(priming).toEqual({ id: expect.any(String), retry: "1000", data: "" });
      const answer = rest.find((event) => event.data?.includes('"id":2'));
      expect(answer?.id).toEqual(expect.any(String));
      expect(JSON.parse(answer!.data!)).toMatchObject({
        id: 2,
        result: { structuredContent: { status: "completed" } },
      });

      // A client whose stream dropped right after the priming event gets the rest again.
      const resumed = await fetch(url, {
        headers: { accept: "text/event-stream", "x-user": "alice", "last-event-id": priming!.id!, ...headers },
      });
      expect(resumed.status).toBe(200);
      const replayed = parseSse(await resumed.text());
      expect(replayed.map((event) => event.id)).toContain(answer!.id);
    });
  }

  it("a Last-Event-ID the session never gave is refused", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const sessionId = await session(url);
    const resumed = await fetch(url, {
      headers: {
        accept: "text/event-stream",
        "x-user": "alice",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
        "last-event-id": "forged_1",
      },
    });
    expect(resumed.status).toBe(400);
    await resumed.text();
  });
});
