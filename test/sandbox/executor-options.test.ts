import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import {
  DEFAULT_IN_PROCESS_MAX_STACK_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  DEFAULT_MAX_LOG_CHARS,
  DEFAULT_MAX_SOURCE_CHARS,
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WORKER_MAX_STACK_BYTES,
  resolveExecutorOptions,
  type QuickJSExecutorOptions,
} from "../../src/sandbox/executor-options.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

describe("resolveExecutorOptions", () => {
  it("fills every budget from one place", () => {
    const resolved = resolveExecutorOptions();
    expect(resolved).toMatchObject({
      isolation: "worker-thread",
      timeoutMs: DEFAULT_TIMEOUT_MS,
      memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES,
      maxStackBytes: DEFAULT_WORKER_MAX_STACK_BYTES,
      maxLogChars: DEFAULT_MAX_LOG_CHARS,
      maxSourceChars: DEFAULT_MAX_SOURCE_CHARS,
      maxCallsInFlight: DEFAULT_MAX_CALLS_IN_FLIGHT,
    });
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(DEFAULT_MAX_CALLS_IN_FLIGHT).toBe(10_000);
    expect(DEFAULT_MEMORY_LIMIT_BYTES).toBe(64 * 1024 * 1024);
    expect(DEFAULT_MAX_SOURCE_CHARS).toBe(256 * 1024);
    expect(DEFAULT_MAX_LOG_CHARS).toBe(64 * 1024);
    expect(resolved.poolSize).toBeGreaterThanOrEqual(1);
    expect(resolveExecutorOptions({ isolation: "in-process" }).maxStackBytes).toBe(DEFAULT_IN_PROCESS_MAX_STACK_BYTES);
    expect(resolveExecutorOptions({ timeoutMs: 5, poolSize: 3 })).toMatchObject({ timeoutMs: 5, poolSize: 3 });
  });

  it.each([
    [{ timeoutMs: 0 }, "timeoutMs must be a positive integer (got 0)"],
    [{ timeoutMs: 1.5 }, "timeoutMs must be a positive integer (got 1.5)"],
    [{ poolSize: -1 }, "poolSize must be a positive integer (got -1)"],
    [{ memoryLimitBytes: 1024 }, "memoryLimitBytes must be between"],
    [{ maxLogChars: Number.NaN }, "maxLogChars must be a positive integer"],
    [{ maxSourceChars: "10" }, "maxSourceChars must be a positive integer"],
    [{ isolation: "vm" }, 'isolation must be "worker-thread" or "in-process"'],
    [{ maxStackBytes: 8 * 1024 * 1024 }, "maxStackBytes must be between 16384 and 4194304"],
    [{ timeout: 5 }, 'options.timeout is not a known option (did you mean "timeoutMs"?)'],
    [{ maxValueChars: 10 }, "maxValueChars must be between 1024"],
    [{ maxCallsInFlight: 0 }, "maxCallsInFlight must be a positive integer (got 0)"],
    [{ maxCallsInFlight: 2_000_000 }, "maxCallsInFlight must be between 1 and 1000000"],
    [{ maxCallInFlight: 5 }, 'options.maxCallInFlight is not a known option (did you mean "maxCallsInFlight"?)'],
  ])("rejects %j naming the path", (options, message) => {
    expect(() => resolveExecutorOptions(options as QuickJSExecutorOptions)).toThrow(message);
    expect(() => new QuickJSExecutor(options as QuickJSExecutorOptions)).toThrow(InvalidOptionError);
  });

  it("prefixes paths for the runtime's limits option", () => {
    expect(() => resolveExecutorOptions({ timeoutMs: -5 }, "limits")).toThrow(
      "limits.timeoutMs must be a positive integer",
    );
    expect(() => resolveExecutorOptions({ maxLogChar: 5 } as QuickJSExecutorOptions, "limits")).toThrow(
      'limits.maxLogChar is not a known option (did you mean "maxLogChars"?)',
    );
  });
});
