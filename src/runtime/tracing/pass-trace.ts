/**
 * The spans of one pass (OpenTelemetry GenAI conventions where they apply): the pass span (`codemode pass N`:
 * execution id, pass number, status, failure kind, events for the pause and the decisions it resumed from), and
 * under it one `execute_tool <connector>.<method>` span per connector call and outbound `fetch`, one
 * `codemode.step` span per step and one `execute_tool codemode.search` / `codemode.describe` span per lookup:
 * sequence number, replayed or executed, approved, pending, error status. Arguments and results are recorded
 * only when the AI SDK call's telemetry records inputs / outputs (`TraceRecording`), bounded and masked
 * (`span-values.ts`). A connector's method runs with its call's span active (`inCall`), so spans it makes itself
 * nest under it; nothing else of the pass changes the active context.
 *
 * The pass calls this only when tracing is on (`pass.trace` is undefined otherwise): every method assumes spans
 * are wanted. Nothing here throws into the pass: the OpenTelemetry API is built not to.
 */
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import { OUTBOUND_CONNECTOR } from "../../connectors/outbound-fetch.js";
import { redactText } from "../../connectors/openapi/redact-secrets.js";
import { messageOf } from "../../shared/message-of.js";
import {
  callSpanStart,
  ERROR_TYPE,
  errorType,
  GEN_AI_RESULT,
  lookupSpanStart,
  responseStatus,
  type TracedCall,
} from "./call-attributes.js";
import type { OtelApi } from "./otel-api.js";
import { credentialValues, MAX_SPAN_SECRETS, spanMessage, spanValueText, type RecordedNames } from "./span-values.js";
import type { TraceRecording } from "./trace-record.js";

/** What the tracer reads of the pass when a call settles (a `PassContext` is one). */
export interface TracedPassState {
  readonly pending: ReadonlyArray<{ seq: number }>;
  readonly startedApprovals: ReadonlySet<number>;
  readonly fatal: { kind: string } | undefined;
}

/** How a pass ended, as the pass span records it. */
export interface TracedPassEnd {
  status: "completed" | "paused" | "error";
  kind?: string;
  error?: string;
  pending?: ReadonlyArray<{ seq: number; connector: string; method: string }>;
}

/** How a call or a step settled: its value, or what it was rejected with. */
export type Settled = { value: unknown } | { error: unknown };

/** What a step's callback did (`stepEnded`). */
export type StepOutcome = Settled | { interrupted: true };

interface OpenCall {
  span: Span;
  step: boolean;
  /** An outbound `fetch`: its response's status is recorded. */
  outbound: boolean;
  /** Credential values of the call's arguments, redacted wherever they appear in what is recorded. */
  secrets: readonly string[];
  replayed?: Settled;
}

/** The spans of one pass; see the file header. */
export class PassTrace {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #span: Span;
  /** The context whose active span is the pass span: every call span's parent. */
  readonly #context: Context;
  readonly #executionId: string;
  readonly #recording: TraceRecording;
  /** Calls whose span is open, by sequence number. */
  readonly #open = new Map<number, OpenCall>();
  /** False when the pass span is not sampled: its calls would not be either, so none is started. */
  readonly #sampled: boolean;
  /** URL parameter and header names whose values may be recorded (`outbound.traceParams`). */
  readonly #shown: RecordedNames;
  /** Credential values of every call of the pass (bounded), redacted from the pass span's status too. */
  readonly #passSecrets = new Set<string>();

  constructor({
    api,
    tracer,
    span,
    parent,
    executionId,
    recording,
    shown,
  }: {
    api: OtelApi;
    tracer: Tracer;
    span: Span;
    parent: Context;
    executionId: string;
    recording: TraceRecording;
    shown: RecordedNames;
  }) {
    this.#api = api;
    this.#tracer = tracer;
    this.#span = span;
    this.#context = api.trace.setSpan(parent, span);
    this.#executionId = executionId;
    this.#recording = recording;
    this.#sampled = span.isRecording();
    this.#shown = shown;
  }

  /** An event on the pass span (`codemode.approval`, `codemode.rejection`, …). */
  event(name: string, attributes: Attributes): void {
    this.#span.addEvent(name, attributes);
  }

