/**
 * What the AI SDK call around a `codemode` tool call records: the `recordInputs` / `recordOutputs` of its
 * `telemetry` settings (both on by default). A tool's `execute` is not given them, but the AI SDK publishes every
 * operation it traces, `executeTool` included, on the `ai:telemetry` tracing channel with those settings on the
 * event; a store bound to that channel makes them readable inside the tool's `execute` (and everything it awaits).
 *
 * Bound once per process, and only once a tracer provider is registered (asked of `@opentelemetry/api`, loaded for
 * it): until then the AI SDK sees no subscriber and skips its channel entirely. No AI SDK call around (a direct `runtime.execute`), or one with telemetry
 * disabled: no settings, and the runtime records no arguments or results.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { tracingChannel } from "node:diagnostics_channel";
import { loadOtelApi, tracerProviderRegistered } from "../runtime/tracing/otel-api.js";
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

function bind(): void {
  if (bound || !tracerProviderRegistered()) return;
  bound = true;
  tracingChannel(AI_TELEMETRY_CHANNEL).start.bindStore(current, recordingOf);
}

/**
 * Starts reading the AI SDK's telemetry settings, if a tracer provider is registered (cheap to call often). The
 * check needs `@opentelemetry/api` loaded: the first call starts its import and binds when it settles, so a tool call
 * that begins before then records no arguments or results (the safe side).
 */
export function watchAiTelemetry(): void {
  if (bound) return;
  bind();
  if (!bound) void loadOtelApi().then(bind);
}

/** The settings of the AI SDK operation the caller runs inside, when one is traced. */
export function aiTelemetryRecording(): TraceRecording | undefined {
  return current.getStore();
}
