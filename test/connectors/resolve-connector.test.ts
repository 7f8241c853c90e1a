import { jsonSchema, tool } from "@ai-sdk/provider-utils";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { InvalidOptionError } from "../../src/errors.js";
import { isConnector, resolveConnector } from "../../src/connectors/resolve-connector.js";
import type { Connector, ConnectorCallContext } from "../../src/connectors/types.js";

function callContext(overrides: Partial<ConnectorCallContext> = {}): ConnectorCallContext {
  return {
    executionId: "exec_1",
    seq: 3,
    idempotencyKey: "exec_1:3",
    toolCallId: "exec_1:3",
    connector: "github",
    method: "create_issue",
    abortSignal: new AbortController().signal,
    messages: [{ role: "user", content: "hi" }],
    context: { tenant: "acme" },
    ...overrides,
  };
}

function expectInvalidOption(fn: () => unknown, path: string, message?: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionError).path).toBe(path);
    if (message) expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error(`expected InvalidOptionError at ${path}`);
}

describe("resolveConnector: hand-written connectors", () => {
  const handWritten: Connector = {
    description: "Issue tracker",
    methods: {
      get_issue: {
        description: "Get an issue",
        inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
        execute: (args) => ({ got: args }),
      },
    },
  };

  it("passes a valid connector through with null-prototype methods and a JSON Schema validator", async () => {
    const resolved = resolveConnector("issues", handWritten);
    expect(isConnector(handWritten)).toBe(true);
    expect(Object.getPrototypeOf(resolved.methods)).toBe(null);
    expect(resolved.description).toBe("Issue tracker");
    const method = resolved.methods["get_issue"]!;
    expect(await method.execute({ id: 1 }, callContext())).toEqual({ got: { id: 1 } });
    expect(await method.validate!({ id: 1 })).toEqual({ success: true, value: { id: 1 } });
    const failed = await method.validate!({ id: "1" });
    expect(failed.success).toBe(false);
    if (!failed.success) expect(failed.error).toContain('id: expected number, got string "1"');
  });

  it("keeps members named __proto__ and constructor as ordinary methods", () => {
    const methods = Object.create(null) as Connector["methods"];
    methods["__proto__"] = { execute: () => 1 };
    methods["constructor"] = { execute: () => 2 };
    const resolved = resolveConnector("odd", { methods });
    expect(Object.keys(resolved.methods).sort()).toEqual(["__proto__", "constructor"]);
  });

  it("rejects reexecute combined with approval", () => {
    expectInvalidOption(
      () =>
        resolveConnector("bank", {
          methods: { pay: { execute: () => 1, replay: "reexecute", needsApproval: true } },
        }),
      "connectors.bank.methods.pay.replay",
      /requires approval/,
    );
  });

  it("names the path of a method without execute", () => {
    expectInvalidOption(
      () => resolveConnector("bank", { methods: { pay: { description: "x" } } } as unknown as Connector),
      "connectors.bank.methods.pay.execute",
    );
  });

  it("rejects unusable names and values", () => {
    expectInvalidOption(() => resolveConnector("my-api", {}), "connectors.my-api", /identifier/);
    expectInvalidOption(() => resolveConnector("codemode", {}), "connectors.codemode", /reserved/);
    // The host namespace the preludes use: a connector of that name would be silently shadowed.
    expectInvalidOption(
      () => resolveConnector("__codemode_host", {}),
      "connectors.__codemode_host",
      /reserved name "__codemode_host"/,
    );
    expectInvalidOption(() => resolveConnector("Math", {}), "connectors.Math", /reserved/);
    expectInvalidOption(() => resolveConnector("x", 42 as unknown as Connector), "connectors.x", /ToolSet/);
    expectInvalidOption(() => resolveConnector("tools", null as unknown as Connector), "tools");
  });
});

