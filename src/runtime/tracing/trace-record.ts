/**
 * What an execution keeps of its trace (the `trace_context` column), so that a pass resumed in another
 * invocation, hours later, joins the same trace: the W3C `traceparent` of the first pass's span and of the span
 * it ran under (the AI SDK's tool-call span), the `tracestate`, and whether the AI SDK call that started the
 * execution records inputs and outputs (later passes record no more than it allowed).
 *
 * Stored as version-tagged JSON, validated when read; a record that does not validate is ignored (tracing never
 * fails a run).
 */
import { isRecord } from "../../shared/is-record.js";

/** What the AI SDK call's telemetry allows to be recorded (`recordInputs` / `recordOutputs`). */
export interface TraceRecording {
  inputs: boolean;
  outputs: boolean;
}

/** Records nothing of the program's values: the default outside an AI SDK call that says otherwise. */
export const RECORD_NOTHING: TraceRecording = { inputs: false, outputs: false };

/** A span's identity in a trace (the fields of a W3C `traceparent`). */
export interface StoredSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** An execution's trace record. */
export interface ExecutionTraceRecord {
  /** The first pass's span, when that pass was traced (an execution awaiting program approval has none). */
  first?: StoredSpanContext;
  /** The span the execution was started under (the AI SDK's tool-call span); resumed passes become its children. */
  parent?: StoredSpanContext;
  /** The W3C `tracestate` of the trace, when it had one. */
  traceState?: string;
  recording: TraceRecording;
}

/** Version tag of the stored JSON. */
const TRACE_RECORD_VERSION = 1;
/** Longest stored record read (ours are ~250 characters; `tracestate` is at most 512 by the W3C spec). */
const MAX_TRACE_RECORD_CHARS = 2_048;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `00-<trace id>-<span id>-<flags>` (W3C Trace Context, version 00). */
export function formatTraceparent({ traceId, spanId, traceFlags }: StoredSpanContext): string {
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** A `traceparent` read back; `undefined` when it is not one (or names the invalid all-zero ids). */
export function parseTraceparent(text: unknown): StoredSpanContext | undefined {
  if (typeof text !== "string") return undefined;
  const match = TRACEPARENT.exec(text);
  if (match === null) return undefined;
  const [, traceId = "", spanId = "", flags = ""] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** The stored text of `record`. */
export function serializeTraceRecord(record: ExecutionTraceRecord): string {
  return JSON.stringify({
    v: TRACE_RECORD_VERSION,
    ...(record.first === undefined ? {} : { first: formatTraceparent(record.first) }),
    ...(record.parent === undefined ? {} : { parent: formatTraceparent(record.parent) }),
    ...(record.traceState === undefined ? {} : { state: record.traceState }),
    inputs: record.recording.inputs,
    outputs: record.recording.outputs,
  });
}

/** The record in `text`, or `undefined` when there is none or it does not validate. */
export function parseTraceRecord(text: string | undefined): ExecutionTraceRecord | undefined {
  if (text === undefined || text.length > MAX_TRACE_RECORD_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value["v"] !== TRACE_RECORD_VERSION) return undefined;
  const { inputs, outputs, state } = value;
  if (typeof inputs !== "boolean" || typeof outputs !== "boolean") return undefined;
  if (state !== undefined && typeof state !== "string") return undefined;
  const first = value["first"] === undefined ? undefined : parseTraceparent(value["first"]);
  const parent = value["parent"] === undefined ? undefined : parseTraceparent(value["parent"]);
  if ((value["first"] !== undefined && first === undefined) || (value["parent"] !== undefined && parent === undefined))
    return undefined;
  return {
    ...(first === undefined ? {} : { first }),
    ...(parent === undefined ? {} : { parent }),
    ...(state === undefined ? {} : { traceState: state }),
    recording: { inputs, outputs },
  };
}
