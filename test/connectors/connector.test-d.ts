/**
 * Type tests for `connector(tools, options)`: method policies are keyed by the tool set's own tool names, and each
 * policy's callbacks (`needsApproval`, `cost`, `revert`) get the tool's input type from its zod schema (and `revert`
 * its output type), so a policy needs no cast.
 */
import { tool, type ToolSet } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { connector, type Connector, type ConnectorOptions, type MethodPolicy } from "../../src/index.js";

const tools = {
  list_issues: tool({ inputSchema: z.object({ repo: z.string() }), execute: async () => [] }),
  create_issue: tool({ inputSchema: z.object({ title: z.string() }), execute: async () => ({ id: 1 }) }),
};

const payments = {
  refund: tool({
    inputSchema: z.object({ chargeId: z.string(), amount: z.number() }),
    execute: async ({ chargeId, amount }) => ({ refundId: `re_${chargeId}`, amount }),
  }),
  balance: tool({ inputSchema: z.object({}), execute: async () => 100 }),
};

describe("ConnectorOptions<TOOLS>", () => {
  it("keys `methods` by the tool names, each a MethodPolicy of the tool's input and output", () => {
    expectTypeOf<keyof NonNullable<ConnectorOptions<typeof tools>["methods"]>>().toEqualTypeOf<
      "list_issues" | "create_issue"
    >();
    expectTypeOf<NonNullable<ConnectorOptions<typeof tools>["methods"]>["create_issue"]>().toEqualTypeOf<
      MethodPolicy<{ title: string }, { id: number }> | undefined
    >();
  });

  it("types the arguments of needsApproval, cost and revert and the result revert gets", () => {
    connector(payments, {
      methods: {
        refund: {
          needsApproval: (args) => {
            expectTypeOf(args).toEqualTypeOf<{ chargeId: string; amount: number }>();
            return args.amount > 100;
          },
          cost: (args) => args.amount,
          revert: (args, result) => {
            expectTypeOf(args.chargeId).toEqualTypeOf<string>();
            expectTypeOf(result).toEqualTypeOf<{ refundId: string; amount: number }>();
            return result.refundId;
          },
          editable: true,
          maxCalls: 3,
        },
        balance: { readOnly: true },
      },
    });
  });

  it("refuses a policy for a tool the set does not have, and a callback misusing its arguments, at compile time", () => {
    // @ts-expect-error `delete_issue` is not a tool of this set.
    connector(tools, { methods: { delete_issue: { needsApproval: true } } });
    // @ts-expect-error `refnud` is a typo of `refund`.
    connector(payments, { methods: { refnud: { cost: () => 1 } } });
    // @ts-expect-error a misspelt policy key is not a MethodPolicy key.
    connector(tools, { methods: { create_issue: { needsAproval: true } } });
    // @ts-expect-error `amount` is a number: no `.length`.
    connector(payments, { methods: { refund: { cost: (args) => args.amount.length } } });
    connector(tools, { methods: { create_issue: { needsApproval: true, replay: "record" } } });
  });

  it("defaults TOOLS to any ToolSet and returns a Connector", () => {
    expectTypeOf<ConnectorOptions>().toEqualTypeOf<ConnectorOptions<ToolSet>>();
    expectTypeOf(connector(tools)).toEqualTypeOf<Connector>();
    expectTypeOf<NonNullable<ConnectorOptions["methods"]>[string]>().toEqualTypeOf<MethodPolicy | undefined>();
    // Any tool set: the callbacks still compile without a cast.
    const anyTools: ToolSet = tools;
    connector(anyTools, { methods: { anything: { needsApproval: (args) => args !== undefined } } });
  });
});
