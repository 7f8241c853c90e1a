/**
 * Type tests for `keysOf` (issue 23 item 4): a key list derived from an options type cannot drift. Leaving a
 * key out, or listing one the type lacks, fails to compile, so an option added to an interface is never refused
 * by a per-call check that forgot it.
 */
import { describe, expectTypeOf, it } from "vitest";
import { keysOf, type SameKeys } from "../../src/shared/known-keys.js";

interface Options {
  scope?: string;
  limit: number;
}

describe("keysOf", () => {
  it("takes exactly the keys of the type, optional ones included", () => {
    expectTypeOf(keysOf<Options>({ scope: true, limit: true })).toEqualTypeOf<ReadonlyArray<"scope" | "limit">>();
    // @ts-expect-error an optional key left out
    keysOf<Options>({ limit: true });
    // @ts-expect-error a key the type does not have
    keysOf<Options>({ scope: true, limit: true, scpoe: true });
  });
});

describe("SameKeys", () => {
  it("is true only for two types with the same keys", () => {
    expectTypeOf<SameKeys<Options, { scope: unknown; limit?: unknown }>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<Options & { extra?: number }, Options>>().toEqualTypeOf<never>();
    expectTypeOf<SameKeys<Options, Options & { extra?: number }>>().toEqualTypeOf<never>();
    // @ts-expect-error a key one side lacks: the check a layer keeps in step with does not compile
    const listed: SameKeys<Options & { extra?: number }, Options> = true;
    void listed;
  });
});
