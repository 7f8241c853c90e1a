/**
 * One declaration gives an options object its key check ("did you mean", renamed keys), its defaults and its
 * error paths; the shared checks behave the same wherever they are used.
 */
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../src/errors.js";
import { declareOptions, option } from "../../../src/shared/options/declare-options.js";
import {
  booleanOption,
  integerOption,
  oneOfOption,
  readPositiveInteger,
  readText,
  textOption,
} from "../../../src/shared/options/option-checks.js";

interface Options {
  timeoutMs?: number;
  tracing?: boolean;
  mode?: "fast" | "safe";
  label?: string;
  needsApproval?: boolean;
  _internal?: object;
}

const declared = declareOptions<Options>()({
  timeoutMs: integerOption(30, { max: 100 }),
  tracing: booleanOption(true),
  mode: oneOfOption(["fast", "safe"], "safe"),
  label: textOption(),
  needsApproval: option((value) => value === true),
  _internal: option((value) => (value ?? {}) as object),
});

function failure(build: () => unknown): InvalidOptionError {
  try {
    build();
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidOptionError");
}

describe("declareOptions", () => {
  it("fills every default when nothing is given", () => {
    expect(declared.resolve(undefined, "")).toEqual({
      timeoutMs: 30,
      tracing: true,
      mode: "safe",
      label: undefined,
      needsApproval: false,
      _internal: {},
    });
    expect(declared.resolve({ timeoutMs: 5, mode: "fast" }, "limits")).toMatchObject({ timeoutMs: 5, mode: "fast" });
  });

  it("names the path of a bad value: bare at the top level, under the prefix otherwise", () => {
    expect(failure(() => declared.resolve({ timeoutMs: -5 }, "")).message).toBe(
      "timeoutMs must be a positive integer (got -5)",
    );
    expect(failure(() => declared.resolve({ timeoutMs: 500 }, "limits")).message).toBe(
      "limits.timeoutMs must be between 1 and 100 (got 500)",
    );
    expect(failure(() => declared.resolve({ mode: "slow" }, "")).message).toBe(
      'mode must be "fast" or "safe" (got "slow")',
    );
    expect(failure(() => declared.resolve("x", "")).path).toBe("options");
  });

  it("refuses an unknown key with the closest known one, a renamed key with its new name, and hides _ keys", () => {
    expect(failure(() => declared.resolve({ timeoutMS: 5 }, "")).message).toBe(
      'options.timeoutMS is not a known option (did you mean "timeoutMs"?)',
    );
    expect(failure(() => declared.resolve({ requiresApproval: true }, "")).message).toBe(
      'options.requiresApproval is not a known option (renamed: use "needsApproval")',
    );
    const listed = failure(() => declared.resolve({ somethingElseEntirely: 1 }, "")).message;
    expect(listed).toContain("known keys: timeoutMs, tracing, mode, label, needsApproval)");
    expect(listed).not.toContain("_internal");
  });
});

describe("the shared checks", () => {
  it("readPositiveInteger and readText take (value, path) and pass omitted values through", () => {
    expect(readPositiveInteger(undefined, "a")).toBeUndefined();
    expect(readPositiveInteger(3, "a", { min: 2 })).toBe(3);
    expect(() => readPositiveInteger(1.5, "a.b")).toThrow("a.b must be a positive integer (got 1.5)");
    expect(readText(undefined, "t")).toBeUndefined();
    expect(() => readText("   ", "t")).toThrow("t must be a non-empty string");
  });
});
