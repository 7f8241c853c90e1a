/**
 * Tracing through the AI SDK, as an app sets it up: the async-hooks context manager, a tracer provider exporting
 * to memory and `@ai-sdk/otel` registered, around `streamText` with `MockLanguageModelV4`. The codemode pass and
 * every nested call are spans under the AI SDK's tool-call span; a resumed pass joins the same trace; inputs and
 * outputs follow the call's telemetry settings; credentials never appear.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { trace } from "@opentelemetry/api";
import { isStepCount, streamText, type TelemetryOptions } from "ai";
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntimeOptions } from "../../src/ai/create-codemode-runtime.js";
import { openApiConnector } from "../../src/connectors/openapi/openapi-connector.js";
import type { Connector } from "../../src/connectors/types.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { TRACER_NAME } from "../../src/runtime/tracing/runtime-tracing.js";
import { memoryClient, sharedExecutor } from "../runtime/runtime-fixture.js";
import { childrenOf, everythingRecorded, installTracing, spanNamed, spanTree } from "../support/tracing.js";
import { scriptedModel } from "./support/scripted-model.js";

const tracing = installTracing();

const shop: Connector = {
  methods: {
    quote: { execute: (args) => ({ item: (args as { item: string }).item, price: 40 }) },
    charge: { needsApproval: true, execute: (args) => ({ charged: (args as { amount: number }).amount }) },
    decline: {
      execute: () => {
        throw new TypeError("card declined");
      },
    },
  },
};

function runtimeWith(options: CodemodeRuntimeOptions = {}) {
  return createCodemodeRuntime({ connectors: { shop }, store: memoryClient(), executor: sharedExecutor(), ...options });
}

/** One `streamText` turn in which the model runs `code` with the codemode tool; its output. */
async function chat(
  runtime: ReturnType<typeof runtimeWith>,
  code: string,
  telemetry?: TelemetryOptions,
): Promise<CodemodeOutput> {
  const model = scriptedModel((_prompt, index) => (index === 0 ? { code } : { text: "done" }));
  const result = streamText({
    model,
    tools: { codemode: runtime.tool() },
    prompt: "go",
    stopWhen: isStepCount(2),
    ...(telemetry === undefined ? {} : { telemetry }),
  });
  await result.consumeStream();
  const [first] = await result.toolResults;
  return first?.output as CodemodeOutput;
}

const ours = (spans: readonly ReadableSpan[]) => spans.filter((span) => span.instrumentationScope.name === TRACER_NAME);

const PURCHASE = `async () => {
  const quote = await shop.quote({ item: "lamp" });
  const total = await codemode.step("total", async () => quote.price * 2);
  await codemode.search("charge a card");
  await codemode.describe("shop.charge");
  try { await shop.decline({ amount: total }); } catch {}
  return total;
}`;

