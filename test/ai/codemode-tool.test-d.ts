/** Type tests for the `codemode` tool: its input and output types as the AI SDK infers them. */
import type { InferToolInput, InferToolOutput } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import {
  codemodeTool,
  type CodeModeInput,
  type CodeModeOutput,
  type CodemodeTool,
  type CodemodeToolOutput,
} from "../../src/index.js";
import type { createCodemodeRuntime } from "../../src/index.js";

describe("the codemode tool", () => {
  it("takes { code: string } and yields progress snapshots, then a CodeModeOutput", () => {
    expectTypeOf<InferToolInput<CodemodeTool>>().toEqualTypeOf<CodeModeInput>();
    expectTypeOf<InferToolInput<CodemodeTool>>().toEqualTypeOf<{ code: string }>();
    expectTypeOf<InferToolOutput<CodemodeTool>>().toEqualTypeOf<CodemodeToolOutput>();
    expectTypeOf<CodeModeOutput>().toMatchTypeOf<CodemodeToolOutput>();
  });

  it("is what codemodeTool() and runtime.tool() return", () => {
    expectTypeOf(codemodeTool).returns.toEqualTypeOf<CodemodeTool>();
    expectTypeOf<ReturnType<typeof createCodemodeRuntime>["tool"]>().returns.toEqualTypeOf<CodemodeTool>();
  });
});
