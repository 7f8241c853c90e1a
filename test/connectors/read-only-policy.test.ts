/**
 * The `readOnly` method policy (issue 15): set in `connector(tools, { methods })`, on hand-written methods and
 * per OpenAPI operation; the defaults (MCP `readOnlyHint: true`, OpenAPI GET/HEAD/OPTIONS) and the refusals.
 */
import { tool } from "@ai-sdk/provider-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connector } from "../../src/connectors/connector.js";
import { openApiConnector } from "../../src/connectors/openapi/openapi-connector.js";
import { resolveConnector } from "../../src/connectors/resolve-connector.js";
import { InvalidOptionError } from "../../src/errors.js";

const tools = {
  list_issues: tool({ inputSchema: z.object({}), execute: async () => [] }),
  close_issue: tool({ inputSchema: z.object({ number: z.number() }), needsApproval: true, execute: async () => true }),
};

/** A tool shaped as `@ai-sdk/mcp` returns it, with MCP annotations. */
function mcpTool(annotations: Record<string, boolean>) {
  return {
    ...tool({ inputSchema: z.object({}), execute: async () => ({ content: [{ type: "text", text: "[]" }] }) }),
    metadata: { clientName: "test", toolName: "t", annotations },
  };
}

function thrown(fn: () => unknown): InvalidOptionError {
  try {
    fn();
  } catch (error) {
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    return error as InvalidOptionError;
  }
  throw new Error("expected an InvalidOptionError");
}

describe("readOnly in connector()", () => {
  it("marks the built method, alone or with replay: reexecute", () => {
    const built = resolveConnector("issues", connector(tools, { methods: { list_issues: { readOnly: true } } }));
    expect(built.methods["list_issues"]!.readOnly).toBe(true);
    expect(built.methods["close_issue"]!.readOnly).toBeUndefined();
    const both = connector(tools, { methods: { list_issues: { readOnly: true, replay: "reexecute" } } });
    expect(both.methods["list_issues"]).toMatchObject({ readOnly: true, replay: "reexecute" });
  });

  it("refuses readOnly with approval (from the policy or the tool's needsApproval) and a non-boolean", () => {
    const withTool = thrown(() => connector(tools, { methods: { close_issue: { readOnly: true } } }));
    expect(withTool.path).toBe("connector().methods.close_issue.readOnly");
    expect(withTool.message).toContain("requires approval");
    const withPolicy = thrown(() =>
      connector(tools, { methods: { list_issues: { readOnly: true, needsApproval: () => true } } }),
    );
    expect(withPolicy.path).toBe("connector().methods.list_issues.readOnly");
    expect(
      connector(tools, { methods: { close_issue: { readOnly: true, needsApproval: false } } }).methods["close_issue"]!
        .readOnly,
    ).toBe(true);
    expect(thrown(() => connector(tools, { methods: { list_issues: { readOnly: "yes" as never } } })).path).toBe(
      "connector().methods.list_issues.readOnly",
    );
  });

  it("defaults to true for MCP tools annotated readOnlyHint: true, unless the policy says otherwise", () => {
    const mcp = { read: mcpTool({ readOnlyHint: true }), write: mcpTool({ readOnlyHint: false }), plain: mcpTool({}) };
    const built = connector(mcp);
    expect(built.methods["read"]!.readOnly).toBe(true);
    expect(built.methods["write"]!.readOnly).toBeUndefined();
    expect(built.methods["plain"]!.readOnly).toBeUndefined();
    expect(connector(mcp, { methods: { read: { readOnly: false } } }).methods["read"]!.readOnly).toBeUndefined();
    // Approval asked for a read-only-annotated tool wins over the default (no error: the default yields).
    expect(connector(mcp, { methods: { read: { needsApproval: true } } }).methods["read"]!.readOnly).toBeUndefined();
  });
});

describe("readOnly on hand-written methods", () => {
  it("is kept, validated, and refused with approval", () => {
    const execute = () => 1;
    expect(resolveConnector("h", { methods: { get: { execute, readOnly: true } } }).methods["get"]!.readOnly).toBe(
      true,
    );
    expect(thrown(() => resolveConnector("h", { methods: { get: { execute, readOnly: 1 as never } } })).path).toBe(
      "connectors.h.methods.get.readOnly",
    );
    expect(
      thrown(() => resolveConnector("h", { methods: { get: { execute, readOnly: true, needsApproval: true } } })).path,
    ).toBe("connectors.h.methods.get.readOnly");
  });
});

describe("readOnly in openApiConnector", () => {
  const spec = {
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    servers: [{ url: "https://pets.example/v1" }],
    paths: {
      "/pets": {
        get: { operationId: "listPets", responses: { "200": { description: "ok" } } },
        post: { operationId: "createPet", responses: { "201": { description: "ok" } } },
        options: { operationId: "petOptions", responses: { "200": { description: "ok" } } },
      },
      "/pets/{petId}": {
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
        get: { operationId: "getPet", responses: { "200": { description: "ok" } } },
        head: { operationId: "headPet", responses: { "200": { description: "ok" } } },
      },
    },
  };

  it("defaults to true for GET/HEAD/OPTIONS without approval; an operation may set it", async () => {
    const pets = await openApiConnector({
      spec,
      needsApproval: (operation) => operation.operationId === "getPet",
      operations: { createPet: { readOnly: true }, petOptions: { readOnly: false } },
    });
    expect(pets.methods["listPets"]!.readOnly).toBe(true);
    expect(pets.methods["headPet"]!.readOnly).toBe(true);
    expect(pets.methods["getPet"]!.readOnly).toBeUndefined();
    expect(pets.methods["createPet"]!.readOnly).toBe(true);
    expect(pets.methods["petOptions"]!.readOnly).toBeUndefined();
  });

  it("refuses readOnly on an operation that requires approval", async () => {
    const error = await openApiConnector({
      spec,
      operations: { listPets: { readOnly: true, needsApproval: true } },
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionError).path).toBe("operations.listPets.readOnly");
  });
});
