/**
 * OpenTelemetry for one test file, as an app sets it up: the async-hooks context manager, a tracer provider
 * exporting to memory, and `@ai-sdk/otel` registered with the AI SDK (`registerTelemetry(new OpenTelemetry())`).
 * Call it at the top of the file, before any runtime is made; everything is unregistered after the file. Plus
 * readers of the finished spans: by name, children of a span (in start order), and a text tree.
 */
import { OpenTelemetry } from "@ai-sdk/otel";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { registerTelemetry, type Telemetry } from "ai";
import { afterAll, beforeEach } from "vitest";

/** The spans a test file's code finished. */
export interface TestTracing {
  exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
}

/** Registers tracing for this test file (and, unless `aiSdk: false`, `@ai-sdk/otel`); spans are cleared per test. */
export function installTracing({ aiSdk = true }: { aiSdk?: boolean } = {}): TestTracing {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  const integration: Telemetry | undefined = aiSdk ? new OpenTelemetry() : undefined;
  if (integration !== undefined) registerTelemetry(integration);
  beforeEach(() => exporter.reset());
  afterAll(() => {
    const registered = globalThis.AI_SDK_TELEMETRY_INTEGRATIONS ?? [];
    globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = registered.filter((entry) => entry !== integration);
    trace.disable();
    context.disable();
  });
  return { exporter, spans: () => exporter.getFinishedSpans() };
}

function startOf(span: ReadableSpan): number {
  return span.startTime[0] * 1e9 + span.startTime[1];
}

/** The one span named `name` (fails the test when there are none or several). */
export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${spanTree(spans)}`);
  return found[0] as ReadableSpan;
}

/** The children of `parent`, in the order they started. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  const { spanId } = parent.spanContext();
  return spans.filter((span) => span.parentSpanContext?.spanId === spanId).sort((a, b) => startOf(a) - startOf(b));
}

/** Every attribute value, status message, event and link attribute of every span, as one text (to search). */
export function everythingRecorded(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links.map((link) => link.attributes),
    })),
  );
}

/** The spans as an indented tree of names (roots: spans whose parent is not among them), for failure messages. */
export function spanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const lines: string[] = [];
  const visit = (span: ReadableSpan, depth: number): void => {
    lines.push(`${"  ".repeat(depth)}${span.name}`);
    for (const child of childrenOf(spans, span)) visit(child, depth + 1);
  };
  const roots = spans.filter((span) => !ids.has(span.parentSpanContext?.spanId ?? ""));
  for (const root of roots.sort((a, b) => startOf(a) - startOf(b))) visit(root, 0);
  return `\n${lines.join("\n")}`;
}