describe("spans under the AI SDK's tool-call span", () => {
  it("one pass span, and a child span per call, step, search and describe, in order, with their attributes", async () => {
    const runtime = runtimeWith();
    const output = await chat(runtime, PURCHASE);
    expect(output).toMatchObject({ status: "completed", result: 80 });
    const spans = tracing.spans();
    const tool = spanNamed(spans, "execute_tool codemode");
    const [pass, ...others] = childrenOf(spans, tool);
    expect(others, spanTree(spans)).toEqual([]);
    expect(pass?.name).toBe("codemode pass 1");
    expect(pass?.spanContext().traceId).toBe(tool.spanContext().traceId);
    expect(pass?.attributes).toMatchObject({
      "codemode.execution.id": output.executionId,
      "codemode.runtime.name": "default",
      "codemode.pass.number": 1,
      "codemode.pass.status": "completed",
    });
    const calls = childrenOf(spans, pass!);
    expect(calls.map((span) => span.name)).toEqual([
      "execute_tool shop.quote",
      "codemode.step",
      "execute_tool codemode.search",
      "execute_tool codemode.describe",
      "execute_tool shop.decline",
    ]);
    const [quote, step, search, describe_, decline] = calls;
    expect(quote?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "shop.quote",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": `${output.executionId}:1`,
      "codemode.connector": "shop",
      "codemode.method": "quote",
      "codemode.call.seq": 1,
      "codemode.call.replayed": false,
      "gen_ai.tool.call.arguments": '{"item":"lamp"}',
      "gen_ai.tool.call.result": '{"item":"lamp","price":40}',
    });
    expect(step?.attributes).toMatchObject({
      "codemode.call.seq": 2,
      "codemode.step.name": "total",
      "codemode.call.replayed": false,
      "gen_ai.tool.call.result": "80",
    });
    expect(search?.attributes).toMatchObject({
      "gen_ai.tool.name": "codemode.search",
      "gen_ai.tool.call.arguments": '"charge a card"',
    });
    expect(search?.attributes["gen_ai.tool.call.result"]).toContain("shop.charge");
    expect(describe_?.attributes["gen_ai.tool.call.result"]).toContain("charge");
    expect(decline?.attributes).toMatchObject({ "codemode.call.seq": 3, "codemode.method": "decline" });
    // Spans of a sequential program do not overlap: each started after the previous one ended. The SDK anchors
    // each span's clock to Date.now() when it starts (millisecond steps), so adjacent spans may seem to overlap by
    // up to a millisecond: that much is allowed (seen failing by 0.2 ms on a loaded machine without it).
    const ANCHOR_TOLERANCE_NS = 1e6;
    for (let index = 1; index < calls.length; index += 1) {
      const previous = calls[index - 1]!.endTime;
      const start = calls[index]!.startTime;
      expect(start[0] * 1e9 + start[1] + ANCHOR_TOLERANCE_NS).toBeGreaterThanOrEqual(previous[0] * 1e9 + previous[1]);
    }
    await runtime.close();
  });

  it("a failed call's span has error status and type; a failed pass's span has its failure kind", async () => {
    const runtime = runtimeWith();
    await chat(runtime, PURCHASE);
    const decline = spanNamed(tracing.spans(), "execute_tool shop.decline");
    expect(decline.status).toEqual({ code: 2, message: "card declined" });
    expect(decline.attributes["error.type"]).toBe("TypeError");
    expect(spanNamed(tracing.spans(), "codemode pass 1").status.code).toBe(0);

    tracing.exporter.reset();
    const failed = await chat(runtime, `async () => { await shop.decline({}); }`);
    expect(failed).toMatchObject({ status: "error", kind: "exception" });
    const pass = spanNamed(tracing.spans(), "codemode pass 1");
    expect(pass.status.code).toBe(2);
    expect(pass.status.message).toContain("card declined");
    expect(pass.attributes).toMatchObject({
      "codemode.pass.status": "error",
      "codemode.failure.kind": "exception",
      "error.type": "exception",
    });
    await runtime.close();
  });

  it("nests the same way on the default worker-thread executor", async () => {
    const executor = new QuickJSExecutor();
    const runtime = runtimeWith({ executor });
    await chat(runtime, `async () => Promise.all([shop.quote({ item: "a" }), shop.quote({ item: "b" })])`);
    const spans = tracing.spans();
    const pass = spanNamed(spans, "codemode pass 1");
    expect(pass.parentSpanContext?.spanId).toBe(spanNamed(spans, "execute_tool codemode").spanContext().spanId);
    expect(childrenOf(spans, pass).map((span) => span.attributes["codemode.call.seq"])).toEqual([1, 2]);
    await runtime.close();
    await executor.dispose();
  });

  it("a connector's own spans nest under its call's span", async () => {
    const tracer = trace.getTracer("a-connector");
    const traced: Connector = {
      methods: {
        lookup: {
          execute: () =>
            tracer.startActiveSpan("GET /customers/7", (span) => {
              span.end();
              return { id: 7 };
            }),
        },
      },
    };
    const runtime = runtimeWith({ connectors: { crm: traced } });
    await chat(runtime, "async () => crm.lookup({})");
    const spans = tracing.spans();
    const inner = spanNamed(spans, "GET /customers/7");
    expect(inner.parentSpanContext?.spanId).toBe(spanNamed(spans, "execute_tool crm.lookup").spanContext().spanId);
    await runtime.close();
  });
});

