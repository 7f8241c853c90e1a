/**
 * Seeded random programs (fast-check): sequential calls, `Promise.all` groups
 * and steps, some needing approval. Approving pause after pause must give the
 * result of a run without approvals, with every call executed exactly once.
 * Reproduce a failure with the seed fast-check prints (FC_SEED=… to override).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { createMockConnector } from "../../src/test/index.js";
import { testRuntime } from "./runtime-fixture.js";

const SEED = Number(process.env["FC_SEED"] ?? 20261130);

type Call = { gated: boolean; n: number };
type Part = { kind: "call"; call: Call } | { kind: "all"; calls: Call[] } | { kind: "step"; n: number };

const call = fc.record({ gated: fc.boolean(), n: fc.integer({ min: 0, max: 99 }) });
const part: fc.Arbitrary<Part> = fc.oneof(
  call.map((value) => ({ kind: "call" as const, call: value })),
  fc.array(call, { minLength: 2, maxLength: 3 }).map((calls) => ({ kind: "all" as const, calls })),
  fc.integer({ min: 0, max: 99 }).map((n) => ({ kind: "step" as const, n })),
);

function source(parts: Part[]): string {
  const expression = (c: Call, index: string): string =>
    `svc.${c.gated ? "gated" : "plain"}({ n: ${c.n}, at: ${index} })`;
  const lines = parts.map((p, index) => {
    if (p.kind === "call") return `out.push(await ${expression(p.call, String(index))});`;
    if (p.kind === "step") return `out.push(await codemode.step("s${index}", () => ({ step: ${p.n} * 3 })));`;
    return `out.push(...(await Promise.all([${p.calls.map((c, inner) => expression(c, `${index}.${inner}`)).join(", ")}])));`;
  });
  return `async () => { const out = []; ${lines.join(" ")} return out; }`;
}

function connector(approvals: boolean) {
  const double = (args: unknown) => ({ doubled: (args as { n: number }).n * 2, at: (args as { at: number }).at });
  return createMockConnector("svc", {
    methods: { plain: { result: double }, gated: { needsApproval: approvals, result: double } },
  });
}

describe("replay hardening (seeded random programs)", () => {
  it("approving every pause gives the unpaused result with every call exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 6 }), fc.boolean(), async (parts, oneAtATime) => {
        const code = source(parts);
        const reference = connector(false);
        const direct = await testRuntime({ connectors: { svc: reference } }).execute({ code });
        expect(direct.status).toBe("completed");

        const gated = connector(true);
        const runtime = testRuntime({ connectors: { svc: gated } });
        let out: CodemodeOutput = await runtime.execute({ code });
        let passes = 0;
        while (out.status === "paused") {
          passes += 1;
          expect(passes).toBeLessThan(30);
          out = oneAtATime
            ? await runtime.approve({ executionId: out.executionId, seq: out.pending[0]!.seq })
            : await runtime.approve({ executionId: out.executionId });
        }
        expect(out).toEqual({
          status: "completed",
          executionId: out.executionId,
          result: (direct as { result: unknown }).result,
        });
        expect(gated.ledger.duplicates()).toEqual([]);
        expect(gated.ledger.entries.length).toBe(reference.ledger.entries.length);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});
