import { describe, expect, it } from "vitest";
import { CodemodeError, InvalidOptionError } from "../src/errors.js";

describe("errors", () => {
  it("recognises its own instances across the hierarchy", () => {
    const error = new InvalidOptionError({ path: "limits.timeoutMs", message: "must be a positive integer" });
    expect(error.message).toBe("limits.timeoutMs must be a positive integer");
    expect(CodemodeError.isInstance(error)).toBe(true);
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(InvalidOptionError.isInstance(new CodemodeError({ code: "other", message: "x" }))).toBe(false);
    expect(CodemodeError.isInstance(new Error("plain"))).toBe(false);
  });
});
