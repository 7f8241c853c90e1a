/**
 * Where the runtime starts spans: a pass (`traceFirstPass`, `traceResumedPass`), an execution that waits for its
 * program to be approved (`tracePausedStart`), a rejection and a rollback (`traceOutsidePass`). Each resolves to
 * `undefined` when tracing is off (`tracing: false`: at once, having loaded nothing) or no tracer provider is
 * registered (having loaded `@opentelemetry/api` alone, to ask it).
 *
 * One execution is one trace, across invocations: the first pass's span is a child of the active span (with
 * `@ai-sdk/otel`, the AI SDK's tool-call span) and its context is stored with the execution; a pass resumed later,
 * elsewhere, is a child of that same span (or of the first pass, when it had no parent), linked to the first pass
 * and to the span active where it was resumed (which gets a link back to it).
 */
import type { Attributes, Context, Link, Span, SpanContext, Tracer } from "@opentelemetry/api";
import { activeOtelApi, type OtelApi } from "./otel-api.js";
import { notRecorded, PassTrace } from "./pass-trace.js";
import { spanMessage, type RecordedNames } from "./span-values.js";
import {
  parseTraceRecord,
  RECORD_NOTHING,
  serializeTraceRecord,
  type ExecutionTraceRecord,
  type StoredSpanContext,
  type TraceRecording,
} from "./trace-record.js";

/** Name of the tracer every span of the package comes from. */
export const TRACER_NAME = "ai-codemode";

/** What a runtime's tracing is configured with. */
export interface RuntimeTracing {
  /** The `tracing` option. */
  enabled: boolean;
  /** The runtime name, recorded on every span. */
  runtimeName: string;
  /** What the AI SDK call around the current invocation records (`src/ai` reads it); undefined outside one. */
  recording: (() => TraceRecording | undefined) | undefined;
  /** URL parameter and header names (lower-case) whose values spans may record (`outbound.traceParams`). */
  shown: RecordedNames;
}

/** The execution a span belongs to. */
interface TracedExecution {
  executionId: string;
  traceContext?: string;
}

interface OpenTrace {
  api: OtelApi;
  tracer: Tracer;
}

async function openTrace(tracing: RuntimeTracing): Promise<OpenTrace | undefined> {
  if (!tracing.enabled) return undefined;
  const api = await activeOtelApi();
  return api === undefined ? undefined : { api, tracer: api.trace.getTracer(TRACER_NAME) };
}

/** Both recordings allow it (the call that started the execution, and the one resuming it). */
function narrower(stored: TraceRecording | undefined, current: TraceRecording | undefined): TraceRecording {
  if (stored === undefined) return current ?? RECORD_NOTHING;
  if (current === undefined) return stored;
  return { inputs: stored.inputs && current.inputs, outputs: stored.outputs && current.outputs };
}

function stored(api: OtelApi, context: SpanContext): StoredSpanContext | undefined {
  return api.isSpanContextValid(context)
    ? { traceId: context.traceId, spanId: context.spanId, traceFlags: context.traceFlags }
    : undefined;
}

function remote(api: OtelApi, context: StoredSpanContext, traceState: string | undefined): SpanContext {
  return {
    ...context,
    isRemote: true,
    ...(traceState === undefined ? {} : { traceState: api.createTraceState(traceState) }),
  };
}

/** Where a span of an execution already started goes: its stored parent (or first pass), links, and recording. */
function continued(
  api: OtelApi,
  tracing: RuntimeTracing,
  execution: TracedExecution,
): { parent: Context; links: Link[]; recording: TraceRecording; invoker: Span | undefined } {
  const record = parseTraceRecord(execution.traceContext);
  const active = api.context.active();
  const recording = narrower(record?.recording, tracing.recording?.());
  const home = record?.parent ?? record?.first;
  if (record === undefined || home === undefined) return { parent: active, links: [], recording, invoker: undefined };
  const links: Link[] = [];
  if (record.first !== undefined) {
    links.push({
      context: remote(api, record.first, record.traceState),
      attributes: { "codemode.link": "first pass" },
    });
  }
  const activeSpan = api.trace.getSpan(active);
  const invoker = activeSpan !== undefined && api.isSpanContextValid(activeSpan.spanContext()) ? activeSpan : undefined;
  if (invoker !== undefined)
    links.push({ context: invoker.spanContext(), attributes: { "codemode.link": "resumed by" } });
  const parent = api.trace.setSpanContext(active, remote(api, home, record.traceState));
  return { parent, links, recording, invoker };
}

/**
 * A link from the span of the invocation that continued the execution to the span it started, while that span is
 * still open (a route handler's span may have ended while its response streams) and its SDK has `addLink` (1.9).
 */
function linkBack(invoker: Span | undefined, span: Span, what: string): void {
  if (invoker === undefined || typeof invoker.addLink !== "function" || !invoker.isRecording()) return;
  invoker.addLink({ context: span.spanContext(), attributes: { "codemode.link": what } });
}

function baseAttributes(tracing: RuntimeTracing, executionId: string): Attributes {
  return { "codemode.execution.id": executionId, "codemode.runtime.name": tracing.runtimeName };
}

