/**
 * The retry of a `-32042` answer, over one runtime: the call that pauses gives a retry id (the elicitation's id);
 * a retry with it before the decision waits, then asks again with the same id; once decided, every retry with it
 * returns the result (retries at once included) and runs nothing. A call without the id is a new run, and an id
 * that names nothing this caller may read runs nothing either.
 */
import { UrlElicitationRequiredError } from "@modelcontextprotocol/server";
import { jsonSchema, tool } from "ai";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { connector } from "../../src/connectors/connector.js";
import { retryForLink, runForLink } from "../../src/mcp/link-retry.js";
import { tempFolder } from "../support/temp-folder.js";

/** Notes first (no approval), then buys (approval): a second run shows as a second note. */
const CODE = 'async () => { await shop.note({ text: "tea" }); return shop.buy({ item: "tea" }); }';

function setUp({ maxExecutions }: { maxExecutions?: number } = {}) {
  const effects: string[] = [];
  const shop = connector({
    note: tool({
      inputSchema: jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } } }),
      execute: async ({ text }) => void effects.push(`note ${text}`),
    }),
    buy: tool({
      inputSchema: jsonSchema<{ item: string }>({ type: "object", properties: { item: { type: "string" } } }),
      needsApproval: true,
      execute: async ({ item }) => {
        effects.push(`buy ${item}`);
        return `bought ${item}`;
      },
    }),
  });
  const runtime = createCodemodeRuntime({
    connectors: { shop },
    store: `file:${join(tempFolder("codemode-link-retry-"), "codemode.db")}`,
    ...(maxExecutions === undefined ? {} : { maxExecutions }),
  });
  onTestFinished(() => runtime.close());
  const settings = (scope: string, timeoutMs: number) => ({
    runtime,
    scope,
    links: { url: "https://app.example/codemode", secret: "x".repeat(32), ttlMs: 60_000 },
    hint: "Decide {id} in the inspector.",
    timeoutMs,
    signal: new AbortController().signal,
  });
  const call = (code = CODE, scope = "ada") => runForLink({ ...settings(scope, 50), code });
  const retry = (retryId: string, { timeoutMs = 50, code = CODE, scope = "ada" } = {}) =>
    retryForLink({ ...settings(scope, timeoutMs), code, retry: retryId });
  return { runtime, effects, call, retry };
}

async function linkRequired(call: Promise<unknown>): Promise<{ url: string; retryId: string; message: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UrlElicitationRequiredError);
  const [elicitation] = (error as UrlElicitationRequiredError).elicitations;
  return { url: elicitation!.url, retryId: elicitation!.elicitationId, message: (error as Error).message };
}

const executionOf = (retryId: string) => retryId.slice(0, retryId.lastIndexOf("."));

describe("a -32042 retry", () => {
  it("asks again with the same id until decided, then returns the result to every retry; nothing runs twice", async () => {
    const { runtime, effects, call, retry } = setUp();
    const first = await linkRequired(call());
    // The model reads the id in the message; the link stays out of it.
    expect(first.message).toContain(`"retry": ${JSON.stringify(first.retryId)}`);
    expect(first.message).not.toContain(first.url);
    const early = await linkRequired(retry(first.retryId));
    expect(early.retryId).toBe(first.retryId);
    expect(early.url).not.toBe(first.url);

    await runtime.approve({ executionId: executionOf(first.retryId), scope: "ada", decidedBy: "grace" });
    for (const _ of [0, 1])
      expect(await retry(first.retryId)).toMatchObject({
        kind: "output",
        output: { status: "completed", result: "bought tea" },
      });
    expect(await runtime.executions(10, { scope: "ada" })).toHaveLength(1);
    expect(effects).toEqual(["note tea", "buy tea"]);
  });

  it("retries at once, waiting before the decision and arriving after it, all return the result; none runs", async () => {
    const { runtime, effects, call, retry } = setUp();
    const { retryId } = await linkRequired(call());
    const waiting = [retry(retryId, { timeoutMs: 60_000 }), retry(retryId, { timeoutMs: 60_000 })];
    await runtime.approve({ executionId: executionOf(retryId), scope: "ada" });
    const all = await Promise.all([...waiting, retry(retryId), retry(retryId)]);
    for (const outcome of all) expect(outcome).toMatchObject({ output: { status: "completed", result: "bought tea" } });
    expect(await runtime.executions(10, { scope: "ada" })).toHaveLength(1);
    expect(effects).toEqual(["note tea", "buy tea"]);
  });

  it("the same program without the id is a new execution (another conversation), with its own id", async () => {
    const { runtime, effects, call, retry } = setUp();
    const one = await linkRequired(call());
    const two = await linkRequired(call());
    expect(executionOf(two.retryId)).not.toBe(executionOf(one.retryId));
    await runtime.approve({ executionId: executionOf(one.retryId), scope: "ada" });
    await runtime.reject({ executionId: executionOf(two.retryId), scope: "ada" });
    expect(await retry(one.retryId)).toMatchObject({ output: { status: "completed" } });
    expect(await retry(two.retryId)).toMatchObject({ kind: "state", view: { status: "rejected" } });
    expect(effects).toEqual(["note tea", "note tea", "buy tea"]);
  });

  it("after 55 other runs of the owner (maxExecutions 50) the retry still returns the approved result", async () => {
    const { runtime, effects, call, retry } = setUp({ maxExecutions: 50 });
    const { retryId } = await linkRequired(call());
    await runtime.approve({ executionId: executionOf(retryId), scope: "ada" });
    for (let index = 0; index < 55; index += 1) await runtime.execute({ code: `async () => ${index}`, scope: "ada" });
    expect(await retry(retryId)).toMatchObject({ output: { status: "completed", result: "bought tea" } });
    expect(effects).toEqual(["note tea", "buy tea"]);
  });

  it("an id of another owner, another program, a tampered nonce or no id at all runs nothing", async () => {
    const { runtime, effects, call, retry } = setUp();
    const { retryId } = await linkRequired(call());
    const executionId = executionOf(retryId);
    const refusals = [
      await retry(retryId, { scope: "bob" }),
      await retry(retryId, { code: 'async () => shop.buy({ item: "gold" })' }),
      await retry(`${executionId}.${"A".repeat(22)}`),
      // The execution id alone (the model sees it in paused results) is no retry id.
      await retry(executionId),
      await retry("nonsense"),
    ];
    for (const refused of refusals) expect(refused).toMatchObject({ kind: "refused", message: /Nothing ran/ });
    expect(refusals[1]).toMatchObject({ message: /another program/ });
    expect(await runtime.executions(10)).toHaveLength(1);
    expect(effects).toEqual(["note tea"]);
  });

  it("waits for a decision made while it waits", async () => {
    const { runtime, call, retry } = setUp();
    const { retryId } = await linkRequired(call());
    const waiting = retry(retryId, { timeoutMs: 60_000 });
    await runtime.approve({ executionId: executionOf(retryId), scope: "ada" });
    expect(await waiting).toMatchObject({ kind: "output", output: { status: "completed" } });
  });
});
