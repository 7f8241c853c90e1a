/**
 * A tool without `inputSchema`: the AI SDK accepts it and passes whatever input it is given to `execute`
 * unvalidated (its stand-in schema has no validator), so a program may call it with any arguments, and its
 * declaration says the input is not described (`input?: unknown`) instead of promising an empty object.
 */
import type { ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { sharedExecutor } from "../runtime/runtime-fixture.js";

function lookupTools(received: unknown[]): ToolSet {
  const lookup = {
    description: "Look a customer up",
    execute: async (input: unknown) => {
      received.push(input);
      return { found: true };
    },
  };
  return { lookup } as unknown as ToolSet;
}

describe("a tool without inputSchema", () => {
  it("is called with the program's arguments, unvalidated, as the AI SDK would call it", async () => {
    const received: unknown[] = [];
    const runtime = createCodemodeRuntime({
      store: ":memory:",
      executor: sharedExecutor(),
      connectors: { crm: lookupTools(received) },
    });
    try {
      const withArguments = await runtime.execute({ code: 'async () => crm.lookup({ email: "ada@example.com" })' });
      expect(withArguments).toMatchObject({ status: "completed", result: { found: true } });
      const without = await runtime.execute({ code: "async () => crm.lookup()" });
      expect(without).toMatchObject({ status: "completed", result: { found: true } });
      expect(received[0]).toEqual({ email: "ada@example.com" });
    } finally {
      await runtime.close();
    }
  });

  it("is declared with an input that is not described", async () => {
    const runtime = createCodemodeRuntime({
      store: ":memory:",
      executor: sharedExecutor(),
      connectors: { crm: lookupTools([]) },
    });
    try {
      const described = await runtime.execute({ code: 'async () => codemode.describe("crm.lookup")' });
      expect(described).toMatchObject({ status: "completed" });
      const text = JSON.stringify((described as { result: unknown }).result);
      expect(text).toContain("lookup(input?: unknown)");
    } finally {
      await runtime.close();
    }
  });
});
