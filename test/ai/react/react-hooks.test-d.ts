/**
 * The hooks take what `useChat` gives, as it gives it: its whole return value (any message type) for
 * `useCodemodeDecisions`, and any part of a message (a static `tool-codemode` part or a `dynamic-tool` one) for
 * `useCodemodeRun`.
 */
import type { UseChatHelpers } from "@ai-sdk/react";
import type { UIDataTypes, UIMessage, UIMessagePart } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import type { CodemodeChat, CodemodeRunOutcome, CodemodeRunView } from "../../../src/react.js";
import { useCodemodeDecisions, type useCodemodeRun } from "../../../src/react.js";
import type { CallState } from "../../../src/runtime/call-state.js";
import type { CodemodeInput, CodemodeOutput } from "../../../src/runtime/types.js";

type CodemodeTools = { codemode: { input: CodemodeInput; output: CodemodeOutput } };
type Message = UIMessage<unknown, UIDataTypes, CodemodeTools>;

describe("react hooks types", () => {
  it("useCodemodeDecisions takes useChat's return value, for any message type", () => {
    expectTypeOf<UseChatHelpers<UIMessage>>().toExtend<CodemodeChat>();
    expectTypeOf<UseChatHelpers<Message>>().toExtend<CodemodeChat>();
    expectTypeOf(useCodemodeDecisions).parameter(0).toEqualTypeOf<CodemodeChat>();
  });

  it("useCodemodeRun takes any part of a message, or nothing", () => {
    expectTypeOf<UIMessagePart<UIDataTypes, CodemodeTools>>().toExtend<Parameters<typeof useCodemodeRun>[0]>();
    expectTypeOf<Message["parts"][number]>().toExtend<Parameters<typeof useCodemodeRun>[0]>();
    expectTypeOf<undefined>().toExtend<Parameters<typeof useCodemodeRun>[0]>();
  });

  it("a view's call states are the one call vocabulary; outcomes are told apart by status", () => {
    expectTypeOf<CodemodeRunView["calls"][number]["state"]>().toEqualTypeOf<CallState>();
    expectTypeOf<Extract<CodemodeRunOutcome, { status: "completed" }>["result"]>().toBeUnknown();
    expectTypeOf<Extract<CodemodeRunOutcome, { status: "expired" }>>().toHaveProperty("error");
  });
});
