import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import { hoistImports } from "../../../src/sandbox/program/program-imports.js";

describe("hoistImports", () => {
  it("turns each import form into an awaited import() binding the same names", () => {
    const hoisted = hoistImports(
      parse,
      'import a, { b as c, "d-e" as f, g } from "m";\nimport * as ns from "n";\nimport d2, * as both from "o";\nimport "p";\nc(g)',
    );
    expect(hoisted?.prelude).toBe(
      'const { default: a, b: c, "d-e": f, g: g } = await import("m"); const ns = await import("n"); const both = await import("o"); const { default: d2 } = both; await import("p");',
    );
  });

  it("blanks the declarations in place so every later line and column is unchanged", () => {
    const code = 'import {\n  x,\n} from "m";\nx()';
    const hoisted = hoistImports(parse, code);
    expect(hoisted?.code.split("\n")).toHaveLength(4);
    expect(hoisted?.code.split("\n")[3]).toBe("x()");
    expect(hoisted?.code.trim()).toBe("x()");
  });

  it("leaves programs without static imports (or that do not parse as a module) to the caller", () => {
    expect(hoistImports(parse, "await import('m')")).toBeUndefined();
    expect(hoistImports(parse, "1 +")).toBeUndefined();
    expect(hoistImports(parse, "const important = 1; important")).toBeUndefined();
  });
});
