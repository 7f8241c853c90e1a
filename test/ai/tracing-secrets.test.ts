/**
 * What a telemetry backend can never read, through the AI SDK as an app sets it up (`@ai-sdk/otel`, an in-memory
 * exporter): the credentials a program's outbound `fetch` carries (URL userinfo, query values under any name,
 * headers in every shape), and, when the AI SDK call does not record inputs, any argument value — not in an
 * attribute, an event or a status message of any span. Every span is read whole (`everythingRecorded`). The
 * programs build their secrets at run time from reversed text, so the code itself (which the AI SDK records as the
 * tool's input) never holds them.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { isStepCount, streamText, type TelemetryOptions } from "ai";
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime, type CodemodeRuntimeOptions } from "../../src/ai/create-codemode-runtime.js";
import type { Connector } from "../../src/connectors/types.js";
import { TRACER_NAME } from "../../src/runtime/tracing/runtime-tracing.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { HOST_NAMESPACE } from "../../src/shared/host-namespace.js";
import { memoryClient, sharedExecutor } from "../runtime/runtime-fixture.js";
import { everythingRecorded, installTracing, spanNamed, spanTree } from "../support/tracing.js";
import { scriptedModel } from "./support/scripted-model.js";

const tracing = installTracing();

function runtimeWith(options: CodemodeRuntimeOptions) {
  return createCodemodeRuntime({ store: memoryClient(), executor: sharedExecutor(), ...options });
}

async function chat(runtime: ReturnType<typeof runtimeWith>, code: string, telemetry: TelemetryOptions) {
  const model = scriptedModel((_prompt, index) => (index === 0 ? { code } : { text: "done" }));
  const result = streamText({
    model,
    tools: { codemode: runtime.tool() },
    prompt: "go",
    stopWhen: isStepCount(2),
    telemetry,
  });
  await result.consumeStream();
  const [first] = await result.toolResults;
  return first?.output as CodemodeOutput;
}

const ours = (spans: readonly ReadableSpan[]) => spans.filter((span) => span.instrumentationScope.name === TRACER_NAME);
const reversed = (text: string) => [...text].reverse().join("");
/** A program expression that evaluates to `secret` without the code containing it. */
const hidden = (secret: string) => `[...${JSON.stringify(reversed(secret))}].reverse().join("")`;

describe("outbound fetch credentials", () => {
  const USER = "alice-user-0001";
  const PASSWORD = "hunter2-pass-0002";
  const SIG = "sig-value-3003abc";
  const JWT = "eyJhbGciOi.jwt-4004";
  const CODE = "oauth-code-5005xyz";
  const FRAGMENT = "access-token-6006";
  const PAIR_HEADER = "pair-header-7007";
  const MAP_HEADER = "map-header-8008";
  const RAW_HEADER = "raw-header-9009";
  const SECRETS = [USER, PASSWORD, SIG, JWT, CODE, FRAGMENT, PAIR_HEADER, MAP_HEADER, RAW_HEADER];

  // A server that echoes the URL and headers it was sent: a secret redacted in the arguments must not come back
  // through the result.
  const echo = async (input: string, init: RequestInit): Promise<Response> =>
    Response.json({ url: input, headers: init.headers });

  const program = `async () => {
    const user = ${hidden(USER)}, password = ${hidden(PASSWORD)};
    try { await fetch("https://" + user + ":" + password + "@echo.example.com/a"); } catch {}
    const query = "?sig=" + ${hidden(SIG)} + "&jwt=" + ${hidden(JWT)} + "&code=" + ${hidden(CODE)} + "&page=2";
    await fetch("https://echo.example.com/b" + query + "#" + ${hidden(FRAGMENT)});
    await fetch("https://echo.example.com/c", { headers: [["X-Sig", ${hidden(PAIR_HEADER)}], ["accept", "text/plain"]] });
    await fetch("https://echo.example.com/d", { headers: new Map([["x-custom", ${hidden(MAP_HEADER)}]]) });
    // The host function behind fetch, called directly with a shape the prelude would have converted.
    try {
      await globalThis.${HOST_NAMESPACE}.fetch({ url: "https://echo.example.com/e", method: "GET", headers: [["x-raw", ${hidden(RAW_HEADER)}]] });
    } catch {}
    return "done";
  }`;

  it("never reach a span: userinfo removed, query values and headers redacted in every shape", async () => {
    const runtime = runtimeWith({ outbound: { fetch: echo, traceParams: ["page"] } });
    const output = await chat(runtime, program, { recordInputs: true, recordOutputs: true });
    expect(output, JSON.stringify(output)).toMatchObject({ status: "completed", result: "done" });
    // Every span of ours. (The AI SDK's own tool-call span records the codemode tool's whole output when outputs
    // are recorded, and that output's progress lists each call's arguments as the program made them.)
    const spans = ours(tracing.spans());
    const recorded = everythingRecorded(spans);
    for (const secret of SECRETS) expect(recorded, `${secret} in ${spanTree(spans)}`).not.toContain(secret);
    const fetches = spans.filter((span) => span.name === "execute_tool fetch");
    expect(fetches).toHaveLength(5);
    const argumentsOf = fetches.map((span) => String(span.attributes["gen_ai.tool.call.arguments"]));
    // The refused request is recorded without its userinfo; the allowlisted parameter and harmless header stay.
    expect(argumentsOf[0]).toContain('"url":"https://echo.example.com/a"');
    expect(argumentsOf[1]).toContain("sig=[redacted]&jwt=[redacted]&code=[redacted]&page=2#[redacted]");
    expect(argumentsOf[2]).toContain('"x-sig":"[redacted]","accept":"text/plain"');
    expect(argumentsOf[3]).toContain('"x-custom":"[redacted]"');
    expect(argumentsOf[4]).toContain('[["x-raw","[redacted]"]]');
    expect(String(fetches[1]?.attributes["gen_ai.tool.call.result"])).toContain("&page=2#[redacted]");
    await runtime.close();
  });

  it("without the allowlist, every query value is redacted", async () => {
    const runtime = runtimeWith({ outbound: { fetch: echo } });
    await chat(runtime, program, { recordInputs: true, recordOutputs: true });
    const fetches = tracing.spans().filter((span) => span.name === "execute_tool fetch");
    expect(String(fetches[1]?.attributes["gen_ai.tool.call.arguments"])).toContain("&page=[redacted]#");
    await runtime.close();
  });

  it("outbound.traceParams must be a list of names", () => {
    expect(() => runtimeWith({ outbound: { fetch: echo, traceParams: "page" as never } })).toThrow(
      /outbound\.traceParams must be an array/,
    );
  });
});

