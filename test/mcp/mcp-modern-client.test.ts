/**
 * A client of the 2026-07-28 revision (the MCP SDK v2 client pinned to it) against
 * `createCodemodeMcpHandler`, with and without sessions: it discovers the server
 * (`server/discover`, no `initialize`), lists the tools, runs a program that needs no approval,
 * and a program that pauses answers with how a person decides it. A 2025-11-25 client on the
 * same handler still initializes (the other tests of the handler).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it, onTestFinished } from "vitest";
import { byUser, clientAs, mailRuntime, serveHandler } from "./support/handler-over-http.js";

const MODERN = "2026-07-28";

async function modernClientAs(url: string, user: string): Promise<Client> {
  const client = new Client({ name: "modern-test", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "x-user": user } } }),
  );
  onTestFinished(() => client.close());
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

describe.each([
  ["with sessions", true],
  ["without sessions", false],
] as const)("a 2026-07-28 client of createCodemodeMcpHandler %s", (_label, sessions) => {
  it("discovers the server, lists the tools and runs a program that needs no approval", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, sessions });
    const client = await modernClientAs(url, "alice");
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
    expect(client.getServerVersion()?.name).toBe("ai-codemode");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_search",
      "codemode_describe",
      "codemode_outcome",
    ]);
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => mail.peek({})" } });
    expect(structured(out)).toMatchObject({ status: "completed", result: "nothing new" });
    // Its execution belongs to the user authorize named: another user's client cannot read it.
    const executionId = structured(out)["executionId"] as string;
    const bob = await modernClientAs(url, "bob");
    const read = await bob.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(read.isError).toBe(true);
  });

  it("a paused program answers paused, with how a person decides it; nothing ran", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, sessions });
    const client = await modernClientAs(url, "alice");
    const out = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => mail.send({ to: 'bob' })" },
    });
    expect(structured(out)).toMatchObject({ status: "paused" });
    expect(String(structured(out)["message"])).toMatch(/stays paused/);
    expect(sent).toEqual([]);
  });

  it("a 2025-11-25 client of the same handler still initializes and runs", async () => {
    const { runtime } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser, sessions });
    const client = await clientAs(url, "alice");
    const out = await client.callTool({ name: "codemode", arguments: { code: "async () => mail.peek({})" } });
    expect(structured(out)).toMatchObject({ status: "completed", result: "nothing new" });
  });
});
