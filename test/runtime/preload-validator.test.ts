/**
 * A run starts importing the JSON Schema validator library as it begins, when one of the process's connectors will
 * validate with it: on a cold start the main thread loads it while the sandbox worker boots, not at the first call
 * (issue 38). Creating a runtime loads nothing, and without such a connector no run loads it. Vitest runs this file
 * in its own process, so nothing has imported the library yet; the tests run in order.
 */
import { jsonSchema, tool } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { jsonSchemaValidatorRequested } from "../../src/connectors/argument-validator.js";
import { memoryClient, sharedExecutor } from "./runtime-fixture.js";

const closing: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closing) await close();
});

describe("the validator library is preloaded as a run starts", () => {
  it("a run with only zod-validated tools does not load it", async () => {
    const greet = tool({ inputSchema: z.object({ name: z.string() }), execute: async ({ name }) => `hi ${name}` });
    const runtime = createCodemodeRuntime({
      connectors: { app: { greet } },
      store: memoryClient(),
      executor: sharedExecutor(),
    });
    closing.push(() => runtime.close());
    const out = await runtime.execute({ code: "async () => app.greet({ name: 'Ada' })" });
    expect(out).toMatchObject({ status: "completed", result: "hi Ada" });
    expect(jsonSchemaValidatorRequested()).toBe(false);
  });

  it("creating a runtime with a JSON Schema tool loads nothing; its first run asks before any call", async () => {
    const greet = tool({
      inputSchema: jsonSchema<{ name: string }>({
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      }),
      execute: async ({ name }) => `hi ${name}`,
    });
    const runtime = createCodemodeRuntime({
      connectors: { app: { greet } },
      store: memoryClient(),
      executor: sharedExecutor(),
    });
    closing.push(() => runtime.close());
    expect(jsonSchemaValidatorRequested()).toBe(false);
    // A program that calls no tool: only the preload can have asked for the library.
    const out = await runtime.execute({ code: "async () => 1 + 1" });
    expect(out).toMatchObject({ status: "completed", result: 2 });
    expect(jsonSchemaValidatorRequested()).toBe(true);
    // And the calls validate with it.
    const invalid = await runtime.execute({ code: "async () => app.greet({ name: 42 })" });
    expect(invalid.status).toBe("error");
  });
});
