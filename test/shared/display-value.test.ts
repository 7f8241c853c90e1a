/**
 * One display of values: the host's `displayJson`/`displayText` and the sandbox's `console` (src/sandbox/guest/render.js,
 * which cannot import host code) are held to one table, so a value reads the same in logs as in the model's output,
 * the chat, the CLI and the inspector.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import { displayJson, displayText } from "../../src/shared/display-value.js";
import { DISPLAY_TABLE } from "./display-table.js";

describe("displayJson / displayText (host)", () => {
  it.each(DISPLAY_TABLE)("$name reads $text", ({ value, text }) => {
    expect(displayText(value)).toBe(text);
    // The display is JSON: text that is not a string display parses back to the same JSON.
    const json = displayJson(value);
    expect(typeof json === "string" ? json : JSON.stringify(json)).toBe(text);
  });

  it("marks cycles and stops past 64 levels", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    expect(displayJson(cyclic)).toEqual({ a: 1, self: "[Circular]" });
    let deep: unknown = [];
    for (let level = 0; level < 70; level++) deep = [deep];
    expect(displayText(deep)).toContain('"[Array]"');
    // A value seen twice without a cycle is shown twice.
    const shared = { x: 1 };
    expect(displayJson([shared, shared])).toEqual([{ x: 1 }, { x: 1 }]);
  });
});

describe("the sandbox's console writes the same display", () => {
  let executor: QuickJSExecutor;
  beforeAll(() => {
    executor = new QuickJSExecutor({ isolation: "in-process", timeoutMs: 5_000, maxLogChars: 100_000 });
  });
  afterAll(async () => {
    await executor.dispose();
  });

  it("logs each value of the table as the host displays it", async () => {
    const program = DISPLAY_TABLE.map(({ source }) => `console.log(${source});`).join("\n");
    const result = await executor.run({ program, bindings: [] });
    expect(result.error).toBeUndefined();
    expect(result.logs).toEqual(DISPLAY_TABLE.map(({ text }) => text));
  });

  it("quotes a value displayed as a string inside a line's values as JSON does", async () => {
    const result = await executor.run({ program: 'console.log("n", [1n, undefined], "x")', bindings: [] });
    expect(result.logs).toEqual([`n ${displayText([1n, undefined])} x`]);
    expect(result.logs).toEqual(['n ["1n","undefined"] x']);
  });
});
