/**
 * The sandbox-side codec (compiled inside QuickJS) and the host codec must agree: random values
 * go host → sandbox as a binding result, come back as the program's result and as the argument of
 * a second call, and must be equal to what was sent.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalizeValue } from "../../../src/sandbox/codec/codec.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";
import { codecValue } from "./codec-values.js";

describe("codec across the sandbox boundary", () => {
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  afterAll(() => executor.dispose());

  it("round-trips random values through the sandbox unchanged (seeded)", async () => {
    const seed = Date.now() % 1_000_000;
    await fc.assert(
      fc.asyncProperty(codecValue, async (sent) => {
        let received: unknown = "not called";
        const result = await executor.run({
          program: "const v = await host.get(); await host.put(v); return v",
          bindings: [
            {
              global: "host",
              functions: {
                get: async () => sent,
                put: async (args) => {
                  received = args;
                },
              },
            },
          ],
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
