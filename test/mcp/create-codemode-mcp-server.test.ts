/**
 * The codemode MCP server through the SDK's own `Client` over an in-memory transport pair:
 * the tool list, programs, bad arguments, unknown tools, approvals by elicitation (accepted,
 * declined, cancelled, timed out, several calls in one form), the no-elicitation path with
 * the read-only outcome tool, and two deciders at once.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  ElicitRequestSchema,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { createCodemodeMcpServer } from "../../src/mcp/create-codemode-mcp-server.js";
import type { CodemodeMcpServerOptions } from "../../src/mcp/mcp-server-options.js";
import { createMockConnector, type MockConnector } from "../../src/test/mock-connector.js";
import { tempFolder } from "../support/temp-folder.js";
import { DEFAULT_TOOL_NAMES } from "./support/tool-names.js";

type Elicit = (params: {
  message: string;
  requestedSchema: { properties: Record<string, unknown> };
}) => Promise<ElicitResult>;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function bankRuntime(folder: string): { runtime: CodemodeRuntime; bank: MockConnector } {
  const bank = createMockConnector("bank", {
    description: "Accounts and transfers",
    methods: {
      balance: { result: 100, readOnly: true },
      transfer: { needsApproval: true, result: (args: unknown) => ({ done: args }) },
      close_account: { needsApproval: true, result: "closed" },
    },
  });
  const runtime = createCodemodeRuntime({ connectors: { bank }, store: `file:${join(folder, "codemode.db")}` });
  closers.push(() => runtime.close());
  return { runtime, bank };
}

async function connect(options: CodemodeMcpServerOptions, elicit?: Elicit): Promise<Client> {
  const server = createCodemodeMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: "test-host", version: "1.0.0" },
    elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params as never));
  await server.connect(serverSide);
  await client.connect(clientSide);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "") as string;
}

describe("createCodemodeMcpServer", () => {
  it("lists codemode (the runtime.tool() description and input), the discovery tools and the outcome tool", async () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOL_NAMES);
    const codemode = tools[0]!;
    expect(codemode.description).toBe(runtime.tool().description);
    expect(codemode.inputSchema).toMatchObject({ type: "object", required: ["code"] });
    expect(codemode.outputSchema).toMatchObject({ type: "object", required: ["status", "executionId"] });
    expect(tools[3]!.annotations).toMatchObject({ readOnlyHint: true });
    const bare = await connect({ runtime, discoveryTools: false });
    expect((await bare.listTools()).tools.map((tool) => tool.name)).toEqual(["codemode", "codemode_outcome"]);
  });

  it("runs a program: the CodemodeOutput as JSON text and structuredContent; a failed one is isError", async () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime });
    const done = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => (await bank.balance({})) + 1" },
    });
    expect(structured(done)).toMatchObject({ status: "completed", result: 101 });
    expect(JSON.parse(text(done))).toEqual(structured(done));
    expect(done.isError).toBeUndefined();
    const failed = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => { throw new Error('nope') }" },
    });
    expect(failed.isError).toBe(true);
    expect(structured(failed)).toMatchObject({ status: "error", kind: "exception" });
    expect(String(structured(failed)["error"])).toContain("nope");
  });

  it("searches and describes through the discovery tools", async () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime });
    const found = await client.callTool({ name: "codemode_search", arguments: { query: "transfer money" } });
    expect(JSON.parse(text(found)).results[0]).toMatchObject({ path: "bank.transfer" });
    const described = await client.callTool({ name: "codemode_describe", arguments: { target: "bank.transfer" } });
    expect(text(described)).toContain("transfer");
    const missing = await client.callTool({ name: "codemode_describe", arguments: { target: "nowhere.x" } });
    expect(missing.isError).toBe(true);
  });

  it("answers bad arguments with a tool error and an unknown tool with a protocol error naming the tools", async () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime });
    const noCode = await client.callTool({ name: "codemode", arguments: { program: "1" } });
    expect(noCode.isError).toBe(true);
    expect(text(noCode)).toContain('{ "code": string }');
    const badLimit = await client.callTool({ name: "codemode_search", arguments: { query: "x", limit: 0 } });
    expect(text(badLimit)).toContain("limit must be an integer");
    await expect(client.callTool({ name: "approve", arguments: {} })).rejects.toThrow(
      /Unknown tool "approve"\. This server's tools: codemode, codemode_search, codemode_describe, codemode_outcome/,
    );
    const huge = await client.callTool({
      name: "codemode",
      arguments: { code: `async () => ${"1+".repeat(200_000)}1` },
    });
    expect(huge.isError).toBe(true);
    expect(structured(huge)["error"]).toMatch(/characters/);
  });

  it("asks the person by elicitation when a program pauses, then resumes in the same tool call", async () => {
    const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
    const forms: Array<{ message: string; fields: string[] }> = [];
    const client = await connect({ runtime }, async (params) => {
      forms.push({ message: params.message, fields: Object.keys(params.requestedSchema.properties) });
      return { action: "accept", content: { [Object.keys(params.requestedSchema.properties)[0]!]: "approve" } };
    });
    const out = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => (await bank.transfer({ to: 'ada', amount: 5 })).done.amount" },
    });
    expect(structured(out)).toMatchObject({ status: "completed", result: 5 });
    expect(forms).toHaveLength(1);
    expect(forms[0]!.message).toContain('bank.transfer {"to":"ada","amount":5}');
    expect(bank.ledger.count("bank.transfer")).toBe(1);
  });

  it("asks about every pending call of one pass in one form, and a rejection reaches the program", async () => {
    const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
    let asked = 0;
    const client = await connect({ runtime }, async (params) => {
      asked++;
      const [first, second] = Object.keys(params.requestedSchema.properties);
      return { action: "accept", content: { [first!]: "approve", [second!]: "reject", reason: "not today" } };
    });
    const out = await client.callTool({
      name: "codemode",
      arguments: {
        code: `async () => {
          const [a, b] = await Promise.allSettled([bank.transfer({ to: "a" }), bank.close_account({ id: 1 })]);
          return [a.status, b.status, String(b.reason?.message ?? b.reason)];
        }`,
      },
    });
    expect(asked).toBe(1);
    const result = structured(out)["result"] as string[];
    expect(result.slice(0, 2)).toEqual(["fulfilled", "rejected"]);
    expect(result[2]).toContain("not today");
    expect(bank.ledger.count("bank.transfer")).toBe(1);
    expect(bank.ledger.count("bank.close_account")).toBe(0);
  });

  for (const [label, answer] of [
    ["declined", async (): Promise<ElicitResult> => ({ action: "decline" })],
    ["cancelled", async (): Promise<ElicitResult> => ({ action: "cancel" })],
    ["answered without a choice", async (): Promise<ElicitResult> => ({ action: "accept", content: { reason: "hm" } })],
  ] as const) {
    it(`an elicitation ${label} decides nothing: the run stays paused and the model is told`, async () => {
      const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
      const client = await connect({ runtime }, answer);
      const out = await client.callTool({
        name: "codemode",
        arguments: { code: "async () => bank.transfer({ to: 'x' })" },
      });
      const view = structured(out);
      expect(view).toMatchObject({ status: "paused", pending: [{ connector: "bank", method: "transfer" }] });
      expect(view["message"]).toMatch(/nothing was approved, rejected or run/);
      expect(view["message"]).toContain("codemode_outcome");
      expect(bank.ledger.count("bank.transfer")).toBe(0);
      expect((await runtime.execution(String(view["executionId"])))?.status).toBe("paused");
    });
  }

  it("an elicitation that times out decides nothing", async () => {
    const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime, elicitation: { timeoutMs: 50 } }, () => new Promise(() => undefined));
    const out = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => bank.transfer({ to: 'x' })" },
    });
    expect(structured(out)["message"]).toMatch(/did not answer the approval request in time: nothing was approved/);
    expect(bank.ledger.count("bank.transfer")).toBe(0);
  });

  it("without elicitation: paused with how a person decides; the outcome tool reads the result once decided", async () => {
    const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime });
    const out = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => bank.transfer({ to: 'x' })" },
    });
    const { executionId, message } = structured(out) as { executionId: string; message: string };
    expect(message).toContain(`npx ai-codemode approve ${executionId}`);
    expect(message).toContain("The model cannot approve it");
    const waiting = await client.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(waiting)).toMatchObject({ status: "paused" });
    expect(bank.ledger.count("bank.transfer")).toBe(0);
    await runtime.approve({ executionId });
    const decided = await client.callTool({ name: "codemode_outcome", arguments: { executionId } });
    expect(structured(decided)).toMatchObject({ status: "completed", result: { done: { to: "x" } } });
    const unknown = await client.callTool({ name: "codemode_outcome", arguments: { executionId: "nope" } });
    expect(unknown.isError).toBe(true);
  });

  it("a scoped server starts executions in its scope and cannot read another scope's", async () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    const ada = await connect({ runtime, scope: "ada" });
    const bob = await connect({ runtime, scope: "bob" });
    const out = await ada.callTool({ name: "codemode", arguments: { code: "async () => 1" } });
    const executionId = String(structured(out)["executionId"]);
    expect((await runtime.execution(executionId))?.scope).toBe("ada");
    expect((await bob.callTool({ name: "codemode_outcome", arguments: { executionId } })).isError).toBe(true);
    expect(structured(await ada.callTool({ name: "codemode_outcome", arguments: { executionId } }))).toMatchObject({
      status: "completed",
      result: 1,
    });
  });

  it("of an elicitation and another decider at once, exactly one resumes the run", async () => {
    const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
    let elsewhere: Promise<unknown> | undefined;
    const client = await connect({ runtime }, async (params) => {
      const executionId = /execution (\S+)\)/.exec(params.message)?.[1] ?? "";
      // A person approves in the inspector while this form is open; then this person approves too.
      elsewhere = runtime.approve({ executionId });
      await elsewhere;
      return { action: "accept", content: { [Object.keys(params.requestedSchema.properties)[0]!]: "approve" } };
    });
    const out = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => bank.transfer({ to: 'x' })" },
    });
    expect(await elsewhere).toMatchObject({ status: "completed" });
    expect(structured(out)).toMatchObject({ status: "error" });
    expect(structured(out)["message"]).toMatch(/Someone else decided or resumed/);
    expect(bank.ledger.count("bank.transfer")).toBe(1);
  });
});

describe("createCodemodeMcpServer options", () => {
  it("refuses bad options at construction, naming the path and the closest key", () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    expect(() => createCodemodeMcpServer({ runtime: {} as never })).toThrow(
      /createCodemodeMcpServer\.runtime must be a runtime/,
    );
    expect(() => createCodemodeMcpServer({ runtime, discoveryTool: false } as never)).toThrow(
      /createCodemodeMcpServer\.discoveryTool is not a known option \(did you mean "discoveryTools"\?\)/,
    );
    expect(() => createCodemodeMcpServer({ runtime, elicitation: { timeoutMs: 0 } })).toThrow(
      /elicitation\.timeoutMs must be a positive integer/,
    );
    expect(() => createCodemodeMcpServer({ runtime, scope: "" })).toThrow(
      /createCodemodeMcpServer\.scope must be a non-empty string/,
    );
  });

  it("tells the client the tool list changed when the runtime function returns another runtime (a proxy rebuilt)", async () => {
    const folder = tempFolder("codemode-mcp-");
    const first = bankRuntime(folder).runtime;
    const second = createCodemodeRuntime({
      connectors: { other: createMockConnector("other", { methods: { ping: {} } }) },
      store: `file:${join(folder, "b.db")}`,
    });
    closers.push(() => second.close());
    let current = first;
    const client = await connect({ runtime: () => current });
    let changed = 0;
    const noticed = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
        resolve();
      });
    });
    expect((await client.listTools()).tools[0]?.description).toContain("bank");
    await client.callTool({ name: "codemode", arguments: { code: "async () => 1" } });
    expect(changed).toBe(0);
    current = second;
    await client.callTool({ name: "codemode", arguments: { code: "async () => other.ping({})" } });
    await noticed;
    expect((await client.listTools()).tools[0]?.description).toContain("other");
  });

  it("sends the package's name and version as serverInfo", async () => {
    const { runtime } = bankRuntime(tempFolder("codemode-mcp-"));
    const client = await connect({ runtime });
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(client.getServerVersion()).toEqual({ name: "ai-codemode", version });
  });

  it("with elicitation: false, never asks even a client that could answer", async () => {
    const { runtime, bank } = bankRuntime(tempFolder("codemode-mcp-"));
    let asked = 0;
    const client = await connect({ runtime, elicitation: false }, async () => {
      asked++;
      return { action: "decline" };
    });
    const out = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => bank.transfer({ to: 'x' })" },
    });
    expect(structured(out)).toMatchObject({ status: "paused" });
    expect(asked).toBe(0);
    expect(bank.ledger.count("bank.transfer")).toBe(0);
  });
});
