import { describe, expect, it } from "vitest";
import { codemodeModelOutput } from "../../src/ai/codemode-model-output.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../../src/ai/model-output-budget.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";

describe("codemodeModelOutput", () => {
  it("keeps only the fields the model needs, never an audit log", () => {
    const output = {
      status: "completed",
      executionId: "e1",
      result: { n: 1 },
      logs: ["hello"],
      calls: [{ seq: 0, connector: "bank", method: "pay", args: { secret: "x" } }],
      journal: "raw",
    } as unknown as CodemodeOutput;
    expect(codemodeModelOutput(output)).toEqual({
      status: "completed",
      executionId: "e1",
      result: { n: 1 },
      logs: ["hello"],
    });
  });

  it("explains a pause and lists the pending actions", () => {
    const output: CodemodeOutput = {
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

  it("names a call approved with changed arguments, with both argument sets, on every status", () => {
    const edited = [
      { seq: 2, connector: "billing", method: "refund", args: { amount: 500 }, approvedArgs: { amount: 50 } },
    ];
    const expected = {
      edited: [
        { seq: 2, connector: "billing", method: "refund", programArgs: { amount: 500 }, ranWithArgs: { amount: 50 } },
      ],
      editedMessage: expect.stringMatching(
        /^A person approved billing\.refund \(call #2\) with changed arguments: .*do not make the call again with the original arguments/,
      ),
    };
    const outputs: CodemodeOutput[] = [
      { status: "completed", executionId: "e4", result: { refunded: 50 }, edited },
      { status: "paused", executionId: "e4", pending: [], edited },
      { status: "error", executionId: "e4", error: "later", kind: "exception", edited },
    ];
    for (const output of outputs) expect(codemodeModelOutput(output)).toMatchObject(expected);
    const long = [{ ...edited[0]!, approvedArgs: { text: "x".repeat(5_000) } }];
    const cut = codemodeModelOutput(
      { status: "completed", executionId: "e4", result: 1, edited: long },
      { maxOutputChars: 1_000 },
    ) as { edited: Array<{ ranWithArgs: unknown }> };
    expect(typeof cut.edited[0]?.ranWithArgs).toBe("string");
    expect(JSON.stringify(cut).length).toBeLessThan(2_500);
    expect(codemodeModelOutput({ status: "completed", executionId: "e5", result: 1 })).not.toHaveProperty("edited");
  });

  it("passes errors with kind and logs, dropping empty logs", () => {
    const output: CodemodeOutput = { status: "error", executionId: "e3", error: "boom", kind: "exception", logs: [] };
    expect(codemodeModelOutput(output)).toEqual({
      status: "error",
      executionId: "e3",
      kind: "exception",
      error: "boom",
    });
  });
});

describe("maxOutputChars", () => {
  const rows = Array.from({ length: 5_000 }, (_, index) => ({ id: index, title: `issue number ${index}` }));

  it("cuts a result beyond the budget to the start of its JSON and a marker on how to return less; the output itself is untouched", () => {
    const output: CodemodeOutput = { status: "completed", executionId: "e4", result: rows };
    const view = codemodeModelOutput(output, { maxOutputChars: 1_000 }) as { result: string };
    expect(typeof view.result).toBe("string");
    expect(view.result.startsWith(JSON.stringify(rows).slice(0, 1_000))).toBe(true);
    expect(view.result).toContain(
      `result cut for the model: 1,000 of ${JSON.stringify(rows).length.toLocaleString("en-US")} characters shown`,
    );
    expect(view.result).toContain("execution e4");
    expect(view.result).toMatch(/Return only what you need: select fields, filter or slice arrays/);
    expect(view.result.length).toBeLessThan(1_400);
    expect(output.result).toBe(rows);
  });

  it("says the full value is kept only when it was journaled (a placeholder otherwise)", () => {
    const kept = codemodeModelOutput({ status: "completed", executionId: "e5", result: rows }, { maxOutputChars: 500 });
    expect(JSON.stringify(kept)).toContain("The full value is kept in the journal (execution e5)");
    const output: CodemodeOutput = { status: "completed", executionId: "e6", result: rows, journaled: false };
    const view = codemodeModelOutput(output, { maxOutputChars: 500 }) as { result: string; journaled?: unknown };
    expect(view.result).not.toContain("kept in the journal");
    expect(view.result).toContain(
      "The full value is not kept: it was over the journal's limit of 1,000,000 characters, so execution e6 journaled a placeholder",
    );
    expect(view.result).toMatch(/Return only what you need/);
  });

  it("is on by default (DEFAULT_MAX_OUTPUT_CHARS) and leaves a result within it as it was", () => {
    const big = codemodeModelOutput({ status: "completed", executionId: "e5", result: rows }) as { result: string };
    expect(big.result.length).toBeGreaterThan(DEFAULT_MAX_OUTPUT_CHARS);
    expect(big.result.length).toBeLessThan(DEFAULT_MAX_OUTPUT_CHARS + 400);
    const small = rows.slice(0, 10);
    expect(codemodeModelOutput({ status: "completed", executionId: "e5", result: small })).toMatchObject({
      result: small,
    });
  });

  it("shares the budget with logs, which keep at least a quarter, and says how many lines were cut", () => {
    const logs = Array.from({ length: 100 }, (_, index) => `line ${index} ${"x".repeat(40)}`);
    const view = codemodeModelOutput(
      { status: "completed", executionId: "e6", result: rows, logs },
      { maxOutputChars: 2_000 },
    ) as {
      result: string;
      logs: string[];
    };
    expect(view.result).toContain("result cut for the model: 1,500 of");
    expect(view.logs.slice(0, -1).join("").length).toBeLessThanOrEqual(500);
    expect(view.logs.at(-1)).toMatch(/^\[logs cut for the model: \d+ more line\(s\), [\d,]+ characters not shown/);
    // Logs alone within the budget stay whole.
    const quiet = codemodeModelOutput(
      { status: "completed", executionId: "e6", result: 1, logs: ["a", "b"] },
      { maxOutputChars: 10 },
    );
    expect(quiet).toMatchObject({ result: 1, logs: ["a", "b"] });
  });

  it("cuts a long error message and long pending arguments too", () => {
    const error = codemodeModelOutput(
      { status: "error", executionId: "e7", kind: "exception", error: "E".repeat(5_000) },
      { maxOutputChars: 100 },
    );
    expect((error as { error: string }).error).toMatch(
      /^E{100}… \[error cut for the model: 100 of 5,000 characters shown/,
    );
    const paused = codemodeModelOutput(
      {
        status: "paused",
        executionId: "e8",
        pending: [
          {
            executionId: "e8",
            seq: 1,
            connector: "bank",
            method: "pay",
            args: { memo: "m".repeat(5_000) },
            request: { method: "POST", url: "https://bank.test/pay" },
          },
        ],
      },
      { maxOutputChars: 100 },
    ) as { pending: Array<{ args: unknown; request: unknown }> };
    expect(paused.pending[0]!.args).toMatch(/arguments cut for the model/);
    expect(paused.pending[0]!.request).toEqual({ method: "POST", url: "https://bank.test/pay" });
  });
});

describe("program values in the model's view", () => {
  it("read as their one display (src/shared/display-value.ts)", () => {
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
    const view = codemodeModelOutput({ status: "completed", executionId: "e7", result: value });
    expect(view).toEqual({
      status: "completed",
      executionId: "e7",
      result: {
        when: "2026-01-02T03:04:05.000Z",
        big: "12345678901234567890n",
        map: { "Map(1)": { a: 1 } },
        pairs: { "Map(1)": [[1, "one"]] },
        set: { "Set(2)": [1, 2] },
        bytes: { "Uint8Array(2)": "68 69" },
        nan: "NaN",
        list: ["undefined", 1],
      },
    });
  });

  it("survive cycles", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    expect(codemodeModelOutput({ status: "completed", executionId: "e8", result: cyclic })).toMatchObject({
      result: { a: 1, self: "[Circular]" },
    });
  });
});
