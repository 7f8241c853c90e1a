/**
 * `ai-codemode mcp --proxy servers.json` on stdio (a real child process, two MCP servers from npm behind it) as a
 * 2026-07-28 client gets it: the SDK v2 client pinned to that revision. A program pausing on a destructive tool
 * answers `input_required` with the form; the approved retry runs the call once, `decidedBy` journaled; a decline
 * runs nothing; a person approving in the inspector (another process's view of the journal) meets a retry that
 * returns the outcome without running anything.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, DELETE_PROGRAM, personInspector, writeProxyConfig } from "./support/proxy-scenario.js";

const MODERN = "2026-07-28";
const COUNT = "async () => (await memory.read_graph({})).entities.length";
const CREATE_ADA =
  'async () => memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: [] }] })';

interface InputRequired {
  resultType: "input_required";
  inputRequests: Record<string, { params: { message: string; requestedSchema: { required: string[] } } }>;
  requestState: string;
}

describe("ai-codemode mcp on stdio for a 2026-07-28 client: approvals as multi-round-trip requests", () => {
  let folder: string;
  let person: ReturnType<typeof personInspector>;
  let client: Client;
  let answers: Array<"approve" | "decline"> = [];
  const forms: string[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "codemode-mcp-stdio-modern-"));
    const written = writeProxyConfig(folder);
    person = personInspector(written.config);
    client = new Client(
      { name: "stdio-modern", version: "1" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN } } },
    );
    client.setRequestHandler("elicitation/create", (request) => {
      const params = request.params as { message: string; requestedSchema: { required: string[] } };
      forms.push(params.message);
      return answers.shift() === "approve"
        ? {
            action: "accept" as const,
            content: Object.fromEntries(params.requestedSchema.required.map((field) => [field, "approve"])),
          }
        : { action: "decline" as const };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--proxy", written.file],
        cwd: folder,
        env: { PATH: process.env["PATH"] ?? "" },
        stderr: "pipe",
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await person?.proxy.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const count = async () =>
    ((await client.callTool({ name: "codemode", arguments: { code: COUNT } })).structuredContent as { result: number })
      .result;

  it("declined, the form decides nothing; approved, the retry runs the call once and journals who decided", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    await client.callTool({ name: "codemode", arguments: { code: CREATE_ADA } });
    expect(await count()).toBe(1);
    answers = ["decline"];
    const declined = await client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(declined.structuredContent).toMatchObject({ status: "paused" });
    expect(String((declined.structuredContent as Record<string, unknown>)["message"])).toMatch(
      /declined to decide: nothing was approved/,
    );
    expect(forms.at(-1)).toContain('memory.delete_entities {"entityNames":["Ada"]}');
    expect(await count()).toBe(1);

    answers = ["approve"];
    const approved = await client.callTool({ name: "codemode", arguments: { code: DELETE_PROGRAM } });
    expect(approved.structuredContent).toMatchObject({ status: "completed", result: 0 });
    const executionId = String((approved.structuredContent as Record<string, unknown>)["executionId"]);
    const detail = await (await person.proxy.runtime()).execution(executionId);
    expect(detail?.calls.find((call) => call.method === "delete_entities")).toMatchObject({ decidedBy: "mcp" });
  });

  it("approved in the inspector, the retry returns the outcome and runs nothing", async () => {
    await client.callTool({ name: "codemode", arguments: { code: CREATE_ADA } });
    expect(await count()).toBe(1);
    const asked = (await client.request(
      { method: "tools/call", params: { name: "codemode", arguments: { code: DELETE_PROGRAM } } },
      { allowInputRequired: true },
    )) as unknown as InputRequired;
    expect(asked, JSON.stringify(asked)).toMatchObject({ resultType: "input_required" });
    const executionId = /execution (\S+?)\)/.exec(asked.inputRequests["approval"]!.params.message)?.[1] ?? "";
    expect(await person.approve(executionId)).toMatchObject({ output: { status: "completed", result: 0 } });
    const field = asked.inputRequests["approval"]!.params.requestedSchema.required[0]!;
    for (const _ of [0, 1]) {
      const retried = await client.request(
        {
          method: "tools/call",
          params: {
            name: "codemode",
            arguments: { code: DELETE_PROGRAM },
            requestState: asked.requestState,
            inputResponses: { approval: { action: "accept", content: { [field]: "approve" } } },
          },
        },
        { allowInputRequired: true },
      );
      expect(retried).toMatchObject({ structuredContent: { status: "completed", executionId, result: 0 } });
    }
    expect(await count()).toBe(0);
  });
});
