import { QuickJSContext } from "quickjs-emscripten-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

const LINES = 100_000;

describe("console after the log cap", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("drops later lines inside the sandbox: 100,000 lines cost a few hundred host crossings, not 100,000", async () => {
    const executor = new QuickJSExecutor({ isolation: "in-process", maxLogChars: 2_000, timeoutMs: 60_000 });
    await executor.run({ program: "console.log('warm'); 1", bindings: [] });
    const crossings = vi.spyOn(QuickJSContext.prototype, "callFunction");
    const result = await executor.run({
      program: `const first = console.log; for (let i = 0; i < ${LINES}; i++) console.log('line', i); return first !== console.log`,
      bindings: [],
    });
    expect(result.error).toBeUndefined();
    expect(result.value).toBe(true);
    expect(result.logs.at(-1)).toMatch(/\[logs truncated: more than 2000 characters\]$/);
    expect(result.logs.length).toBeLessThan(300);
    expect(crossings.mock.calls.length).toBeLessThan(1_000);
    await executor.dispose();
  });

  it("also when the program kept a reference to console.log from before the cap (worker)", async () => {
    const executor = new QuickJSExecutor({ maxLogChars: 2_000, timeoutMs: 60_000 });
    const result = await executor.run({
      program: `const log = console.log; for (let i = 0; i < ${LINES}; i++) log('line', i); 'done'`,
      bindings: [],
    });
    expect(result.value).toBe("done");
    expect(result.logs.join("\n").length).toBeLessThan(2_500);
    await executor.dispose();
  });
});
