/**
 * `@opentelemetry/api`, an optional peer dependency: loaded on first use, and only once the app has registered a
 * tracer provider. Until then tracing costs a property read per pass, and nothing is imported. The check reads the
 * registry every copy of the API (major version 1) shares on `globalThis`, so it sees a provider registered through
 * another copy of the package (an app's bundled one) without loading ours.
 */
import type * as OpenTelemetryApi from "@opentelemetry/api";

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof OpenTelemetryApi;

/** Where `@opentelemetry/api` 1.x keeps what the app registered (`trace`, `context`, `propagation`, `diag`). */
const OTEL_REGISTRY = Symbol.for("opentelemetry.js.api.1");

/** Whether the app registered a tracer provider (`trace.setGlobalTracerProvider`, an SDK's `register()`). */
export function tracerProviderRegistered(): boolean {
  const registry = (globalThis as { [OTEL_REGISTRY]?: { trace?: unknown } })[OTEL_REGISTRY];
  return typeof registry === "object" && registry !== null && registry.trace !== undefined;
}

let loading: Promise<OtelApi | undefined> | undefined;

/** The API module, or `undefined` when it is not installed (never rejects; loaded once per process). */
function loadOtelApi(): Promise<OtelApi | undefined> {
  loading ??= import("@opentelemetry/api").then(
    (module) => module,
    () => undefined,
  );
  return loading;
}

/** The API when spans can be recorded (a tracer provider is registered and the package loads), else `undefined`. */
export function activeOtelApi(): Promise<OtelApi | undefined> | undefined {
  return tracerProviderRegistered() ? loadOtelApi() : undefined;
}
