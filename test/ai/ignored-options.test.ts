/**
 * Options that could not take effect are refused at construction: sandbox budgets in `limits` beside a
 * custom `executor` (which keeps its own) would otherwise be silently ignored.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { InvalidOptionError } from "../../src/errors.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

const executor = new QuickJSExecutor({ isolation: "in-process" });
afterAll(() => executor.dispose());

function thrownBy(build: () => unknown): InvalidOptionError {
  try {
    build();
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidOptionError");
}

describe("createCodemodeRuntime({ executor, limits })", () => {
  const sandboxBudgets = {
    timeoutMs: 5,
    memoryLimitBytes: 32 * 1024 * 1024,
    maxStackBytes: 64 * 1024,
    maxLogChars: 100,
    maxSourceChars: 1000,
    isolation: "in-process",
    poolSize: 2,
  } as const;

  for (const [key, value] of Object.entries(sandboxBudgets)) {
    it(`refuses limits.${key} beside an executor, naming new QuickJSExecutor({ … })`, () => {
      const error = thrownBy(() =>
        createCodemodeRuntime({ executor, store: ":memory:", limits: { [key]: value } as never }),
      );
      expect(error.path).toBe(`limits.${key}`);
      expect(error.message).toContain(`new QuickJSExecutor({ ${key}: … })`);
    });
  }

  it("keeps limits.maxCalls and limits.maxCost beside an executor (they are the runtime's own)", async () => {
    const runtime = createCodemodeRuntime({ executor, store: ":memory:", limits: { maxCalls: 3, maxCost: 10 } });
    await runtime.close();
  });

  it("still takes sandbox budgets in limits without an executor (it builds its own from them)", async () => {
    const runtime = createCodemodeRuntime({ store: ":memory:", limits: { timeoutMs: 5_000 } });
    await runtime.close();
  });
});
