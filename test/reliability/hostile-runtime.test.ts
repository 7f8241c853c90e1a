/**
 * The runtime-level hostile corpus (`hostile-runtime-programs.ts`): each
 * program ends with an allowed outcome, its journal holds nothing forged, the
 * host's own prototypes are untouched, and the next run works.
 */
import { describe, expect, it } from "vitest";
import { svcConnector } from "./support/program-model.js";
import { testRuntime } from "../runtime/runtime-fixture.js";
import { HOSTILE_RUNTIME_PROGRAMS } from "./hostile-runtime-programs.js";

describe("hostile programs against the runtime", () => {
  const svc = svcConnector();
  const runtime = testRuntime({ connectors: { svc } });

  it("has at least 12 programs", () => {
    expect(HOSTILE_RUNTIME_PROGRAMS.length).toBeGreaterThanOrEqual(12);
  });

  it.each(HOSTILE_RUNTIME_PROGRAMS.map((entry) => [entry.name, entry] as const))("%s", async (_name, entry) => {
    const out = await runtime.execute({ code: entry.code });
    const outcome = out.status === "error" ? `error:${out.kind}` : out.status;
    expect(entry.expect, JSON.stringify(out).slice(0, 400)).toContain(outcome);
    const detail = await runtime.execution(out.executionId);
    expect(detail).toBeDefined();
    entry.check?.(detail!);
    expect(svc.ledger.duplicates()).toEqual([]);
    expect((Object.prototype as Record<string, unknown>)["toJSON"]).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)["then"]).toBeUndefined();
    expect(await runtime.execute({ code: "async () => svc.plain({ n: 4, k: 'after' })" })).toMatchObject({
      status: "completed",
      result: { d: 8, k: "after" },
    });
  });
});
