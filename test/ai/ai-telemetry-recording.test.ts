/**
 * Reading the AI SDK call's telemetry settings from inside a tool's `execute`: a store bound to the AI SDK's
 * `ai:telemetry` tracing channel, bound only once a tracer provider is registered.
 */
import { tracingChannel } from "node:diagnostics_channel";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { AI_SDK_TELEMETRY_TRACING_CHANNEL } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { AI_TELEMETRY_CHANNEL, aiTelemetryRecording, watchAiTelemetry } from "../../src/ai/ai-telemetry-recording.js";

afterAll(() => trace.disable());

const channel = tracingChannel(AI_TELEMETRY_CHANNEL);
/** What the settings read inside an AI SDK `executeTool` operation with `event` are. */
const inside = (event: Record<string, unknown>) =>
  channel.tracePromise(async () => aiTelemetryRecording(), { type: "executeTool", event });

describe("the AI SDK call's telemetry settings", () => {
  it("come from the AI SDK's own tracing channel", () => {
    expect(AI_TELEMETRY_CHANNEL).toBe(AI_SDK_TELEMETRY_TRACING_CHANNEL);
  });

  it("are not watched before a tracer provider is registered (the AI SDK then skips its channel)", async () => {
    watchAiTelemetry();
    expect(channel.hasSubscribers).toBe(false);
    expect(await inside({ recordInputs: false })).toBeUndefined();
  });

  it("once one is, are read inside the operation (defaults on), and nowhere else", async () => {
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    watchAiTelemetry();
    expect(channel.hasSubscribers).toBe(true);
    expect(await inside({})).toEqual({ inputs: true, outputs: true });
    expect(await inside({ recordInputs: false })).toEqual({ inputs: false, outputs: true });
    expect(await inside({ recordInputs: true, recordOutputs: false })).toEqual({ inputs: true, outputs: false });
    expect(aiTelemetryRecording()).toBeUndefined();
  });
});
