/**
 * `@opentelemetry/api`, an optional peer dependency, asked through its public API whether a tracer provider is
 * registered. It is imported on first need (a runtime with tracing on, or its first pass), never with the package,
 * and never at all with `tracing: false`; when it is not installed the failed import is paid once and tracing stays
 * off. Only with a registered provider does a pass load or start anything more (docs/decisions/tracing.md).
 */
import type * as OpenTelemetryApi from "@opentelemetry/api";

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof OpenTelemetryApi;

let loading: Promise<OtelApi | undefined> | undefined;
/** The module once its import settled: `undefined` before that, `null` when it is not installed. */
let loaded: OtelApi | null | undefined;

/** The API module, or `undefined` when it is not installed (never rejects; imported once per process). */
export function loadOtelApi(): Promise<OtelApi | undefined> {
  loading ??= import("@opentelemetry/api").then(
    (module) => {
      loaded = module;
      return module;
    },
    () => {
      loaded = null;
      return undefined;
    },
  );
  return loading;
}

/**
 * Whether the app registered a tracer provider (`trace.setGlobalTracerProvider`, an SDK's `register()`), as `api`
 * sees it. The global provider is the API's `ProxyTracerProvider`, delegating to the registered one; with none
 * registered it delegates to the API's no-op provider, the delegate of every fresh proxy. A provider registered
 * through another copy of the API is that copy's proxy, whose delegate is a real provider: registered too.
 */
function providerRegistered(api: OtelApi): boolean {
  const provider = api.trace.getTracerProvider() as Partial<Pick<OpenTelemetryApi.ProxyTracerProvider, "getDelegate">>;
  if (typeof provider.getDelegate !== "function") return true;
  return provider.getDelegate() !== new api.ProxyTracerProvider().getDelegate();
}

/**
 * Whether a tracer provider is registered, answered at once: `false` until the API is loaded (this starts loading
 * it) or when it is not installed. For what must decide synchronously; a pass uses {@link activeOtelApi}.
 */
export function tracerProviderRegistered(): boolean {
  if (loaded === undefined) void loadOtelApi();
  return loaded !== undefined && loaded !== null && providerRegistered(loaded);
}

/** The API when spans can be recorded (the package loads and a tracer provider is registered), else `undefined`. */
export async function activeOtelApi(): Promise<OtelApi | undefined> {
  const api = loaded === undefined ? await loadOtelApi() : (loaded ?? undefined);
  return api !== undefined && providerRegistered(api) ? api : undefined;
}
