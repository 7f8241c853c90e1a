/**
 * The spans of a pass on the runtime alone (no AI SDK): steps a pause interrupted, spans the program left open,
 * failures that end the pass, divergence on resume, and a trace the sampler dropped.
 */
import { trace } from "@opentelemetry/api";
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import type { Connector } from "../../../src/connectors/types.js";
import { createDurableRuntime } from "../../../src/runtime/durable-runtime.js";
import type { DurableRuntimeOptions } from "../../../src/runtime/durable-runtime-options.js";
import { memoryClient, sharedExecutor } from "../runtime-fixture.js";
import { childrenOf, installTracing, spanNamed } from "../../support/tracing.js";

const tracing = installTracing({ aiSdk: false });

const svc: Connector = {
  methods: {
    read: { execute: (args) => ({ echo: args }) },
    big: { execute: () => "x".repeat(1_100_000) },
    send: { needsApproval: true, execute: () => "sent" },
  },
};

function runtimeWith(options: DurableRuntimeOptions = {}) {
  return createDurableRuntime({ connectors: { svc }, store: memoryClient(), executor: sharedExecutor(), ...options });
}

/** Runs `work` under an active span, as under the AI SDK's tool-call span. */
function underRequest<T>(work: () => Promise<T>): Promise<T> {
  return trace.getTracer("app").startActiveSpan("request", (span) => work().finally(() => span.end()));
}

describe("pass spans", () => {
  it("a step a pause interrupted is marked so; on the resumed pass it runs again and its calls replay", async () => {
    const runtime = runtimeWith();
    const code = `async () => codemode.step("ship", async () => { await svc.read({ n: 1 }); return svc.send({}); })`;
    const paused = await underRequest(() => runtime.execute({ code }));
    expect(paused.status).toBe("paused");
    const first = spanNamed(tracing.spans(), "codemode pass 1");
    const [step] = childrenOf(tracing.spans(), first).filter((span) => span.name === "codemode.step");
    expect(step?.attributes).toMatchObject({ "codemode.call.seq": 1, "codemode.step.interrupted": true });

    await runtime.approve({ executionId: paused.executionId });
    const second = spanNamed(tracing.spans(), "codemode pass 2");
    expect(
      childrenOf(tracing.spans(), second).map((span) => [span.name, span.attributes["codemode.call.replayed"]]),
    ).toEqual([
      ["codemode.step", false],
      ["execute_tool svc.read", true],
      ["execute_tool svc.send", false],
    ]);
    await runtime.close();
  });

  it("a span the program left open is ended with the pass and marked unfinished", async () => {
    const runtime = runtimeWith();
    const output = await underRequest(() =>
      runtime.execute({ code: `async () => { codemode.step("forever", () => new Promise(() => {})); return 1; }` }),
    );
    expect(output).toMatchObject({ status: "completed", result: 1 });
    const step = spanNamed(tracing.spans(), "codemode.step");
    expect(step.attributes["codemode.call.unfinished"]).toBe(true);
    expect(step.parentSpanContext?.spanId).toBe(spanNamed(tracing.spans(), "codemode pass 1").spanContext().spanId);
    await runtime.close();
  });

  it("a call that ends the pass has the failure kind as error.type; so has the pass", async () => {
    const runtime = runtimeWith();
    const output = await underRequest(() => runtime.execute({ code: `async () => svc.big({})` }));
    expect(output).toMatchObject({ status: "error", kind: "limit" });
    const big = spanNamed(tracing.spans(), "execute_tool svc.big");
    expect(big.status.code).toBe(2);
    expect(big.attributes["error.type"]).toBe("limit");
    expect(spanNamed(tracing.spans(), "codemode pass 1").attributes).toMatchObject({
      "codemode.failure.kind": "limit",
      "codemode.pass.status": "error",
    });
    await runtime.close();
  });

  it("a resumed pass that diverges: its span says divergence", async () => {
    let now = 0;
    const runtime = runtimeWith({
      connectors: {
        svc: { methods: { ...svc.methods, clock: { replay: "reexecute", execute: () => ++now } } },
      },
    });
    // The clock runs again on every pass, so the resumed pass reads at another time than the first.
    const code = `async () => { const at = await svc.clock({}); await svc.read({ at }); return svc.send({}); }`;
    const paused = await underRequest(() => runtime.execute({ code }));
    expect(paused.status).toBe("paused");
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({ kind: "divergence" });
    const second = spanNamed(tracing.spans(), "codemode pass 2");
    expect(second.attributes).toMatchObject({ "codemode.pass.status": "error", "codemode.failure.kind": "divergence" });
    const read = childrenOf(tracing.spans(), second).find((span) => span.name === "execute_tool svc.read");
    expect(read?.attributes["error.type"]).toBe("divergence");
    await runtime.close();
  });

  it("a trace the sampler drops stays dropped when the execution resumes (the sampling flag is stored)", async () => {
    const sampled = (sampler?: Sampler) =>
      new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(tracing.exporter)],
        ...(sampler ? { sampler } : {}),
      });
    trace.disable();
    // Roots are dropped, children follow their parent, a remote parent included.
    trace.setGlobalTracerProvider(sampled(new ParentBasedSampler({ root: new AlwaysOffSampler() })));
    try {
      const runtime = runtimeWith();
      const paused = await underRequest(() => runtime.execute({ code: `async () => svc.send(await svc.read({}))` }));
      expect(paused.status).toBe("paused");
      // Resumed outside any span: only the stored context's sampling flag decides (stored 01, this would record).
      expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({ status: "completed" });
      expect(tracing.spans().map((span) => span.name)).toEqual([]);
      await runtime.close();
    } finally {
      trace.disable();
      trace.setGlobalTracerProvider(sampled());
    }
  });
});