describe("the active context", () => {
  it("is the call's span only inside the connector: progress listeners keep the caller's", async () => {
    const tracer = trace.getTracer("app");
    const runtime = runtimeWith();
    await tracer.startActiveSpan("POST /chat", async (request) => {
      await runtime.execute(
        { code: `async () => shop.quote({ item: "lamp" })` },
        { onProgress: () => tracer.startSpan("write progress chunk").end() },
      );
      request.end();
    });
    const spans = tracing.spans();
    const request = spanNamed(spans, "POST /chat");
    const writes = spans.filter((span) => span.name === "write progress chunk");
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes) expect(write.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(spanNamed(spans, "codemode pass 1").parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    await runtime.close();
  });
});

describe("across a pause", () => {
  const BUY = `async () => {
    const quote = await shop.quote({ item: "lamp" });
    return shop.charge({ amount: quote.price });
  }`;

  it("the resumed pass joins the trace under the same tool span, linked to the first pass; replays are marked", async () => {
    const runtime = runtimeWith();
    const paused = await chat(runtime, BUY);
    expect(paused.status).toBe("paused");
    // Another invocation (an approval request with its own span) resumes it.
    const approved = await trace
      .getTracer("app")
      .startActiveSpan("POST /approve", (span) =>
        runtime.approve({ executionId: paused.executionId }).finally(() => span.end()),
      );
    expect(approved).toMatchObject({ status: "completed", result: { charged: 40 } });

    const spans = tracing.spans();
    const tool = spanNamed(spans, "execute_tool codemode");
    const first = spanNamed(spans, "codemode pass 1");
    const second = spanNamed(spans, "codemode pass 2");
    expect(childrenOf(spans, tool).map((span) => span.name)).toEqual(["codemode pass 1", "codemode pass 2"]);
    expect(second.spanContext().traceId).toBe(first.spanContext().traceId);
    expect(second.attributes).toMatchObject({ "codemode.pass.number": 2, "codemode.pass.status": "completed" });
    const request = spanNamed(spans, "POST /approve");
    expect(second.links.map((link) => [link.context.spanId, link.attributes?.["codemode.link"]])).toEqual([
      [first.spanContext().spanId, "first pass"],
      [request.spanContext().spanId, "resumed by"],
    ]);
    // The request that approved links to the pass it resumed.
    expect(request.links.map((link) => link.context.spanId)).toEqual([second.spanContext().spanId]);

    expect(first.attributes["codemode.pass.status"]).toBe("paused");
    expect(first.events.map((event) => [event.name, event.attributes])).toEqual([
      ["codemode.pause", { "codemode.pending.seqs": [2], "codemode.pending.calls": ["shop.charge"] }],
    ]);
    expect(second.events.map((event) => [event.name, event.attributes])).toEqual([
      ["codemode.approval", { "codemode.call.seqs": [2] }],
    ]);
    const [pausedQuote, pausedCharge] = childrenOf(spans, first);
    expect(pausedQuote?.attributes["codemode.call.replayed"]).toBe(false);
    expect(pausedCharge?.attributes).toMatchObject({ "codemode.method": "charge", "codemode.call.pending": true });
    expect(pausedCharge?.status.code).toBe(0);
    const [replayedQuote, approvedCharge] = childrenOf(spans, second);
    expect(replayedQuote?.attributes).toMatchObject({
      "codemode.method": "quote",
      "codemode.call.replayed": true,
      "gen_ai.tool.call.result": '{"item":"lamp","price":40}',
    });
    expect(approvedCharge?.attributes).toMatchObject({
      "codemode.method": "charge",
      "codemode.call.replayed": false,
      "codemode.call.approved": true,
      "gen_ai.tool.call.result": '{"charged":40}',
    });
    await runtime.close();
  });

  it("decisions, a rejection and a rollback are events and spans of the execution's trace", async () => {
    const undo: Connector = {
      methods: {
        send: { needsApproval: true, execute: () => "sent", revert: () => undefined },
        log: { execute: () => "logged", revert: () => undefined },
      },
    };
    const runtime = runtimeWith({ connectors: { mail: undo } });
    const paused = await chat(
      runtime,
      `async () => { await mail.log({}); const r = await Promise.allSettled([mail.send({ to: 1 }), mail.send({ to: 2 })]); return r.map((x) => x.status); }`,
    );
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 2 }, { seq: 3 }] });
    const decided = await runtime.decide({
      executionId: paused.executionId,
      decisions: [
        { seq: 2, approved: true },
        { seq: 3, approved: false },
      ],
    });
    expect(decided).toMatchObject({ status: "completed", result: ["fulfilled", "rejected"] });
    await runtime.rollback({ executionId: paused.executionId });

    const spans = tracing.spans();
    const tool = spanNamed(spans, "execute_tool codemode");
    expect(childrenOf(spans, tool).map((span) => span.name)).toEqual([
      "codemode pass 1",
      "codemode pass 2",
      "codemode rollback",
    ]);
    const second = spanNamed(spans, "codemode pass 2");
    expect(second.events.map((event) => [event.name, event.attributes])).toEqual([
      ["codemode.approval", { "codemode.call.seqs": [2] }],
      ["codemode.rejection", { "codemode.call.seqs": [3] }],
    ]);
    const rejectedSend = childrenOf(spans, second).find((span) => span.attributes["codemode.call.seq"] === 3);
    expect(rejectedSend?.status).toMatchObject({ code: 2, message: expect.stringMatching(/^Rejected by a human/) });
    const rollback = spanNamed(spans, "codemode rollback");
    expect(rollback.attributes).toMatchObject({ "codemode.rollback.reverted": [2, 1] });
    expect(rollback.events.map((event) => event.name)).toEqual(["codemode.rollback"]);
    expect(rollback.links[0]?.context.spanId).toBe(spanNamed(spans, "codemode pass 1").spanContext().spanId);

    tracing.exporter.reset();
    const again = await chat(runtime, `async () => mail.send({ to: 3 })`);
    await runtime.reject({ executionId: again.executionId, reason: "not now" });
    const reject = spanNamed(tracing.spans(), "codemode reject");
    expect(reject.parentSpanContext?.spanId).toBe(
      spanNamed(tracing.spans(), "execute_tool codemode").spanContext().spanId,
    );
    expect(reject.events.map((event) => [event.name, event.attributes])).toEqual([
      ["codemode.rejection", { "codemode.call.seqs": [1] }],
    ]);
    await runtime.close();
  });

  it("a program that waits for approval before it runs: the pause is an event on the tool span, the pass joins it", async () => {
    const runtime = runtimeWith({ approveProgram: true });
    const paused = await chat(runtime, `async () => shop.quote({ item: "lamp" })`);
    expect(paused.status).toBe("paused");
    expect(spanNamed(tracing.spans(), "execute_tool codemode").events.map((event) => event.name)).toContain(
      "codemode.pause",
    );
    await runtime.approve({ executionId: paused.executionId });
    const spans = tracing.spans();
    const pass = spanNamed(spans, "codemode pass 1");
    expect(pass.parentSpanContext?.spanId).toBe(spanNamed(spans, "execute_tool codemode").spanContext().spanId);
    expect(pass.events.map((event) => [event.name, event.attributes])).toEqual([
      ["codemode.approval", { "codemode.call.seqs": [0] }],
    ]);
    await runtime.close();
  });
});

