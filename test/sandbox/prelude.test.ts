import { afterAll, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

describe("CodeRunRequest.prelude", () => {
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  afterAll(() => executor.dispose());
  const prelude = "globalThis.greeting = 'hi'; var input = undefined;";

  it("runs before the program in the same context, whatever the program's form", async () => {
    for (const program of [
      "async () => greeting + (input === undefined)",
      "return greeting;",
      "greeting.length",
      "```ts\nconst n: number = greeting.length;\nreturn n;\n```",
    ]) {
      const result = await executor.run({ program, bindings: [], prelude });
      expect(result.error).toBeUndefined();
    }
    expect((await executor.run({ program: "async () => greeting", bindings: [], prelude })).value).toBe("hi");
  });

  it("leaves the program's own line numbers unchanged", async () => {
    const syntax = await executor.run({ program: "const a = 1;\nconst b = ;\nreturn a;", bindings: [], prelude });
    expect(syntax.error?.message).toMatch(/line 2/);
    const thrown = await executor.run({
      program: "async () => {\n  const a = 1;\n  return missing.x;\n}",
      bindings: [],
      prelude,
    });
    expect(thrown.error?.message).toMatch(/line 3/);
  });

  it("refuses a multi-line prelude (it would shift line numbers)", async () => {
    const result = await executor.run({ program: "1", bindings: [], prelude: "var a = 1;\nvar b = 2;" });
    expect(result.error).toMatchObject({ kind: "exception", message: "prelude must be a string of one line." });
  });
});
