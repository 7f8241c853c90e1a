import { describe, expect, it } from "vitest";
import { normalizeProgram } from "../../src/sandbox/normalize-program.js";

function script(source: string): string {
  const result = normalizeProgram(source);
  if (!result.ok) throw new Error(result.message);
  return result.script;
}

function syntaxError(source: string): string {
  const result = normalizeProgram(source);
  if (result.ok) throw new Error("expected a syntax error");
  return result.message;
}

describe("normalizeProgram", () => {
  it("calls an async arrow function and wraps bodies and expressions", () => {
    expect(script("async () => 1")).toBe("(async () => 1\n)()");
    expect(script("1 + 1")).toBe("(async () => (1 + 1\n))()");
    expect(script("{ a: 1 }")).toBe("(async () => ({ a: 1 }\n))()");
    expect(script("const x = await f();\nreturn x")).toBe("(async () => {const x = await f();\nreturn x\n})()");
  });

  it("returns the last expression of a body without return, but keeps explicit returns", () => {
    expect(script("const x = 1;\nx + 1")).toBe("(async () => {const x = 1;\nreturn x + 1\n})()");
    expect(script("if (a) { return 1 }\nfoo()")).toBe("(async () => {if (a) { return 1 }\nfoo()\n})()");
  });

  it("strips a markdown fence, keeping line numbers", () => {
    const fenced = "Here is the code:\n```javascript\nconst a = 1;\nconst b = ;\n```\n";
    expect(syntaxError(fenced)).toBe("SyntaxError: Unexpected token (line 4, column 11)");
    expect(script("```\n1 + 2\n```")).toBe("(async () => (\n1 + 2\n))()");
  });

  it("strips TypeScript with a real parser", () => {
    const out = script("interface A { x: number }\nconst a: A = { x: 1 } as A;\nreturn a.x satisfies number;");
    expect(out).not.toMatch(/interface|: A|as A|satisfies/);
    expect(script("async (): Promise<number> => 1")).toContain("async () => 1");
  });

  it("reports syntax errors with line and column in the model's own source", () => {
    expect(syntaxError("const a = 1;\nconst b = ;")).toBe("SyntaxError: Unexpected token (line 2, column 11)");
    expect(syntaxError("const a: number = 1;\nconst b: = 2;")).toMatch(/^SyntaxError: .* \(line 2, column 10\)$/);
    expect(syntaxError("function (")).toMatch(/line 1/);
  });
});
