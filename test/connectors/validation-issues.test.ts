import { describe, expect, it } from "vitest";
import { createJsonSchemaValidator } from "../../src/connectors/argument-validator.js";
import { describeValue, formatIssuePath, formatValidationIssues } from "../../src/connectors/validation-issues.js";

describe("validation messages", () => {
  it("render paths and values compactly", () => {
    expect(formatIssuePath([])).toBe("(arguments)");
    expect(formatIssuePath(["items", 2, "name"])).toBe("items[2].name");
    expect(formatIssuePath(["headers", "content-type"])).toBe('headers["content-type"]');
    expect(describeValue("x".repeat(100))).toMatch(/^string "x+…$/);
    expect(describeValue([1, 2])).toBe("array (length 2)");
    expect(describeValue(10n)).toBe("bigint 10n");
  });

  it("caps the number of listed issues", () => {
    const issues = Array.from({ length: 12 }, (_, index) => ({ path: [`p${index}`], expected: "string", message: "" }));
    const text = formatValidationIssues({ label: "a.b", issues, value: {}, expectedType: "{ }" });
    expect(text.split("\n").filter((line) => line.startsWith("  - "))).toHaveLength(8);
    expect(text).toContain("… and 4 more");
  });

  it("reports nested JSON Schema failures at the deepest path, with the expected input type", async () => {
    const validate = createJsonSchemaValidator(
      {
        type: "object",
        properties: {
          items: {
            type: "array",
            items: { type: "object", properties: { qty: { type: "integer", minimum: 1 } }, required: ["qty"] },
          },
          mode: { const: "fast" },
          when: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        required: ["items"],
      },
      { label: "shop.order", expectedType: () => "{ items: { qty: number }[] }" },
    );
    const result = await validate({ items: [{ qty: 0 }, {}], mode: "slow", when: 3 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toContain("Invalid arguments for shop.order(input):");
    expect(result.error).toContain("items[0].qty: 0 is less than 1 (got number 0)");
    expect(result.error).toContain("items[1].qty: missing required property (got undefined)");
    expect(result.error).toContain('mode: expected "fast", got string "slow"');
    expect(result.error).toContain("when: expected string | null, got number 3");
    expect(result.error.match(/when:/g)).toHaveLength(1);
    expect(result.error).toContain("Expected input: { items: { qty: number }[] }");
    expect(result.error).not.toContain("(arguments): Property");
  });

  it("folds the branches of a failed anyOf into one line", async () => {
    const validate = createJsonSchemaValidator(
      { anyOf: [{ type: "object", properties: { id: { type: "string" } }, required: ["id"] }, { type: "string" }] },
      { label: "x.y" },
    );
    const result = await validate({});
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.error).toContain('(arguments): expected an object with "id" | string, got object');
  });
});
