import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createCodemodeRuntime } from "./src/ai/create-codemode-runtime.js";
import { LocalSqliteClient } from "./src/runtime/store/local-sqlite-client.js";
import { QuickJSExecutor } from "./src/sandbox/quickjs-executor.js";
import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
const on = process.env.ON === "1";
const exporter = new InMemorySpanExporter();
if (on) {
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
}
const executor = new QuickJSExecutor({ isolation: "in-process" });
const client = new LocalSqliteClient(join(mkdtempSync(join(tmpdir(), "p4-")), "j.db"), { timeout: 10000 });
const runtime = createCodemodeRuntime({ store: client as any, executor, connectors: { svc: { methods: { inc: { execute: (a: any) => a.i + 1 } } } }, maxExecutions: 1000 });
const PROGRAM = `async () => { let sum = 0; for (let i = 0; i < 1000; i++) sum += await svc.inc({ i }); return sum; }`;
for (let i = 0; i < 12; i++) {
  exporter.reset();
  const c0 = process.cpuUsage();
  await trace.getTracer("b").startActiveSpan("root", async (s) => { await runtime.execute({ code: PROGRAM }); s.end(); });
  const c = process.cpuUsage(c0);
  if (i >= 4) console.log(((c.user + c.system) / 1000).toFixed(1), "ms cpu");
}
process.exit(0);
