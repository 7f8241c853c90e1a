/** Type tests for `connector(tools, options)`: method policies are keyed by the tool set's own tool names. */
import { tool, type ToolSet } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { connector, type Connector, type ConnectorOptions, type MethodPolicy } from "../../src/index.js";

const tools = {
  list_issues: tool({ inputSchema: z.object({ repo: z.string() }), execute: async () => [] }),
  create_issue: tool({ inputSchema: z.object({ title: z.string() }), execute: async () => ({ id: 1 }) }),
};

describe("ConnectorOptions<TOOLS>", () => {
  it("keys `methods` by the tool names, each an optional MethodPolicy", () => {
    expectTypeOf<keyof NonNullable<ConnectorOptions<typeof tools>["methods"]>>().toEqualTypeOf<
      "list_issues" | "create_issue"
    >();
    expectTypeOf<NonNullable<ConnectorOptions<typeof tools>["methods"]>["create_issue"]>().toEqualTypeOf<
      MethodPolicy | undefined
    >();
  });

  it("refuses a policy for a tool the set does not have, at compile time", () => {
    // @ts-expect-error `delete_issue` is not a tool of this set.
    connector(tools, { methods: { delete_issue: { needsApproval: true } } });
    // @ts-expect-error a misspelt policy key is not a MethodPolicy key.
    connector(tools, { methods: { create_issue: { needsAproval: true } } });
    connector(tools, { methods: { create_issue: { needsApproval: true, replay: "record" } } });
  });

  it("defaults TOOLS to any ToolSet and returns a Connector", () => {
    expectTypeOf<ConnectorOptions>().toEqualTypeOf<ConnectorOptions<ToolSet>>();
    expectTypeOf(connector(tools)).toEqualTypeOf<Connector>();
  });
});
