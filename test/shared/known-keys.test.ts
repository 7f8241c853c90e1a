import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { boundedEditDistance, closestName } from "../../src/shared/closest-name.js";
import { assertKnownKeys } from "../../src/shared/known-keys.js";

describe("closestName", () => {
  it("finds the closest known name within a third of its length", () => {
    expect(closestName("requireApproval", ["replay", "revert", "requiresApproval"])).toBe("requiresApproval");
    expect(closestName("lst_issues", ["list_issues", "create_issue"])).toBe("list_issues");
    expect(closestName("zzzzzz", ["list_issues", "create_issue"])).toBeUndefined();
  });

  it("stays cheap for a hostile 40,000-character name", () => {
    expect(closestName("x".repeat(40_000), ["list_issues"])).toBeUndefined();
    expect(boundedEditDistance("a".repeat(5000), "b".repeat(5000), 3)).toBe(4);
  });

  it("computes the edit distance", () => {
    expect(boundedEditDistance("kitten", "sitting", 5)).toBe(3);
    expect(boundedEditDistance("same", "same", 0)).toBe(0);
  });
});

describe("assertKnownKeys", () => {
  it("names the path and the closest known key", () => {
    const attempt = () =>
      assertKnownKeys({ requireApproval: true }, ["replay", "revert", "requiresApproval"], "connector().methods.pay");
    expect(attempt).toThrow(InvalidOptionError);
    expect(attempt).toThrow(
      'connector().methods.pay.requireApproval is not a known option (did you mean "requiresApproval"?)',
    );
  });

  it("lists the known keys when none is close, and accepts known keys", () => {
    expect(() => assertKnownKeys({ zzz: 1 }, ["a", "b"], "options")).toThrow(
      "options.zzz is not a known option (known keys: a, b)",
    );
    expect(() => assertKnownKeys({ a: 1 }, ["a", "b"], "options")).not.toThrow();
  });
});
