/**
 * Approvals as multi-round-trip requests, over one runtime (the transport comes in the process tests): a call that
 * pauses asks with a form (or a link) and a signed state; the retry with the person's answer decides, journals
 * `decidedBy` and resumes; a retry whose calls were decided elsewhere (another retry, the CLI, a link) returns the
 * outcome and runs nothing; a state replayed, altered, expired, of another owner or program, or for calls no longer
 * pending decides nothing.
 */
import { jsonSchema, tool } from "ai";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { connector } from "../../src/connectors/connector.js";
import {
  APPROVAL_FORM_KEY,
  APPROVAL_LINK_KEY,
  type InputRequiredOutcome,
  retryForInputRequired,
  runForInputRequired,
} from "../../src/mcp/input-required-approvals.js";
import { tempFolder } from "../support/temp-folder.js";

/** Notes first (no approval), then buys (approval): a second run shows as a second note. */
const CODE = 'async () => { await shop.note({ text: "tea" }); return shop.buy({ item: "tea", card: "4111" }); }';
/** Buys twice: two pauses, one after the other. */
const TWICE =
  'async () => { await shop.buy({ item: "tea", card: "1" }); return shop.buy({ item: "cake", card: "2" }); }';

function setUp() {
  const effects: string[] = [];
  const shop = connector({
    note: tool({
      inputSchema: jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } } }),
      execute: async ({ text }) => void effects.push(`note ${text}`),
    }),
    buy: tool({
      inputSchema: jsonSchema<{ item: string; card: string }>({
        type: "object",
        properties: { item: { type: "string" }, card: { type: "string" } },
      }),
      needsApproval: true,
      execute: async ({ item }) => {
        effects.push(`buy ${item}`);
        return `bought ${item}`;
      },
    }),
  });
  const runtime = createCodemodeRuntime({
    connectors: { shop },
    store: `file:${join(tempFolder("codemode-input-required-"), "codemode.db")}`,
  });
  onTestFinished(() => runtime.close());
  let now = 1_000_000;
  const settings = ({ scope = "ada", links = false, form = true } = {}) => ({
    runtime,
    scope,
    secret: "k".repeat(32),
    ttlMs: 60_000,
    form,
    links: links ? { url: "https://app.example/codemode", secret: "k".repeat(32), ttlMs: 60_000 } : undefined,
    hint: "Decide {id} in the inspector.",
    timeoutMs: 100,
    decidedBy: `mcp:${scope}`,
    signal: new AbortController().signal,
    now: () => now,
  });
  const call = (code = CODE, options: Parameters<typeof settings>[0] = {}) =>
    runForInputRequired({ ...settings(options), code });
  const retry = (
    requestState: unknown,
    inputResponses: Record<string, unknown>,
    { code = CODE, ...options }: Parameters<typeof settings>[0] & { code?: string } = {},
  ) => retryForInputRequired({ ...settings(options), code, requestState, inputResponses });
  const advance = (ms: number) => {
    now += ms;
  };
  return { runtime, effects, call, retry, advance };
}

