/**
 * Type tests for `declareOptions<Options>()({ … })`: the field table is checked against the options interface, so
 * the two cannot drift (an option left out or one the interface lacks does not compile), and the resolved type
 * comes from the fields' readers.
 */
import { describe, expectTypeOf, it } from "vitest";
import { declareOptions, option } from "../../../src/shared/options/declare-options.js";
import { integerOption, textOption } from "../../../src/shared/options/option-checks.js";

interface Options {
  /** A budget. @default 30 */
  timeoutMs?: number;
  label?: string;
}

describe("declareOptions<Options>()", () => {
  it("takes exactly one field per option of the interface", () => {
    declareOptions<Options>()({ timeoutMs: integerOption(30), label: textOption() });
    // @ts-expect-error an option of the interface without a field
    declareOptions<Options>()({ timeoutMs: integerOption(30) });
    // @ts-expect-error a field for an option the interface does not have
    declareOptions<Options>()({ timeoutMs: integerOption(30), label: textOption(), timeoutMS: integerOption(1) });
  });

  it("resolves to what each field's reader returns", () => {
    const declared = declareOptions<Options>()({
      timeoutMs: integerOption(30),
      label: option((value) => (typeof value === "string" ? value : "none")),
    });
    expectTypeOf(declared.resolve(undefined, "")).toEqualTypeOf<{ timeoutMs: number; label: string }>();
    expectTypeOf(declared.keys).toEqualTypeOf<ReadonlyArray<"timeoutMs" | "label">>();
  });
});
