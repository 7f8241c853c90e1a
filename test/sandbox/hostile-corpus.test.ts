import { afterAll, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import type { CodeBindingNamespace } from "../../src/sandbox/types.js";
import { HOSTILE_PROGRAMS } from "./hostile-programs.js";

const bindings: CodeBindingNamespace[] = [
  {
    global: "host",
    functions: {
      echo: async (value) => value,
      ok: async () => "ok",
      never: () => new Promise(() => undefined),
    },
  },
];

const TIGHT_TIMEOUT_MS = 400;
const GENEROUS_TIMEOUT_MS = 10_000;
const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;

describe.each(["worker-thread", "in-process"] as const)("hostile corpus (%s)", (isolation) => {
  const tight = new QuickJSExecutor({ isolation, timeoutMs: TIGHT_TIMEOUT_MS, memoryLimitBytes: MEMORY_LIMIT_BYTES });
  const generous = new QuickJSExecutor({
    isolation,
    timeoutMs: GENEROUS_TIMEOUT_MS,
    memoryLimitBytes: MEMORY_LIMIT_BYTES,
  });
  afterAll(async () => {
    await Promise.all([tight.dispose(), generous.dispose()]);
  });

  it("has at least 30 programs", () => {
    expect(HOSTILE_PROGRAMS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE_PROGRAMS.map((entry) => [entry.name, entry] as const))(
    "%s: right outcome, host survives, next run succeeds",
    async (_name, entry) => {
      const allowed = Array.isArray(entry.expect) ? entry.expect : [entry.expect];
      // Programs expected to time out get the tight budget; the others a generous one, so that their
      // outcome never depends on how busy the machine is.
      const executor = allowed.includes("timeout") ? tight : generous;
      const result = await executor.run({ program: entry.program, bindings });
      const kind = result.error?.kind ?? "completed";
      expect(allowed, JSON.stringify(result).slice(0, 300)).toContain(kind);
      if (result.error) expect(result.error.message.length).toBeGreaterThan(0);
      entry.check?.(result);
      const after = await executor.run({ program: "await host.echo({ fine: [1, 2, 3] })", bindings });
      expect(after).toEqual({ value: { fine: [1, 2, 3] }, logs: [] });
    },
  );
});
