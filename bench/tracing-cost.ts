/**
 * Part of the journal suite: what tracing costs a 1,000-call execution on a file database, side by side —
 * `tracing: false`; the default (`true`) with no tracer provider registered (what every app without
 * OpenTelemetry runs: the API is not even imported); `tracing: false` in an app that registered OpenTelemetry
 * (what its context manager costs every promise, spans or not); and with a provider exporting to memory
 * (`BasicTracerProvider` + `SimpleSpanProcessor` + `InMemorySpanExporter`, the async-hooks context manager),
 * spans only, then with arguments and results recorded (the program run inside an AI SDK `executeTool` tracing
 * context whose telemetry records inputs and outputs, as `streamText` with `@ai-sdk/otel` gives it).
 * Rows are measured in turns (one run of each per sample), median of 9; cost per call against `tracing: false`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tracingChannel } from "node:diagnostics_channel";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { context, trace, type TracerProvider } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Client } from "@libsql/client";
import { AI_TELEMETRY_CHANNEL } from "../src/ai/ai-telemetry-recording.js";
import { createCodemodeRuntime } from "../src/ai/create-codemode-runtime.js";
import type { Connector } from "../src/connectors/types.js";
import { LocalSqliteClient } from "../src/runtime/store/connection/local-sqlite-client.js";
import { QuickJSExecutor } from "../src/sandbox/quickjs-executor.js";
import { collectGarbage } from "./gc.js";

const CALLS = 1_000;
const SAMPLES = 9;
const PROGRAM = `async () => { let sum = 0; for (let i = 0; i < ${CALLS}; i++) sum += await svc.inc({ i }); return sum; }`;

const svc: Connector = { methods: { inc: { execute: (args) => (args as { i: number }).i + 1 } } };

interface Row {
  label: string;
  tracing: boolean;
  provider: boolean;
  values: boolean;
}

const ROWS: Row[] = [
  { label: "`tracing: false`", tracing: false, provider: false, values: false },
  { label: "`tracing: true` (default), no tracer provider registered", tracing: true, provider: false, values: false },
  {
    label: "`tracing: false`, the app's OpenTelemetry registered (its context manager's own cost)",
    tracing: false,
    provider: true,
    values: false,
  },
  { label: "`tracing: true`, in-memory exporter: spans", tracing: true, provider: true, values: false },
  {
    label: "`tracing: true`, in-memory exporter: spans with arguments and results",
    tracing: true,
    provider: true,
    values: true,
  },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The tracing rows of the journal suite, as markdown. */
export async function tracingCostSection(): Promise<string> {
  const exporter = new InMemorySpanExporter();
  const provider: TracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // Registered while the runtimes are made, so the tool layer reads the AI SDK's settings (as in an app).
  trace.setGlobalTracerProvider(provider);
  const executor = new QuickJSExecutor({ isolation: "in-process" });
  const folder = mkdtempSync(join(tmpdir(), "codemode-bench-tracing-"));
  const aiTelemetry = tracingChannel(AI_TELEMETRY_CHANNEL);
  const setups = ROWS.map((row, index) => {
    const client = new LocalSqliteClient(join(folder, `journal-${index}.db`), { timeout: 10_000 });
    const runtime = createCodemodeRuntime({
      store: client as unknown as Client,
      executor,
      connectors: { svc },
      maxExecutions: 1_000,
      tracing: row.tracing,
    });
    return { row, runtime, client, times: [] as number[], cpu: [] as number[], spans: 0 };
  });
  /** Runs the program once with `setup`: wall time and CPU time of this process (user + system), in ms. */
  const once = async (setup: (typeof setups)[number]): Promise<{ wall: number; cpu: number }> => {
    // Without a provider, no context manager either: an app that does not trace.
    trace.disable();
    context.disable();
    if (setup.row.provider) {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      trace.setGlobalTracerProvider(provider);
    }
    exporter.reset();
    const execute = () => setup.runtime.execute({ code: PROGRAM });
    const traced = () =>
      setup.row.values
        ? aiTelemetry.tracePromise(execute, { type: "executeTool", event: { recordInputs: true, recordOutputs: true } })
        : execute();
    collectGarbage();
    const cpuAtStart = process.cpuUsage();
    const started = performance.now();
    const output = setup.row.provider
      ? await trace
          .getTracer("bench")
          .startActiveSpan("execute_tool codemode", (span) => traced().finally(() => span.end()))
      : await traced();
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuAtStart);
    if (output.status !== "completed") throw new Error(JSON.stringify(output));
    setup.spans = exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === "ai-codemode").length;
    return { wall, cpu: (cpu.user + cpu.system) / 1000 };
  };
  for (const setup of setups) await once(setup);
  // Each sample starts at another row, so no row always runs right after the same one.
  for (let sample = 0; sample < SAMPLES; sample++) {
    for (let turn = 0; turn < setups.length; turn++) {
      const setup = setups[(sample + turn) % setups.length] as (typeof setups)[number];
      const { wall, cpu } = await once(setup);
      setup.times.push(wall);
      setup.cpu.push(cpu);
    }
  }
  for (const { runtime, client } of setups) {
    await runtime.close();
    client.close();
  }
  await executor.dispose();
  trace.disable();
  context.disable();
  rmSync(folder, { recursive: true, force: true });
  const base = median(setups[0]?.times ?? []);
  const baseCpu = median(setups[0]?.cpu ?? []);
  const perCall = (ms: number) => ((ms / CALLS) * 1000).toFixed(1);
  const rows = setups.map(({ row, times, cpu, spans }) => {
    const time = median(times);
    const cpuTime = median(cpu);
    return `| ${row.label} | ${spans.toLocaleString("en-US")} | ${time.toFixed(1)} | ${(time / base).toFixed(2)}x | ${cpuTime.toFixed(1)} | ${perCall(cpuTime - baseCpu)} |`;
  });
  return [
    `Tracing, side by side: the same ${CALLS.toLocaleString("en-US")}-call program on the in-process executor and the embedded driver (a fresh \`file:\` database per row), median of ${SAMPLES}, rows measured in turns (each sample starting at another row). Without a provider there is no context manager either (an app that does not trace); with one the program runs under an active span (as under the AI SDK's tool-call span); the last row inside an AI SDK \`executeTool\` tracing context whose telemetry records inputs and outputs. Spans: those of ai-codemode per execution (one pass + one per call). The cost per call is taken from the process's CPU time (user + system), which the other work on a shared machine moves far less than the wall time.`,
    "",
    "| tracing | spans | execution, wall (ms) | ratio | CPU time (ms) | cost per call vs `tracing: false`, CPU (µs) |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
  ].join("\n");
}
