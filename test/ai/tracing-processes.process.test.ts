/**
 * One execution, one trace, across processes: the first pass runs in this process inside `streamText` with
 * `@ai-sdk/otel` and pauses; another `node` process, with its own tracer provider, approves it. Its pass span has
 * the trace id of the first, the AI SDK's tool-call span (in this process) as parent, and links to the first pass
 * and to the request span that approved it.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isStepCount, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { sharedExecutor } from "../runtime/runtime-fixture.js";
import { tempFolder } from "../support/temp-folder.js";
import { childrenOf, installTracing, spanNamed } from "../support/tracing.js";
import { BUY_PROGRAM, tracedShop } from "./fixtures/traced-shop.js";
import { scriptedModel } from "./support/scripted-model.js";

const tracing = installTracing();
const APPROVER = fileURLToPath(new URL("./fixtures/traced-approver.ts", import.meta.url));
const run = promisify(execFile);

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string; "codemode.link"?: string }>;
}

describe("a pause in one process and an approval in another", () => {
  it("give two pass spans in one trace, linked", async () => {
    const store = `file:${join(tempFolder("codemode-trace-processes-"), "codemode.db")}`;
    const runtime = createCodemodeRuntime({ connectors: { shop: tracedShop }, store, executor: sharedExecutor() });
    const result = streamText({
      model: scriptedModel((_prompt, index) => (index === 0 ? { code: BUY_PROGRAM } : { text: "waiting" })),
      tools: { codemode: runtime.tool() },
      prompt: "buy a lamp",
      stopWhen: isStepCount(2),
    });
    await result.consumeStream();
    const paused = (await result.toolResults)[0]?.output as CodemodeOutput;
    expect(paused.status).toBe("paused");
    await runtime.close();
    const spans = tracing.spans();
    const tool = spanNamed(spans, "execute_tool codemode");
    const first = spanNamed(spans, "codemode pass 1");

    const { stdout } = await run(process.execPath, ["--import", "tsx", APPROVER], {
      env: { ...process.env, DB_URL: store, EXECUTION_ID: paused.executionId },
      timeout: 60_000,
    });
    const approver = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as {
      pid: number;
      output: CodemodeOutput;
      spans: ExportedSpan[];
    };
    expect(approver.pid).not.toBe(process.pid);
    expect(approver.output).toMatchObject({ status: "completed", result: { charged: 40 } });
    const second = approver.spans.find((span) => span.name === "codemode pass 2");
    const request = approver.spans.find((span) => span.name === "POST /approve");
    expect(second).toBeDefined();
    expect(second?.traceId).toBe(first.spanContext().traceId);
    expect(second?.parentSpanId).toBe(tool.spanContext().spanId);
    expect(second?.attributes).toMatchObject({
      "codemode.execution.id": paused.executionId,
      "codemode.pass.number": 2,
      "codemode.pass.status": "completed",
    });
    expect(second?.links).toEqual([
      { traceId: first.spanContext().traceId, spanId: first.spanContext().spanId, "codemode.link": "first pass" },
      { traceId: request?.traceId, spanId: request?.spanId, "codemode.link": "resumed by" },
    ]);
    expect(request?.links.map((link) => link.spanId)).toEqual([second?.spanId]);
    const calls = approver.spans.filter((span) => span.parentSpanId === second?.spanId);
    expect(calls.map((span) => [span.name, span.attributes["codemode.call.replayed"]])).toEqual([
      ["execute_tool shop.quote", true],
      ["execute_tool shop.charge", false],
    ]);
    expect(calls[1]?.attributes).toMatchObject({ "codemode.call.approved": true });
    // The first process's view: the paused pass and its calls under the tool span.
    expect(childrenOf(spans, first).map((span) => span.name)).toEqual([
      "execute_tool shop.quote",
      "execute_tool shop.charge",
    ]);
  });
});