  /** Starts journaled call `seq`'s span, runs it, and ends the span when it settles (a step: when it finishes). */
  call<T>(pass: TracedPassState, seq: number, call: TracedCall, args: unknown, run: () => Promise<T>): Promise<T> {
    if (!this.#sampled) return run();
    // Error messages are recorded whatever the settings: the request's credentials are redacted from them too.
    const secrets = credentialValues(args, this.#shown);
    for (const secret of secrets) if (this.#passSecrets.size < MAX_SPAN_SECRETS * 4) this.#passSecrets.add(secret);
    const span = this.#startCall(seq, call, args, secrets);
    const open: OpenCall = {
      span,
      step: call.step === true,
      outbound: call.connector === OUTBOUND_CONNECTOR,
      secrets,
    };
    this.#open.set(seq, open);
    return run().then(
      (value) => {
        // A step begun (not replayed) goes on until its callback settles in the sandbox.
        if (open.step && open.replayed === undefined) return value;
        const outcome = open.step && open.replayed !== undefined ? open.replayed : { value };
        this.#endCall(pass, seq, open, outcome);
        return value;
      },
      (error: unknown) => {
        this.#endCall(pass, seq, open, { error });
        throw error;
      },
    );
  }

  /**
   * Runs `work` (a connector's method) with call `seq`'s span active, so spans the connector makes are its
   * children. Only the connector's own work: the runtime's bookkeeping and progress listeners keep the caller's.
   */
  inCall<T>(seq: number, work: () => T): T {
    const open = this.#open.get(seq);
    return open === undefined
      ? work()
      : this.#api.context.with(this.#api.trace.setSpan(this.#context, open.span), work);
  }

  /** Call `seq` was answered from the journal (its recorded value or failure). */
  replayed(seq: number, recorded: Settled): void {
    const open = this.#open.get(seq);
    if (open === undefined) return;
    open.replayed = recorded;
    open.span.setAttribute("codemode.call.replayed", true);
  }

  /** Step `seq`'s callback settled (or a pause interrupted it: the resumed pass runs it again). */
  stepEnded(seq: number, outcome: StepOutcome): void {
    const open = this.#open.get(seq);
    if (open === undefined) return;
    if ("interrupted" in outcome) {
      open.span.setAttribute("codemode.step.interrupted", true);
      this.#close(seq, open);
      return;
    }
    this.#finish(open, outcome, undefined);
    this.#close(seq, open);
  }

  /** Runs `codemode.search` / `codemode.describe` inside its span. */
  lookup<T>(kind: "search" | "describe", input: string, run: () => Promise<T>): Promise<T> {
    if (!this.#sampled) return run();
    const { name, attributes } = lookupSpanStart({
      kind,
      input,
      executionId: this.#executionId,
      recording: this.#recording,
    });
    const open: OpenCall = {
      span: this.#tracer.startSpan(name, { attributes }, this.#context),
      step: false,
      outbound: false,
      secrets: [],
    };
    return run().then(
      (value) => {
        this.#finish(open, { value }, undefined);
        open.span.end();
        return value;
      },
      (error: unknown) => {
        this.#finish(open, { error }, undefined);
        open.span.end();
        throw error;
      },
    );
  }

  /** Ends the pass span with the pass's outcome (and any call span still open: the program left it running). */
  end(outcome: TracedPassEnd): void {
    for (const [seq, open] of this.#open) {
      open.span.setAttribute("codemode.call.unfinished", true);
      this.#close(seq, open);
    }
    const span = this.#span;
    span.setAttribute("codemode.pass.status", outcome.status);
    if (outcome.status === "paused" && outcome.pending !== undefined) {
      span.addEvent("codemode.pause", {
        "codemode.pending.seqs": outcome.pending.map((action) => action.seq),
        "codemode.pending.calls": outcome.pending.map((action) => `${action.connector}.${action.method}`),
      });
    }
    if (outcome.status === "error") {
      if (outcome.kind !== undefined) {
        span.setAttribute("codemode.failure.kind", outcome.kind);
        span.setAttribute(ERROR_TYPE, outcome.kind);
      }
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: this.#passMessage(outcome) });
    }
    span.end();
  }

  #startCall(seq: number, call: TracedCall, args: unknown, secrets: readonly string[]): Span {
    const { name, attributes } = callSpanStart({
      seq,
      call,
      executionId: this.#executionId,
      args,
      recording: this.#recording,
      secrets,
      shown: this.#shown,
    });
    return this.#tracer.startSpan(name, { kind: this.#api.SpanKind.INTERNAL, attributes }, this.#context);
  }

  #endCall(pass: TracedPassState, seq: number, open: OpenCall, outcome: Settled): void {
    if (pass.startedApprovals.has(seq)) open.span.setAttribute("codemode.call.approved", true);
    if ("error" in outcome && pass.pending.some((action) => action.seq === seq)) {
      // Not a failure: the call waits for a human and the pass ends paused.
      open.span.setAttribute("codemode.call.pending", true);
    } else {
      this.#finish(open, outcome, pass.fatal);
    }
    this.#close(seq, open);
  }

  /** Records a settled call's result (when outputs are recorded) or its failure (always: status and type). */
  #finish({ span, outbound, secrets }: OpenCall, outcome: Settled, fatal: { kind: string } | undefined): void {
    if ("error" in outcome) {
      const type = errorType(outcome.error, fatal);
      span.setAttribute(ERROR_TYPE, type);
      span.setStatus({
        code: this.#api.SpanStatusCode.ERROR,
        message: this.#errorMessage(outcome.error, type, secrets),
      });
      return;
    }
    const status = outbound ? responseStatus(outcome.value) : undefined;
    if (status !== undefined) span.setAttribute("http.response.status_code", status);
    if (this.#recording.outputs) span.setAttribute(GEN_AI_RESULT, spanValueText(outcome.value, secrets, this.#shown));
  }

  /**
   * A failed call's status message: its text with the request's credentials redacted, or, when inputs are not
   * recorded, only its kind (validation and connector errors quote the values they refuse).
   */
  #errorMessage(error: unknown, type: string, secrets: readonly string[]): string {
    if (!this.#recording.inputs) return notRecorded(type);
    const message = messageOf(error);
    return spanMessage(secrets.length === 0 ? message : redactText(message, secrets));
  }

  /** The pass span's status message: as `#errorMessage`, over every credential the pass's calls carried. */
  #passMessage(outcome: TracedPassEnd): string {
    if (!this.#recording.inputs) return notRecorded(outcome.kind ?? "error");
    const message = outcome.error ?? "";
    return spanMessage(
      this.#passSecrets.size === 0
        ? message
        : redactText(
            message,
            [...this.#passSecrets].sort((a, b) => b.length - a.length),
          ),
    );
  }

  #close(seq: number, open: OpenCall): void {
    this.#open.delete(seq);
    open.span.end();
  }
}

/** The status message of a failure when the call's inputs are not recorded: its kind, never its text. */
export function notRecorded(kind: string): string {
  return `${kind} (message not recorded: the AI SDK call does not record inputs)`;
}