describe("resolveConnector: ToolSets", () => {
  it("converts zod tools, validates with compiler-like errors and passes ToolExecutionOptions", async () => {
    const execute = vi.fn(async (input: object, _options: unknown) => ({ number: 7, ...input }));
    const tools = {
      create_issue: tool({
        description: "Create an issue",
        inputSchema: z.object({ owner: z.string(), title: z.string(), labels: z.array(z.string()).optional() }),
        outputSchema: z.object({ number: z.number() }),
        execute,
      }),
    };
    const resolved = resolveConnector("github", tools);
    expect(isConnector(tools)).toBe(false);
    const method = resolved.methods["create_issue"]!;
    expect(method.description).toBe("Create an issue");
    expect(method.inputSchema).toMatchObject({ type: "object", required: ["owner", "title"] });
    expect(method.outputSchema).toMatchObject({ type: "object", properties: { number: { type: "number" } } });

    const bad = await method.validate!({ owner: "acme", labels: [3] });
    expect(bad.success).toBe(false);
    if (!bad.success) {
      expect(bad.error).toContain("Invalid arguments for github.create_issue(input):");
      expect(bad.error).toContain("title: expected string, got undefined");
      expect(bad.error).toContain("labels[0]: expected string, got number 3");
    }
    const good = await method.validate!({ owner: "acme", title: "Bug" });
    expect(good).toEqual({ success: true, value: { owner: "acme", title: "Bug" } });

    const context = callContext();
    await expect(method.execute({ owner: "acme", title: "Bug" }, context)).resolves.toEqual({
      number: 7,
      owner: "acme",
      title: "Bug",
    });
    const options = execute.mock.calls[0]![1];
    expect(options).toMatchObject({
      toolCallId: "exec_1:3",
      messages: context.messages,
      abortSignal: context.abortSignal,
      context: { tenant: "acme" },
      executionId: "exec_1",
      seq: 3,
      idempotencyKey: "exec_1:3",
    });
  });

  it("validates jsonSchema() tools with the JSON Schema validator", async () => {
    const tools = {
      search: tool({
        inputSchema: jsonSchema<{ q: string; state?: "open" | "closed" }>({
          type: "object",
          properties: { q: { type: "string" }, state: { enum: ["open", "closed"] } },
          required: ["q"],
          additionalProperties: false,
        }),
        execute: async ({ q }) => q,
      }),
    };
    const method = resolveConnector("github", tools).methods["search"]!;
    const bad = await method.validate!({ state: "merged", extra: 1 });
    expect(bad.success).toBe(false);
    if (!bad.success) {
      expect(bad.error).toContain("q: missing required property");
      expect(bad.error).toContain(`state: expected "open" | "closed", got string "merged"`);
      expect(bad.error).toContain("extra: unknown property");
    }
    expect((await method.validate!({ q: "x" })).success).toBe(true);
  });

  it("maps a tool's needsApproval (boolean and function of the input) to the method's", async () => {
    const seen: unknown[] = [];
    const tools = {
      always: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 1 }),
      big: tool({
        inputSchema: z.object({ amount: z.number() }),
        needsApproval: async (input, options) => {
          seen.push(options.toolCallId);
          return input.amount > 100;
        },
        execute: async () => 1,
      }),
      never: tool({ inputSchema: z.object({}), execute: async () => 1 }),
    };
    const resolved = resolveConnector("bank", tools);
    expect(resolved.methods["always"]!.needsApproval).toBe(true);
    expect(resolved.methods["never"]!.needsApproval).toBeUndefined();
    const decide = resolved.methods["big"]!.needsApproval as (args: unknown, context?: object) => Promise<boolean>;
    expect(await decide({ amount: 500 }, { toolCallId: "e:1" })).toBe(true);
    expect(await decide({ amount: 5 })).toBe(false);
    expect(seen).toEqual(["e:1", ""]);
  });

  it("leaves out tools without execute and provider tools, listing the reason", () => {
    const resolved = resolveConnector("ui", {
      ask_user: tool({ inputSchema: z.object({ question: z.string() }) }),
      web_search: { type: "provider", id: "openai.web_search", args: {}, inputSchema: z.object({}) },
      ok: tool({ inputSchema: z.object({}), execute: async () => 1 }),
    } as never);
    expect(Object.keys(resolved.methods)).toEqual(["ok"]);
    expect(resolved.skipped).toEqual([
      { name: "ask_user", reason: expect.stringContaining("no execute function") },
      { name: "web_search", reason: expect.stringContaining("provider-executed") },
    ]);
  });

  it("returns the last value of a streaming (async iterable) execute", async () => {
    const tools = {
      progress: tool({
        inputSchema: z.object({}),
        async *execute() {
          yield { step: 1 };
          yield { step: 2, done: true };
        },
      }),
    };
    const method = resolveConnector("jobs", tools).methods["progress"]!;
    expect(await method.execute({}, callContext())).toEqual({ step: 2, done: true });
  });

  it("accepts Standard Schema inputs that are not zod", async () => {
    const standard = {
      "~standard": {
        version: 1 as const,
        vendor: "handmade",
        validate: (value: unknown) =>
          typeof value === "object" && value !== null && typeof (value as { n?: unknown }).n === "number"
            ? { value }
            : { issues: [{ message: "n must be a number", path: [{ key: "n" }] }] },
        jsonSchema: {
          input: () => ({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
          output: () => ({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
        },
      },
    };
    const tools = {
      double: tool({ inputSchema: standard as never, execute: async (input: { n: number }) => input.n * 2 }),
    };
    const method = resolveConnector("math2", tools).methods["double"]!;
    expect(method.inputSchema).toMatchObject({ properties: { n: { type: "number" } } });
    const bad = await method.validate!({ n: "x" });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error).toContain('n: n must be a number (got string "x")');
  });

  it("treats a tool named `methods` as a tool, not as a connector", () => {
    const tools = { methods: tool({ inputSchema: z.object({}), execute: async () => "listed" }) };
    expect(isConnector(tools)).toBe(false);
    expect(Object.keys(resolveConnector("api", tools).methods)).toEqual(["methods"]);
  });
});