/** The first pass of a new execution, and the trace record to store with it (in the execution's insert). */
export async function traceFirstPass(
  tracing: RuntimeTracing,
  executionId: string,
): Promise<{ trace: PassTrace; record: string } | undefined> {
  const open = await openTrace(tracing);
  if (open === undefined) return undefined;
  const { api, tracer } = open;
  const parent = api.context.active();
  const recording = tracing.recording?.() ?? RECORD_NOTHING;
  const span = tracer.startSpan(
    "codemode pass 1",
    { kind: api.SpanKind.INTERNAL, attributes: { ...baseAttributes(tracing, executionId), "codemode.pass.number": 1 } },
    parent,
  );
  const trace = new PassTrace({ api, tracer, span, parent, executionId, recording, shown: tracing.shown });
  const parentContext = api.trace.getSpanContext(parent);
  const record: ExecutionTraceRecord = { recording };
  const first = stored(api, span.spanContext());
  const parentStored = parentContext === undefined ? undefined : stored(api, parentContext);
  if (first !== undefined) record.first = first;
  if (parentStored !== undefined) record.parent = parentStored;
  const traceState = span.spanContext().traceState?.serialize();
  if (traceState !== undefined && traceState !== "") record.traceState = traceState;
  return { trace, record: serializeTraceRecord(record) };
}

/** A pass resumed after a pause (approval, decisions): in the execution's trace, with its decisions as events. */
export async function traceResumedPass(
  tracing: RuntimeTracing,
  execution: TracedExecution & { passes: number },
  decisions: { approved: number[]; rejected: number[] },
): Promise<PassTrace | undefined> {
  const open = await openTrace(tracing);
  if (open === undefined) return undefined;
  const { api, tracer } = open;
  const { parent, links, recording, invoker } = continued(api, tracing, execution);
  const span = tracer.startSpan(
    `codemode pass ${execution.passes}`,
    {
      kind: api.SpanKind.INTERNAL,
      attributes: { ...baseAttributes(tracing, execution.executionId), "codemode.pass.number": execution.passes },
      links,
    },
    parent,
  );
  linkBack(invoker, span, "resumed execution");
  const trace = new PassTrace({
    api,
    tracer,
    span,
    parent,
    executionId: execution.executionId,
    recording,
    shown: tracing.shown,
  });
  if (decisions.approved.length > 0) trace.event("codemode.approval", { "codemode.call.seqs": decisions.approved });
  if (decisions.rejected.length > 0) trace.event("codemode.rejection", { "codemode.call.seqs": decisions.rejected });
  return trace;
}

/**
 * An execution that starts paused on its whole program's approval (no pass runs): a `codemode.pause` event on
 * the active span, and the record to store so that the pass run on approval joins this trace.
 */
export async function tracePausedStart(tracing: RuntimeTracing, executionId: string): Promise<string | undefined> {
  const open = await openTrace(tracing);
  if (open === undefined) return undefined;
  const { api } = open;
  const active = api.trace.getSpan(api.context.active());
  const parent = active === undefined ? undefined : stored(api, active.spanContext());
  if (active === undefined || parent === undefined) return undefined;
  active.addEvent("codemode.pause", {
    ...baseAttributes(tracing, executionId),
    "codemode.pending.seqs": [0],
    "codemode.pending.calls": ["codemode.program"],
  });
  const traceState = active.spanContext().traceState?.serialize();
  return serializeTraceRecord({
    parent,
    ...(traceState === undefined || traceState === "" ? {} : { traceState }),
    recording: tracing.recording?.() ?? RECORD_NOTHING,
  });
}

/** How a rejection or a rollback ended, as its span records it. */
export interface OutsidePassEnd {
  error?: string;
  kind?: string;
  attributes?: Attributes;
}

/**
 * Runs a rejection or a rollback of `execution` inside a span of its trace (`codemode reject`,
 * `codemode rollback`), linked to the first pass, with `describe(output)` saying how it ended.
 */
export async function traceOutsidePass<T>(
  tracing: RuntimeTracing,
  execution: TracedExecution,
  operation: "reject" | "rollback",
  run: () => Promise<T>,
  describe: (output: T) => OutsidePassEnd,
): Promise<T> {
  const open = await openTrace(tracing);
  if (open === undefined) return run();
  const { api, tracer } = open;
  const { parent, links, invoker, recording } = continued(api, tracing, execution);
  const span = tracer.startSpan(
    `codemode ${operation}`,
    { kind: api.SpanKind.INTERNAL, attributes: baseAttributes(tracing, execution.executionId), links },
    parent,
  );
  linkBack(invoker, span, `execution ${operation}`);
  try {
    const output = await api.context.with(api.trace.setSpan(parent, span), run);
    const end = describe(output);
    if (end.attributes !== undefined) span.setAttributes(end.attributes);
    span.addEvent(operation === "reject" ? "codemode.rejection" : "codemode.rollback", end.attributes ?? {});
    if (end.error !== undefined) {
      if (end.kind !== undefined) span.setAttribute("error.type", end.kind);
      // A revert's error may quote the call's arguments: only its kind when inputs are not recorded.
      const message = recording.inputs ? spanMessage(end.error) : notRecorded(end.kind ?? "error");
      span.setStatus({ code: api.SpanStatusCode.ERROR, message });
    }
    return output;
  } finally {
    span.end();
  }
}