describe("what is recorded", () => {
  const withValues = (spans: readonly ReadableSpan[], key: string) =>
    ours(spans)
      .filter((span) => span.attributes[key] !== undefined)
      .map((span) => span.name);

  it("arguments and results by default (the AI SDK records inputs and outputs unless told not to)", async () => {
    const runtime = runtimeWith();
    await chat(runtime, PURCHASE);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.arguments")).toEqual([
      "execute_tool shop.quote",
      "execute_tool codemode.search",
      "execute_tool codemode.describe",
      "execute_tool shop.decline",
    ]);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.result")).toHaveLength(4);
    await runtime.close();
  });

  it("no arguments when recordInputs is false, no results when recordOutputs is false", async () => {
    const runtime = runtimeWith();
    await chat(runtime, PURCHASE, { recordInputs: false });
    expect(withValues(tracing.spans(), "gen_ai.tool.call.arguments")).toEqual([]);
    expect(withValues(tracing.spans(), "codemode.step.name")).toEqual([]);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.result")).toHaveLength(4);

    tracing.exporter.reset();
    await chat(runtime, PURCHASE, { recordOutputs: false });
    expect(withValues(tracing.spans(), "gen_ai.tool.call.result")).toEqual([]);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.arguments")).toHaveLength(4);
    // The structure is there either way.
    expect(ours(tracing.spans()).map((span) => span.name)).toContain("execute_tool shop.quote");
    await runtime.close();
  });

  it("a pass resumed in another invocation records no more than the call that started the execution allowed", async () => {
    const runtime = runtimeWith();
    const paused = await chat(
      runtime,
      `async () => shop.charge({ amount: (await shop.quote({ item: "lamp" })).price })`,
      { recordInputs: false, recordOutputs: false },
    );
    await runtime.approve({ executionId: paused.executionId });
    const second = spanNamed(tracing.spans(), "codemode pass 2");
    expect(childrenOf(tracing.spans(), second)).toHaveLength(2);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.arguments")).toEqual([]);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.result")).toEqual([]);
    await runtime.close();
  });

  it("nothing of the values outside an AI SDK call, or when its telemetry is disabled", async () => {
    const runtime = runtimeWith();
    await runtime.execute({ code: PURCHASE });
    await chat(runtime, PURCHASE, { isEnabled: false });
    expect(ours(tracing.spans()).filter((span) => span.name === "codemode pass 1")).toHaveLength(2);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.arguments")).toEqual([]);
    expect(withValues(tracing.spans(), "gen_ai.tool.call.result")).toEqual([]);
    await runtime.close();
  });

  it("tracing: false: no span of ours at all (the AI SDK's own are unchanged)", async () => {
    const runtime = runtimeWith({ tracing: false });
    await chat(runtime, PURCHASE);
    expect(ours(tracing.spans())).toEqual([]);
    expect(tracing.spans().map((span) => span.name)).toContain("execute_tool codemode");
    await runtime.close();
  });
});

