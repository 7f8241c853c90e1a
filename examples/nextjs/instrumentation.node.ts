/**
 * The Node.js half of `instrumentation.ts` (Next.js's pattern: the Edge runtime never loads it): a tracer
 * provider with the async-hooks context manager, `@ai-sdk/otel` registered with the AI SDK, and the exporter the
 * environment asks for (see `instrumentation.ts`).
 */
import { appendFileSync } from "node:fs";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { OpenTelemetry } from "@ai-sdk/otel";
import { registerTelemetry } from "ai";

const file = process.env.OTEL_SPANS_FILE;
const processor =
  file === undefined
    ? new BatchSpanProcessor(new ConsoleSpanExporter())
    : new SimpleSpanProcessor(jsonLinesExporter(file));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }));
registerTelemetry(new OpenTelemetry());

/** An exporter appending each span to `path` as a JSON line (times in ms since the epoch). */
function jsonLinesExporter(path: string): SpanExporter {
  const ms = ([seconds, nanos]: [number, number]) => seconds * 1e3 + nanos / 1e6;
  const line = (span: ReadableSpan) =>
    JSON.stringify({
      name: span.name,
      scope: span.instrumentationScope.name,
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      parentSpanId: span.parentSpanContext?.spanId,
      start: ms(span.startTime),
      end: ms(span.endTime),
      status: span.status,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links.map((link) => ({
        spanId: link.context.spanId,
        traceId: link.context.traceId,
        ...link.attributes,
      })),
    });
  return {
    export(spans, done) {
      appendFileSync(path, spans.map((span) => `${line(span)}\n`).join(""));
      done({ code: 0 }); // ExportResultCode.SUCCESS
    },
    shutdown: async () => {},
  };
}
