/**
 * What the AI SDK call around a `codemode` tool call records: the `recordInputs` / `recordOutputs` of its
 * `telemetry` settings (both on by default). A tool's `execute` is not given them, but the AI SDK publishes every
 * operation it traces, `executeTool` included, on the `ai:telemetry` tracing channel with those settings on the
 * event; a store bound to that channel makes them readable inside the tool's `execute` (and everything it awaits).
 *
 * Bound once per process, and only once a tracer provider is registered: until then the AI SDK sees no subscriber
 * and skips its channel entirely. No AI SDK call around (a direct `runtime.execute`), or one with telemetry
 * disabled: no settings, and the runtime records no arguments or results.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { tracingChannel } from "node:diagnostics_channel";
import { tracerProviderRegistered } from "../runtime/tracing/otel-api.js";
import type { TraceRecording } from "../runtime/tracing/trace-record.js";

/** The AI SDK's tracing channel (`AI_SDK_TELEMETRY_TRACING_CHANNEL` of `ai`; named here so older 7.x load too). */
export const AI_TELEMETRY_CHANNEL = "ai:telemetry";

const current = new AsyncLocalStorage<TraceRecording | undefined>();
let bound = false;

function recordingOf(message: unknown): TraceRecording | undefined {
  const event = (message as { event?: { recordInputs?: unknown; recordOutputs?: unknown } } | undefined)?.event;
  if (typeof event !== "object" || event === null) return undefined;
  return { inputs: event.recordInputs !== false, outputs: event.recordOutputs !== false };
}

/** Starts reading the AI SDK's telemetry settings, if a tracer provider is registered (cheap to call often). */
export function watchAiTelemetry(): void {
  if (bound || !tracerProviderRegistered()) return;
  bound = true;
  tracingChannel(AI_TELEMETRY_CHANNEL).start.bindStore(current, recordingOf);
}

/** The settings of the AI SDK operation the caller runs inside, when one is traced. */
export function aiTelemetryRecording(): TraceRecording | undefined {
  return current.getStore();
}