function asked(outcome: InputRequiredOutcome) {
  if (outcome.kind !== "input_required") throw new Error(`expected input_required, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const approve = (seq: number) => ({ action: "accept", content: { [`call_${seq}`]: "approve" } });

describe("approvals as multi-round-trip requests", () => {
  it("asks with the whole call and a state; the retry with the person's approval resumes once, decidedBy journaled", async () => {
    const { runtime, effects, call, retry } = setUp();
    const first = asked(await call());
    const form = first.inputRequests[APPROVAL_FORM_KEY];
    expect(form).toMatchObject({ method: "elicitation/create", params: { mode: "form" } });
    expect(form?.params["message"]).toContain('{"item":"tea","card":"4111"}');
    expect(first.requestState).not.toContain("4111");
    expect(first.inputRequests[APPROVAL_LINK_KEY]).toBeUndefined();
    const [execution] = await runtime.executions(10, { scope: "ada" });
    const seq = (await runtime.execution(execution!.executionId))!.pending[0]!.seq;

    const answer = { [APPROVAL_FORM_KEY]: approve(seq) };
    expect(await retry(first.requestState, answer)).toMatchObject({
      kind: "output",
      output: { status: "completed", result: "bought tea" },
    });
    // Replayed, the same state and answer return the outcome and run nothing.
    expect(await retry(first.requestState, answer)).toMatchObject({ output: { status: "completed" } });
    expect(effects).toEqual(["note tea", "buy tea"]);
    const detail = await runtime.execution(execution!.executionId);
    expect(detail?.calls.find((record) => record.seq === seq)).toMatchObject({ decidedBy: "mcp:ada" });
  });

  it("a retry after someone else decided (the CLI, a link) returns the outcome without running anything", async () => {
    const { runtime, effects, call, retry } = setUp();
    const first = asked(await call());
    const [execution] = await runtime.executions(10, { scope: "ada" });
    await runtime.approve({ executionId: execution!.executionId, scope: "ada", decidedBy: "grace" });
    const seq = (await runtime.execution(execution!.executionId))!.calls.at(-1)!.seq;
    // Even an answer rejecting it changes nothing now.
    const reject = { action: "accept", content: { [`call_${seq}`]: "reject" } };
    expect(await retry(first.requestState, { [APPROVAL_FORM_KEY]: reject })).toMatchObject({
      output: { status: "completed", result: "bought tea" },
    });
    expect(await retry(first.requestState, {})).toMatchObject({ output: { status: "completed" } });
    expect(effects).toEqual(["note tea", "buy tea"]);
    expect((await runtime.execution(execution!.executionId))!.calls.at(-1)).toMatchObject({ decidedBy: "grace" });
  });

  it("two retries answering at once: one resumes, both get the outcome, one effect", async () => {
    const { effects, call, retry, runtime } = setUp();
    const first = asked(await call());
    const [execution] = await runtime.executions(10, { scope: "ada" });
    const seq = (await runtime.execution(execution!.executionId))!.pending[0]!.seq;
    const answer = { [APPROVAL_FORM_KEY]: approve(seq) };
    const both = await Promise.all([retry(first.requestState, answer), retry(first.requestState, answer)]);
    for (const outcome of both) expect(outcome).toMatchObject({ output: { status: "completed" } });
    expect(effects).toEqual(["note tea", "buy tea"]);
  });

  it("a state altered, of another owner or program, or expired decides nothing", async () => {
    const { runtime, effects, call, retry, advance } = setUp();
    const first = asked(await call());
    const [execution] = await runtime.executions(10, { scope: "ada" });
    const seq = (await runtime.execution(execution!.executionId))!.pending[0]!.seq;
    const answer = { [APPROVAL_FORM_KEY]: approve(seq) };
    const flipped = `${first.requestState.slice(0, 12)}${first.requestState[12] === "A" ? "B" : "A"}${first.requestState.slice(13)}`;
    const refusals = [
      [await retry(flipped, answer), /forged or altered/],
      [await retry(`${first.requestState}x`, answer), /not one this server gave/],
      [await retry(undefined, answer), /not one this server gave/],
      [await retry(first.requestState, answer, { scope: "bob" }), /another user/],
      [await retry(first.requestState, answer, { code: `${CODE};` }), /another program/],
    ] as const;
    advance(60_000);
    const expired = await retry(first.requestState, answer);
    expect(expired).toMatchObject({
      message: expect.stringContaining(`Execution ${execution!.executionId} stays paused`),
    });
    for (const [outcome, message] of [...refusals, [expired, /expired/] as const])
      expect(outcome).toMatchObject({ kind: "refused", message: expect.stringMatching(message) });
    expect((await runtime.execution(execution!.executionId))?.status).toBe("paused");
    expect(effects).toEqual(["note tea"]);
  });

  it("a state moved to the next pause of its execution decides nothing there: that call is asked anew", async () => {
    const { runtime, effects, call, retry } = setUp();
    const first = asked(await call(TWICE));
    const [execution] = await runtime.executions(10, { scope: "ada" });
    const firstSeq = (await runtime.execution(execution!.executionId))!.pending[0]!.seq;
    const second = asked(await retry(first.requestState, { [APPROVAL_FORM_KEY]: approve(firstSeq) }, { code: TWICE }));
    const secondSeq = (await runtime.execution(execution!.executionId))!.pending[0]!.seq;
    expect(secondSeq).not.toBe(firstSeq);
    // The first state, with an approval of the second call, is no approval of it.
    const moved = asked(await retry(first.requestState, { [APPROVAL_FORM_KEY]: approve(secondSeq) }, { code: TWICE }));
    expect(moved.requestState).not.toBe(first.requestState);
    expect((await runtime.execution(execution!.executionId))?.status).toBe("paused");
    expect(effects).toEqual(["buy tea"]);
    expect(
      await retry(second.requestState, { [APPROVAL_FORM_KEY]: approve(secondSeq) }, { code: TWICE }),
    ).toMatchObject({
      output: { status: "completed", result: "bought cake" },
    });
    expect(effects).toEqual(["buy tea", "buy cake"]);
  });

  it("a declined form or link, or a retry without an answer, decides nothing", async () => {
    const { runtime, effects, call, retry } = setUp();
    const first = asked(await call());
    expect(await retry(first.requestState, { [APPROVAL_FORM_KEY]: { action: "decline" } })).toMatchObject({
      kind: "output",
      output: { status: "paused" },
      message: expect.stringMatching(/declined to decide: nothing was approved/),
    });
    expect(await retry(first.requestState, { [APPROVAL_LINK_KEY]: { action: "cancel" } })).toMatchObject({
      output: { status: "paused" },
      message: expect.stringMatching(/dismissed/),
    });
    // An "approve" without the whole answer (no choice for the call) is no approval either.
    expect(await retry(first.requestState, { [APPROVAL_FORM_KEY]: { action: "accept", content: {} } })).toMatchObject({
      output: { status: "paused" },
    });
    asked(await retry(first.requestState, {}));
    const [execution] = await runtime.executions(10, { scope: "ada" });
    expect((await runtime.execution(execution!.executionId))?.status).toBe("paused");
    expect(effects).toEqual(["note tea"]);
  });

  it("with links, asks with the signed link; the retry after the person approved there returns the outcome", async () => {
    const { runtime, effects, call, retry } = setUp();
    const first = asked(await call(CODE, { links: true }));
    const link = first.inputRequests[APPROVAL_LINK_KEY];
    expect(link).toMatchObject({
      params: { mode: "url", url: expect.stringMatching(/^https:\/\/app\.example\/codemode\/link\//) },
    });
    expect(link?.params).not.toHaveProperty("elicitationId");
    expect(first.inputRequests[APPROVAL_FORM_KEY]).toBeUndefined();
    const [execution] = await runtime.executions(10, { scope: "ada" });
    await runtime.approve({ executionId: execution!.executionId, scope: "ada", decidedBy: "link:ada" });
    expect(
      await retry(first.requestState, { [APPROVAL_LINK_KEY]: { action: "accept" } }, { links: true }),
    ).toMatchObject({
      output: { status: "completed", result: "bought tea" },
    });
    expect(effects).toEqual(["note tea", "buy tea"]);
  });

  it("a client that takes no elicitation is told how a person decides; nothing is asked", async () => {
    const { call } = setUp();
    expect(await call(CODE, { form: false })).toMatchObject({
      kind: "output",
      output: { status: "paused" },
      message: expect.stringMatching(/neither form nor URL elicitation/),
    });
  });
});
