/**
 * Type tests for `openApiConnector` operation policies: operation ids come from a document read at run time, so
 * each callback gets the arguments object every operation takes (parameters by name, the body under `body`),
 * never `unknown`, and a misspelt policy key is a type error.
 */
import { describe, expectTypeOf, it } from "vitest";
import { openApiConnector } from "../../../src/openapi.js";

const spec = { openapi: "3.1.0", info: { title: "Shop", version: "1" }, paths: {} };

describe("OpenApiOperationOptions", () => {
  it("types needsApproval, cost and revert by the operation's arguments object", () => {
    void openApiConnector({
      spec,
      operations: {
        refund: {
          needsApproval: (args) => {
            expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
            return typeof args["amount"] === "number" && args["amount"] > 100;
          },
          cost: (args) => Number(args["amount"] ?? 0),
          revert: (args, result) => [args["chargeId"], result],
          editable: true,
          maxCalls: 2,
        },
      },
    });
    // @ts-expect-error a misspelt policy key
    void openApiConnector({ spec, operations: { refund: { needsAproval: true } } });
  });
});
