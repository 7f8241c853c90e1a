/**
 * The sandbox-side codec (compiled inside QuickJS) and the host codec must agree: random values
 * go host → sandbox as a binding result, come back as the program's result and as the argument of
 * a second call, and must be equal to what was sent.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalizeValue } from "../../src/sandbox/codec.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.bigInt(),
    fc.date(),
    fc.uint8Array({ maxLength: 10 }),
    fc.uint8Array({ maxLength: 6 }).map((bytes) => bytes.slice().buffer),
  ),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("$", "__proto__", "constructor", "v")), tie("node"), { maxKeys: 4 }),
    fc.array(fc.tuple(tie("leaf"), tie("node")), { maxLength: 3 }).map((entries) => new Map(entries)),
    fc.array(tie("leaf"), { maxLength: 3 }).map((items) => new Set(items)),
  ),
})).node;

describe("codec across the sandbox boundary", () => {
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  afterAll(() => executor.dispose());

  it("round-trips random values through the sandbox unchanged (seeded)", async () => {
    const seed = Date.now() % 1_000_000;
    await fc.assert(
      fc.asyncProperty(value, async (sent) => {
        let received: unknown = "not called";
        const result = await executor.run({
          program: "const v = await host.get(); await host.put(v); return v",
          bindings: [{ global: "host", functions: { get: async () => sent, put: async (args) => void (received = args) } }],
        });
        expect(result.error).toBeUndefined();
        // The canonical form tells -0 from 0 and compares bytes, which toEqual does not.
        expect(canonicalizeValue(result.value)).toBe(canonicalizeValue(sent));
        expect(canonicalizeValue(received)).toBe(canonicalizeValue(sent));
        expect(result.value).toEqual(sent);
      }),
      { seed, numRuns: 150, verbose: true },
    );
  });
});
