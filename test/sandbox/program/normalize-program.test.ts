import { describe, expect, it } from "vitest";
import { normalizeProgram } from "../../../src/sandbox/program/normalize-program.js";

async function script(source: string): Promise<string> {
  const result = await normalizeProgram(source);
  if (!result.ok) throw new Error(result.message);
  return result.script;
}

async function syntaxError(source: string): Promise<string> {
  const result = await normalizeProgram(source);
  if (result.ok) throw new Error("expected a syntax error");
  return result.message;
}

describe("normalizeProgram", () => {
  it("calls an async arrow function and wraps bodies and expressions", async () => {
    expect(await script("async () => 1")).toBe("(async () => 1\n)()");
    expect(await script("1 + 1")).toBe("(async () => (1 + 1\n))()");
    expect(await script("{ a: 1 }")).toBe("(async () => ({ a: 1 }\n))()");
    expect(await script("const x = await f();\nreturn x")).toBe("(async () => {const x = await f();\nreturn x\n})()");
  });

  it("returns the last expression of a body without return, but keeps explicit returns", async () => {
    expect(await script("const x = 1;\nx + 1")).toBe("(async () => {const x = 1;\nreturn x + 1\n})()");
    expect(await script("if (a) { return 1 }\nfoo()")).toBe("(async () => {if (a) { return 1 }\nfoo()\n})()");
  });

  it("strips a markdown fence, keeping line numbers", async () => {
    const fenced = "Here is the code:\n```javascript\nconst a = 1;\nconst b = ;\n```\n";
    expect(await syntaxError(fenced)).toBe("SyntaxError: Unexpected token (line 4, column 11)");
    expect(await script("```\n1 + 2\n```")).toBe("(async () => (\n1 + 2\n))()");
  });

  it("strips TypeScript with a real parser", async () => {
    const out = await script("interface A { x: number }\nconst a: A = { x: 1 } as A;\nreturn a.x satisfies number;");
    expect(out).not.toMatch(/interface|: A|as A|satisfies/);
    expect(await script("async (): Promise<number> => 1")).toContain("async () => 1");
  });

  it("reports syntax errors with line and column in the model's own source", async () => {
    expect(await syntaxError("const a = 1;\nconst b = ;")).toBe("SyntaxError: Unexpected token (line 2, column 11)");
    expect(await syntaxError("const a: number = 1;\nconst b: = 2;")).toMatch(/^SyntaxError: .* \(line 2, column 10\)$/);
    expect(await syntaxError("function (")).toMatch(/line 1/);
  });
});
