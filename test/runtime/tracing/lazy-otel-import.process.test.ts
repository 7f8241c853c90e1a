/**
 * `@opentelemetry/api` is an optional peer: the built package imports it only to ask whether a tracer provider is
 * registered (never with `tracing: false`), starts spans only when one is, and runs as before when it is not
 * installed. Observed on the built package in fresh processes with
 * a module resolve hook that logs what the package resolves (and can pretend the API is not installed).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let folder = "";
const DIST = pathToFileURL(resolve("dist")).href;

const HOOKS = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const fromPackage = (context.parentURL ?? "").startsWith(${JSON.stringify(DIST)});
  if (fromPackage) appendFileSync(process.env.RESOLVE_LOG, specifier + "\\n");
  if (fromPackage && specifier === "@opentelemetry/api" && process.env.OTEL_MISSING === "1") {
    throw Object.assign(new Error("Cannot find package '@opentelemetry/api'"), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}
`;

/** Runs `setup`, then one program through `createCodemodeRuntime`; the package's bare imports and the output. */
function run(setup: string, env: Record<string, string> = {}, tracing = true): { resolved: string[]; output: unknown } {
  const log = join(folder, `resolved-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(log, "");
  const entry = pathToFileURL(resolve("dist/index.js")).href;
  const program = `${setup}
    const { createCodemodeRuntime, QuickJSExecutor } = await import(${JSON.stringify(entry)});
    const executor = new QuickJSExecutor({ isolation: "in-process" });
    const runtime = createCodemodeRuntime({
      store: ":memory:",
      executor,
      tracing: ${tracing},
      connectors: { svc: { methods: { add: { execute: ({ a, b }) => a + b } } } },
    });
    const output = await runtime.execute({ code: "async () => svc.add({ a: 1, b: 2 })" });
    await runtime.close();
    await executor.dispose();
    console.log(JSON.stringify({ output, spans: globalThis.finishedSpans?.() }));`;
  const stdout = execFileSync(
    process.execPath,
    ["--import", pathToFileURL(join(folder, "register.mjs")).href, "--input-type=module", "-e", program],
    { env: { ...process.env, RESOLVE_LOG: log, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const resolved = readFileSync(log, "utf8")
    .split("\n")
    .filter((specifier) => specifier !== "" && !/^[./]|^file:|^node:/.test(specifier));
  return { resolved, output: JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") };
}

/** A real tracer provider (the test's own import of the API is not the package's). */
const PROVIDER = `
  const { trace } = await import("@opentelemetry/api");
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  globalThis.finishedSpans = () => exporter.getFinishedSpans().map((span) => span.name);
`;

describe("@opentelemetry/api is loaded only when it can be used", () => {
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "codemode-otel-import-"));
    writeFileSync(join(folder, "hooks.mjs"), HOOKS);
    writeFileSync(
      join(folder, "register.mjs"),
      `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(join(folder, "hooks.mjs")).href)});`,
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("with tracing off, a run never imports it", () => {
    const { resolved, output } = run(PROVIDER, {}, false);
    expect(output).toMatchObject({ output: { status: "completed", result: 3 }, spans: [] });
    expect(resolved).toContain("quickjs-emscripten-core");
    expect(resolved).not.toContain("@opentelemetry/api");
  });

  it("without a registered tracer provider, a run imports the API alone to ask it, and records nothing", () => {
    const { resolved, output } = run("globalThis.finishedSpans = () => [];");
    expect(output).toMatchObject({ output: { status: "completed", result: 3 }, spans: [] });
    expect(resolved.filter((specifier) => specifier.startsWith("@opentelemetry/"))).toEqual(["@opentelemetry/api"]);
  });

  it("without a registered tracer provider and without the API installed: runs as before", () => {
    const { resolved, output } = run("", { OTEL_MISSING: "1" });
    expect(output).toMatchObject({ output: { status: "completed", result: 3 } });
    expect(resolved).toContain("@opentelemetry/api");
  });

  it("with one, the first pass imports it and records spans", () => {
    const { resolved, output } = run(PROVIDER);
    expect(resolved).toContain("@opentelemetry/api");
    expect(output).toMatchObject({
      output: { status: "completed", result: 3 },
      spans: ["execute_tool svc.add", "codemode pass 1"],
    });
  });

  it("a provider registered by another copy of the API while this package cannot import one: runs as before", () => {
    const { resolved, output } = run(PROVIDER, { OTEL_MISSING: "1" });
    expect(resolved).toContain("@opentelemetry/api");
    expect(output).toMatchObject({ output: { status: "completed", result: 3 }, spans: [] });
  });
});