describe("recordInputs: false", () => {
  const SSN = "SSN-123-45-6789";
  const accounts: Connector = {
    methods: {
      lookup: {
        inputSchema: { type: "object", properties: { ssn: { type: "number" } }, required: ["ssn"] },
        execute: () => ({ found: false }),
      },
      find: {
        execute: (args) => {
          throw new Error(`no account for ${(args as { ssn: string }).ssn}`);
        },
      },
      close: {
        execute: () => ({ closed: true }),
        revert: (args) => {
          throw new Error(`cannot reopen ${(args as { ssn: string }).ssn}`);
        },
      },
    },
  };
  const program = (last: string) => `async () => {
    const ssn = ${hidden(SSN)};
    try { await accounts.lookup({ ssn }); } catch {}
    try { await accounts.find({ ssn }); } catch {}
    try { await codemode.step("check", async () => { throw new Error("bad " + ssn); }); } catch {}
    await codemode.search(ssn);
    await accounts.close({ ssn });
    ${last}
  }`;

  it("no argument value in any span (attributes, events, statuses), whatever the program does", async () => {
    const runtime = runtimeWith({ connectors: { accounts } });
    const output = await chat(runtime, program("await accounts.find({ ssn });"), {
      recordInputs: false,
      recordOutputs: false,
    });
    expect(output).toMatchObject({ status: "error", kind: "exception" });
    const rolledBack = await runtime.rollback({ executionId: output.executionId });
    expect(rolledBack.status).not.toBe("rolled_back");
    const spans = tracing.spans();
    expect(everythingRecorded(spans), spanTree(spans)).not.toContain(SSN);
    // The failures are still there: their kind, not their text.
    const find = spans.filter((span) => span.name === "execute_tool accounts.find");
    expect(find[0]?.status).toMatchObject({ code: 2, message: expect.stringContaining("message not recorded") });
    expect(spanNamed(spans, "codemode pass 1").attributes["codemode.failure.kind"]).toBe("exception");
    await runtime.close();
  });

  it("with outputs recorded, still no argument value in a span of ours", async () => {
    const runtime = runtimeWith({ connectors: { accounts } });
    const output = await chat(runtime, program("return 1;"), { recordInputs: false, recordOutputs: true });
    expect(output).toMatchObject({ status: "completed" });
    const spans = ours(tracing.spans());
    expect(spans.length).toBeGreaterThan(5);
    expect(everythingRecorded(spans), spanTree(spans)).not.toContain(SSN);
    await runtime.close();
  });
});
