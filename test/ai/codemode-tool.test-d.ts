/** Type tests for the `codemode` tool: its input and output types as the AI SDK infers them. */
import type { InferToolInput, InferToolOutput } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import {
  codemodeTool, createCodemodeRuntime, type CodeModeInput, type CodeModeOutput, type CodemodeTool,
} from "../../src/index.js";

describe("the codemode tool", () => {
  it("takes { code: string } and returns a CodeModeOutput", () => {
    expectTypeOf<InferToolInput<CodemodeTool>>().toEqualTypeOf<CodeModeInput>();
    expectTypeOf<InferToolInput<CodemodeTool>>().toEqualTypeOf<{ code: string }>();
    expectTypeOf<InferToolOutput<CodemodeTool>>().toEqualTypeOf<CodeModeOutput>();
  });

  it("is what codemodeTool() and runtime.tool() return", () => {
    expectTypeOf(codemodeTool).returns.toEqualTypeOf<CodemodeTool>();
    expectTypeOf<ReturnType<typeof createCodemodeRuntime>["tool"]>().returns.toEqualTypeOf<CodemodeTool>();
  });
});
