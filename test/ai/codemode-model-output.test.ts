import { describe, expect, it } from "vitest";
import { codemodeModelOutput, toModelJson } from "../../src/ai/codemode-model-output.js";
import type { CodeModeOutput } from "../../src/runtime/types.js";

describe("codemodeModelOutput", () => {
  it("keeps only the fields the model needs, never an audit log", () => {
    const output = {
      status: "completed",
      executionId: "e1",
      result: { n: 1 },
      logs: ["hello"],
      calls: [{ seq: 0, connector: "bank", method: "pay", args: { secret: "x" } }],
      journal: "raw",
    } as unknown as CodeModeOutput;
    expect(codemodeModelOutput(output)).toEqual({ status: "completed", executionId: "e1", result: { n: 1 }, logs: ["hello"] });
  });

  it("explains a pause and lists the pending actions", () => {
    const output: CodeModeOutput = {
      status: "paused",
      executionId: "e2",
      pending: [{ executionId: "e2", seq: 3, connector: "bank", method: "pay", args: { amount: 5 } }],
    };
    expect(codemodeModelOutput(output)).toEqual({
      status: "paused",
      executionId: "e2",
      pending: [{ seq: 3, connector: "bank", method: "pay", args: { amount: 5 } }],
      message: expect.stringContaining("Waiting for human approval of bank.pay"),
    });
  });

  it("passes errors with kind and logs, dropping empty logs", () => {
    const output: CodeModeOutput = { status: "error", executionId: "e3", error: "boom", kind: "exception", logs: [] };
    expect(codemodeModelOutput(output)).toEqual({ status: "error", executionId: "e3", kind: "exception", error: "boom" });
  });
});

describe("toModelJson", () => {
  it("renders sandbox value types as JSON", () => {
    const value = {
      when: new Date("2026-01-02T03:04:05.000Z"),
      big: 12345678901234567890n,
      map: new Map([["a", 1]]),
      pairs: new Map<unknown, unknown>([[1, "one"]]),
      set: new Set([1, 2]),
      bytes: new Uint8Array([104, 105]),
      missing: undefined,
      nan: Number.NaN,
      list: [undefined, 1],
    };
    expect(toModelJson(value)).toEqual({
      when: "2026-01-02T03:04:05.000Z",
      big: "12345678901234567890",
      map: { a: 1 },
      pairs: [[1, "one"]],
      set: [1, 2],
      bytes: { base64: "aGk=" },
      nan: "NaN",
      list: [null, 1],
    });
  });

  it("survives cycles", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    expect(toModelJson(cyclic)).toEqual({ a: 1, self: "[…]" });
  });
});
