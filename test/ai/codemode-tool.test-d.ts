/** Type tests for the `codemode` tool: its input and output types as the AI SDK infers them, and the tool caller. */
import { tool, type Experimental_ToolCallers, type InferToolInput, type InferToolOutput, type ToolSet } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  codemodeTool,
  type CodemodeOutput,
  type CodemodeTool,
  type CodemodeToolCaller,
  type CodemodeToolOutput,
} from "../../src/index.js";
import { createCodemodeRuntime } from "../../src/index.js";
import type { CodemodeInput } from "../../src/runtime/types.js";

const getWeather = tool({ inputSchema: z.object({ city: z.string() }), execute: async () => ({ tempC: 20 }) });

describe("the codemode tool", () => {
  it("takes { code: string } and yields progress snapshots, then a CodemodeOutput", () => {
    expectTypeOf<InferToolInput<CodemodeTool>>().toEqualTypeOf<CodemodeInput>();
    expectTypeOf<InferToolInput<CodemodeTool>>().toEqualTypeOf<{ code: string }>();
    expectTypeOf<InferToolOutput<CodemodeTool>>().toEqualTypeOf<CodemodeToolOutput>();
    expectTypeOf<CodemodeOutput>().toMatchTypeOf<CodemodeToolOutput>();
    expectTypeOf<InferToolInput<CodemodeToolCaller>>().toEqualTypeOf<CodemodeInput>();
  });

  it("is what codemodeTool({ tools }) and runtime.tool() return; a caller without tools or connectors", () => {
    expectTypeOf(codemodeTool({ tools: { getWeather } })).toEqualTypeOf<CodemodeTool>();
    expectTypeOf(codemodeTool({ connectors: { weather: { getWeather } } })).toEqualTypeOf<CodemodeTool>();
    expectTypeOf(codemodeTool()).toEqualTypeOf<CodemodeToolCaller>();
    expectTypeOf(codemodeTool({ store: ":memory:", scope: "u1" })).toEqualTypeOf<CodemodeToolCaller>();
    expectTypeOf<ReturnType<ReturnType<typeof createCodemodeRuntime>["tool"]>>().toEqualTypeOf<CodemodeTool>();
    expectTypeOf<
      ReturnType<ReturnType<typeof createCodemodeRuntime>["toolCaller"]>
    >().toEqualTypeOf<CodemodeToolCaller>();
  });

  it("an options object whose tools may be undefined does not pick an overload silently", () => {
    const maybe: { tools?: ToolSet } = {};
    // @ts-expect-error: neither overload: with `tools` it is a plain tool, without it a caller.
    codemodeTool(maybe);
  });

  it("experimental_toolCallers accepts the caller's name, and only a caller's", () => {
    const tools = { getWeather, codemode: codemodeTool() };
    expectTypeOf<{ getWeather: ["codemode", "AI_SDK_DIRECT_TOOL_CALL"] }>().toMatchTypeOf<
      Experimental_ToolCallers<typeof tools>
    >();
    const viaRuntime = { getWeather, codemode: createCodemodeRuntime({ tools: { getWeather } }).toolCaller() };
    expectTypeOf<{ getWeather: ["codemode"] }>().toMatchTypeOf<Experimental_ToolCallers<typeof viaRuntime>>();
    const plain = { getWeather, codemode: codemodeTool({ tools: { getWeather } }) };
    expectTypeOf<{ getWeather: ["codemode"] }>().not.toMatchTypeOf<Experimental_ToolCallers<typeof plain>>();
  });
});
