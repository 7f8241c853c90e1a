/**
 * OpenTelemetry for the example. Next.js calls `register()` once per server process, before any route runs.
 * With a tracer provider registered and `@ai-sdk/otel` given to the AI SDK, one trace shows the chat request,
 * the model calls, the `codemode` tool call and, under it, each pass of the execution and every connector call
 * it made — including the pass that an approval resumed later, in another request or another server process.
 *
 * Opt-in, so the example runs as before without it:
 * - `OTEL_TRACES_EXPORTER=console` prints every span (the SDK's `ConsoleSpanExporter`);
 * - `OTEL_SPANS_FILE=/path/spans.jsonl` appends every span as one JSON line (what `e2e/tracing.test.mjs` reads).
 * The setup itself is in `instrumentation.node.ts`. In production you would register an OTLP exporter instead (Langfuse, Braintrust, Datadog, Honeycomb, …), e.g.
 * with `@vercel/otel`'s `registerOTel()` or the OpenTelemetry Node SDK, and keep `registerTelemetry(new OpenTelemetry())`.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.OTEL_TRACES_EXPORTER !== "console" && process.env.OTEL_SPANS_FILE === undefined) return;
  await import("./instrumentation.node");
}
