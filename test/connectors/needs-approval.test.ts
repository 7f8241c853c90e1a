/**
 * `needsApproval` is the one approval word of every policy (the AI SDK's): as a method policy of `connector()` (a
 * boolean or a function of the arguments), on a hand-written connector's method, and in `openApiConnector` (the
 * option and the per-operation policy) it pauses the call durably. The old keys are refused naming the new one:
 * silently ignoring them would run a call that was meant to wait for a person.
 */
import { tool } from "@ai-sdk/provider-utils";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connector } from "../../src/connectors/connector.js";
import { openApiConnector } from "../../src/connectors/openapi/openapi-connector.js";
import { resolveConnector } from "../../src/connectors/resolve-connector.js";
import { InvalidOptionError } from "../../src/errors.js";
import { testRuntime } from "../runtime/runtime-fixture.js";

function shop(sent: string[]) {
  return {
    buy: tool({
      inputSchema: z.object({ item: z.string(), price: z.number() }),
      execute: async ({ item }) => {
        sent.push(item);
        return { bought: item };
      },
    }),
  };
}

const petSpec = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1" },
  paths: {
    "/pets": {
      get: { operationId: "listPets", responses: { "200": { description: "ok" } } },
      post: { operationId: "createPet", responses: { "201": { description: "ok" } } },
    },
  },
};

const buy = 'async () => shop.buy({ item: "lamp", price: 30 })';

describe("needsApproval pauses", () => {
  it("as a boolean method policy of connector()", async () => {
    const sent: string[] = [];
    const runtime = testRuntime({
      connectors: { shop: connector(shop(sent), { methods: { buy: { needsApproval: true } } }) },
    });
    const paused = await runtime.execute({ code: buy });
    expect(paused).toMatchObject({ status: "paused", pending: [{ connector: "shop", method: "buy" }] });
    expect(sent).toEqual([]);
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({ status: "completed" });
    expect(sent).toEqual(["lamp"]);
  });

  it("as a function of the arguments, asking only when it says so", async () => {
    const sent: string[] = [];
    const needsApproval = (args: unknown) => (args as { price: number }).price > 20;
    const runtime = testRuntime({
      connectors: { shop: connector(shop(sent), { methods: { buy: { needsApproval } } }) },
    });
    const cheap = await runtime.execute({ code: 'async () => shop.buy({ item: "pen", price: 2 })' });
    expect(cheap).toMatchObject({ status: "completed" });
    expect(await runtime.execute({ code: buy })).toMatchObject({ status: "paused" });
    expect(sent).toEqual(["pen"]);
  });

  it("on a hand-written connector's method", async () => {
    const sent: string[] = [];
    const hand = { methods: { buy: { needsApproval: true, execute: async () => sent.push("lamp") } } };
    const runtime = testRuntime({ connectors: { shop: hand } });
    expect(await runtime.execute({ code: buy })).toMatchObject({ status: "paused" });
    expect(sent).toEqual([]);
  });

  it("in openApiConnector, as the option and as a per-operation policy, before any request is sent", async () => {
    const requests: string[] = [];
    const fetch = async (input: URL, init: RequestInit): Promise<Response> => {
      requests.push(`${init.method} ${input.pathname}`);
      return Response.json({ ok: true });
    };
    const byOption = await openApiConnector({
      spec: petSpec,
      baseUrl: "https://pets.test",
      fetch,
      needsApproval: true,
    });
    const byOperation = await openApiConnector({
      spec: petSpec,
      baseUrl: "https://pets.test",
      fetch,
      operations: { createPet: { needsApproval: () => true } },
    });
    const runtime = testRuntime({ connectors: { pets: byOption, pets2: byOperation } });
    const first = await runtime.execute({ code: "async () => pets.listPets({})" });
    expect(first).toMatchObject({ status: "paused", pending: [{ connector: "pets", method: "listPets" }] });
    expect(await runtime.execute({ code: "async () => pets2.listPets({})" })).toMatchObject({ status: "completed" });
    const second = await runtime.execute({ code: "async () => pets2.createPet({})" });
    expect(second).toMatchObject({ status: "paused", pending: [{ connector: "pets2", method: "createPet" }] });
    expect(requests).toEqual(["GET /pets"]);
  });
});

describe("the old approval keys are refused naming needsApproval", () => {
  function refusal(build: () => unknown): [string, string] {
    try {
      build();
    } catch (error) {
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      return [(error as InvalidOptionError).path, (error as InvalidOptionError).message];
    }
    throw new Error("expected an InvalidOptionError");
  }

  it("requiresApproval as a method policy of connector()", () => {
    expect(refusal(() => connector(shop([]), { methods: { buy: { requiresApproval: true } as never } }))).toEqual([
      "connector().methods.buy.requiresApproval",
      'connector().methods.buy.requiresApproval is not a known option (renamed: use "needsApproval")',
    ]);
  });

  it("requiresApproval on a hand-written connector's method", () => {
    const hand = { methods: { buy: { requiresApproval: true, execute: async () => "done" } } };
    expect(refusal(() => resolveConnector("shop", hand as never))[0]).toBe(
      "connectors.shop.methods.buy.requiresApproval",
    );
    expect(refusal(() => resolveConnector("shop", hand as never))[1]).toContain('(renamed: use "needsApproval")');
  });

  it("requireApproval and a per-operation requiresApproval in openApiConnector", async () => {
    const refused = (options: object) =>
      openApiConnector({ spec: petSpec, ...options } as never).then(
        () => undefined,
        (error: InvalidOptionError) => [error.path, error.message],
      );
    expect(await refused({ requireApproval: () => true })).toEqual([
      "options.requireApproval",
      'options.requireApproval is not a known option (renamed: use "needsApproval")',
    ]);
    expect(await refused({ operations: { createPet: { requiresApproval: true } } })).toEqual([
      "operations.createPet.requiresApproval",
      'operations.createPet.requiresApproval is not a known option (renamed: use "needsApproval")',
    ]);
  });
});
