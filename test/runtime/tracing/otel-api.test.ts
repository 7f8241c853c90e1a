/**
 * Whether a tracer provider is registered is asked of `@opentelemetry/api` itself, not read from its global
 * registry: a provider the API would not use (registered under an incompatible version) is not taken as one, and a
 * provider registered and then removed stops counting.
 */
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { activeOtelApi, loadOtelApi, tracerProviderRegistered } from "../../../src/runtime/tracing/otel-api.js";

const REGISTRY = Symbol.for("opentelemetry.js.api.1");
const globals = globalThis as { [REGISTRY]?: Record<string, unknown> };

afterEach(() => {
  trace.disable();
  delete globals[REGISTRY];
});

describe("the OpenTelemetry API check", () => {
  it("sees no provider until one is registered, then sees it, and not after it is removed", async () => {
    await loadOtelApi();
    expect(tracerProviderRegistered()).toBe(false);
    expect(await activeOtelApi()).toBeUndefined();
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    expect(tracerProviderRegistered()).toBe(true);
    expect((await activeOtelApi())?.trace).toBe(trace);
    trace.disable();
    expect(tracerProviderRegistered()).toBe(false);
    expect(await activeOtelApi()).toBeUndefined();
  });

  it("does not take a provider the API would not use (registered by an incompatible copy) as registered", async () => {
    await loadOtelApi();
    // What an older copy of the API (1.0) leaves in the shared registry: this copy (1.9) needs a registry of at least
    // its own minor version and ignores it, so spans started through this copy would go nowhere.
    globals[REGISTRY] = { version: "1.0.0", trace: new BasicTracerProvider() };
    expect(tracerProviderRegistered()).toBe(false);
    expect(await activeOtelApi()).toBeUndefined();
  });
});
