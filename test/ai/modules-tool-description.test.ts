import { afterEach, describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

const opened: CodemodeRuntime[] = [];

afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});

function describedWith(modules?: Record<string, string>): string {
  const runtime = createCodemodeRuntime({
    store: ":memory:",
    executor: new QuickJSExecutor({ isolation: "in-process" }),
    ...(modules === undefined ? {} : { modules }),
  });
  opened.push(runtime);
  return runtime.tool().description as string;
}

describe("the tool description with modules", () => {
  it("names the modules in one line, never their source", () => {
    const source = "export const secretMarker = 'MODULE-SOURCE-MARKER';";
    const text = describedWith({ "lodash-es": source, "date-fns": "export {};" });
    const lines = text.split("\n").filter((line) => line.includes("lodash-es"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Modules (");
    expect(lines[0]).toContain("lodash-es, date-fns.");
    expect(lines[0]).toContain('codemode.describe("modules")');
    expect(text).not.toContain("MODULE-SOURCE-MARKER");
  });

  it("is unchanged without modules", () => {
    expect(describedWith()).toBe(describedWith({}));
    expect(describedWith()).not.toContain("Modules (");
  });
});
