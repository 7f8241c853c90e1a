import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { boundedEditDistance, closestName } from "../../src/shared/closest-name.js";
import { assertKnownKeys, keysOf, unknownKeyProblem } from "../../src/shared/known-keys.js";

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

describe("unknownKeyProblem (per-call requests)", () => {
  it("says which key is unknown and the closest known one, or nothing when every key is known", () => {
    expect(unknownKeyProblem({ code: "1", scpoe: "u" }, ["code", "scope"])).toBe(
      '"scpoe" is not a known option (did you mean "scope"?)',
    );
    expect(unknownKeyProblem({ code: "1", scope: "u" }, ["code", "scope"])).toBeUndefined();
  });

  it("quotes a hostile key cut short", () => {
    const problem = unknownKeyProblem({ ["k".repeat(50_000)]: 1 }, ["code"]) ?? "";
    expect(problem.length).toBeLessThan(300);
    expect(problem).toContain("(50,000 characters)");
  });
});

describe("keysOf", () => {
  it("lists the keys it was given, in order", () => {
    expect(keysOf<{ a?: number; b: string }>({ a: true, b: true })).toEqual(["a", "b"]);
  });
});
