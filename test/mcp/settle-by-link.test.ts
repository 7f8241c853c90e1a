/**
 * The retry of a `-32042` answer, over one runtime: the first call pauses and asks for the link; a retry before the
 * decision waits, then asks again with a new link; once decided, one retry returns the result and claims the
 * execution, so that a second retry at once, or the same program later, is a new run and never the old result.
 */
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, tool } from "ai";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { connector } from "../../src/connectors/connector.js";
import { runtimeInternals } from "../../src/runtime/runtime-internals.js";
import { runWithLinkRetry } from "../../src/mcp/settle-by-link.js";
import { tempFolder } from "../support/temp-folder.js";

const CODE = 'async () => shop.buy({ item: "tea" })';

function setUp() {
  const bought: string[] = [];
  const shop = connector({
    buy: tool({
      inputSchema: jsonSchema<{ item: string }>({ type: "object", properties: { item: { type: "string" } } }),
      needsApproval: true,
      execute: async ({ item }) => {
        bought.push(item);
        return `bought ${item}`;
      },
    }),
  });
  const runtime = createCodemodeRuntime({
    connectors: { shop },
    store: `file:${join(tempFolder("codemode-link-retry-"), "codemode.db")}`,
  });
  onTestFinished(() => runtime.close());
  const internals = runtimeInternals(runtime);
  if (internals === undefined) throw new Error("the runtime has no internals");
  const call = (timeoutMs = 50) =>
    runWithLinkRetry({
      runtime,
      scope: "ada",
      links: { url: "https://app.example/codemode", secret: "x".repeat(32), ttlMs: 60_000 },
      hint: "Decide {id} in the inspector.",
      timeoutMs,
      signal: new AbortController().signal,
      code: CODE,
      internals,
    });
  return { runtime, bought, call };
}

async function linkOf(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UrlElicitationRequiredError);
  return (error as UrlElicitationRequiredError).elicitations[0]!.url;
}

describe("a -32042 retry", () => {
  it("asks again with a new link until decided, then returns the result once; the same program later runs anew", async () => {
    const { runtime, bought, call } = setUp();
    const first = await linkOf(call());
    const early = await linkOf(call());
    expect(early).not.toBe(first);
    expect(await runtime.executions(10, { scope: "ada" })).toHaveLength(1);

    const [paused] = await runtime.executions(1, { scope: "ada" });
    await runtime.approve({ executionId: paused!.executionId, scope: "ada", decidedBy: "grace" });
    const retried = await call();
    expect(retried).toMatchObject({ kind: "output", output: { status: "completed", result: "bought tea" } });

    await linkOf(call());
    expect(await runtime.executions(10, { scope: "ada" })).toHaveLength(2);
    expect(bought).toEqual(["tea"]);
  });

  it("of two retries at once, one returns the result; the other is a new run that pauses", async () => {
    const { runtime, bought, call } = setUp();
    await linkOf(call());
    const [paused] = await runtime.executions(1, { scope: "ada" });
    await runtime.approve({ executionId: paused!.executionId, scope: "ada" });
    const both = await Promise.allSettled([call(), call()]);
    const returned = both.filter((settled) => settled.status === "fulfilled");
    expect(returned).toHaveLength(1);
    expect(both.filter((settled) => settled.status === "rejected")).toHaveLength(1);
    expect(bought).toEqual(["tea"]);
  });

  it("waits for a decision made while it waits", async () => {
    const { runtime, call } = setUp();
    await linkOf(call());
    const [paused] = await runtime.executions(1, { scope: "ada" });
    const waiting = call(30_000);
    await runtime.approve({ executionId: paused!.executionId, scope: "ada" });
    expect(await waiting).toMatchObject({ kind: "output", output: { status: "completed" } });
  });
});