describe("secrets", () => {
  const HOST_TOKEN = "host-credential-0123456789";
  const PROGRAM_TOKEN = "program-token-9876543210";
  const COOKIE = "session-cookie-abcdefghij";
  const spec = {
    openapi: "3.1.0",
    info: { title: "Echo", version: "1" },
    servers: [{ url: "https://echo.example.com" }],
    paths: {
      "/whoami": { get: { operationId: "whoami", responses: { "200": { description: "ok" } } } },
      "/fail": { get: { operationId: "fail", responses: { "200": { description: "ok" } } } },
    },
  };
  // A server that echoes the credentials it was sent, in a body and in an error, and sets a cookie.
  const echo = async (input: URL | string, init: RequestInit): Promise<Response> => {
    const headers = new Headers(init.headers);
    const seen = `${headers.get("authorization")} ${headers.get("x-api-key")}`;
    if (String(input).endsWith("/fail")) return new Response(`denied for ${seen}`, { status: 500 });
    return new Response(JSON.stringify({ seen }), {
      headers: { "content-type": "application/json", "set-cookie": `sid=${COOKIE}` },
    });
  };

  it("never appear in any span, whatever is recorded", async () => {
    const runtime = runtimeWith({
      connectors: {
        echo: await openApiConnector({ spec, headers: { authorization: `Bearer ${HOST_TOKEN}` }, fetch: echo }),
      },
      outbound: { fetch: echo },
    });
    const output = await chat(
      runtime,
      `async () => {
        const me = await echo.whoami({});
        try { await echo.fail({}); } catch {}
        const response = await fetch("https://echo.example.com/x?api_key=${PROGRAM_TOKEN}", {
          headers: { authorization: "Bearer ${PROGRAM_TOKEN}", "x-api-key": "${PROGRAM_TOKEN}" },
        });
        return { me, status: response.status };
      }`,
    );
    expect(output, JSON.stringify(output)).toMatchObject({ status: "completed" });
    const spans = tracing.spans();
    const recorded = everythingRecorded(spans);
    // The host's credential: nowhere, not even in the AI SDK's spans (the program never saw it).
    expect(recorded).not.toContain(HOST_TOKEN);
    expect(recorded).toContain("[redacted]");
    // The program's own headers and the server's cookie: masked in every span of ours.
    const fetchSpan = spanNamed(spans, "execute_tool fetch");
    expect(fetchSpan.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.address": "echo.example.com",
      "http.response.status_code": 200,
    });
    const oursRecorded = everythingRecorded(ours(spans));
    expect(oursRecorded).toContain("gen_ai.tool.call.arguments");
    expect(oursRecorded).not.toContain(PROGRAM_TOKEN);
    expect(oursRecorded).not.toContain(COOKIE);
    expect(spanNamed(spans, "execute_tool echo.fail").status.message).toContain("[redacted]");
    await runtime.close();
  });
});
