/**
 * What a call span says (OpenTelemetry GenAI conventions for tool execution, then ours under `codemode.*`): its
 * name and start attributes, the HTTP attributes of an outbound `fetch`, and `error.type`. Values
 * (`gen_ai.tool.call.arguments` / `.result`, step names, queries, host names) only when `recording` allows them.
 */
import type { Attributes } from "@opentelemetry/api";
import { OUTBOUND_CONNECTOR } from "../../connectors/outbound-fetch.js";
import { spanValueText, type RecordedNames } from "./span-values.js";
import type { TraceRecording } from "./trace-record.js";

/** A journaled call as the tracer names it. */
export interface TracedCall {
  connector: string;
  method: string;
  /** A `codemode.step`: its span stays open until the step's callback settles (`stepEnded`). */
  step?: true;
}

const GEN_AI_ARGUMENTS = "gen_ai.tool.call.arguments";
export const GEN_AI_RESULT = "gen_ai.tool.call.result";
export const ERROR_TYPE = "error.type";

function toolAttributes(toolName: string): Attributes {
  return { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": toolName, "gen_ai.tool.type": "function" };
}

/**
 * `http.request.method` of an outbound request (structure, recorded always) and, when inputs are recorded,
 * `server.address` (a host name is the program's value too: it could carry what the app keeps out of traces).
 */
function requestAttributes(args: unknown, inputs: boolean): Attributes {
  if (typeof args !== "object" || args === null) return {};
  const { method, url } = args as { method?: unknown; url?: unknown };
  const attributes: Attributes = { "http.request.method": typeof method === "string" ? method.toUpperCase() : "GET" };
  if (inputs && typeof url === "string") {
    try {
      attributes["server.address"] = new URL(url).hostname;
    } catch {
      // not a URL: the connector refuses it, and the span says so
    }
  }
  return attributes;
}

/** The name and start attributes of journaled call `seq`'s span. */
export function callSpanStart({
  seq,
  call,
  executionId,
  args,
  recording,
  secrets,
  shown,
}: {
  seq: number;
  call: TracedCall;
  executionId: string;
  args: unknown;
  recording: TraceRecording;
  secrets: readonly string[];
  /** URL parameter and header names whose values may be recorded. */
  shown: RecordedNames;
}): { name: string; attributes: Attributes } {
  const attributes: Attributes = { "codemode.call.seq": seq, "codemode.call.replayed": false };
  if (call.step === true) {
    if (recording.inputs) attributes["codemode.step.name"] = call.method;
    return { name: "codemode.step", attributes };
  }
  const outbound = call.connector === OUTBOUND_CONNECTOR;
  const toolName = outbound ? call.method : `${call.connector}.${call.method}`;
  Object.assign(attributes, toolAttributes(toolName), {
    "gen_ai.tool.call.id": `${executionId}:${seq}`,
    "codemode.connector": call.connector,
    "codemode.method": call.method,
  });
  if (outbound) Object.assign(attributes, requestAttributes(args, recording.inputs));
  if (recording.inputs) attributes[GEN_AI_ARGUMENTS] = spanValueText(args, secrets, shown);
  return { name: `execute_tool ${toolName}`, attributes };
}

/** The name and start attributes of a `codemode.search` / `codemode.describe` span. */
export function lookupSpanStart({
  kind,
  input,
  executionId,
  recording,
}: {
  kind: "search" | "describe";
  input: string;
  executionId: string;
  recording: TraceRecording;
}): { name: string; attributes: Attributes } {
  const toolName = `codemode.${kind}`;
  const attributes: Attributes = { ...toolAttributes(toolName), "codemode.execution.id": executionId };
  if (recording.inputs) attributes[GEN_AI_ARGUMENTS] = spanValueText(input);
  return { name: `execute_tool ${toolName}`, attributes };
}

/** The status of an outbound response (`http.response.status_code`). */
export function responseStatus(value: unknown): number | undefined {
  const status = typeof value === "object" && value !== null ? (value as { status?: unknown }).status : undefined;
  return typeof status === "number" ? status : undefined;
}

/** `error.type`: the failure kind when the call ended the pass, else the error's class name. */
export function errorType(error: unknown, fatal: { kind: string } | undefined): string {
  if (fatal !== undefined) return fatal.kind;
  return error instanceof Error ? error.name : "_OTHER";
}
