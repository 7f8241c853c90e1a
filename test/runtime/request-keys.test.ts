/**
 * Issue 23 item 4: a misspelt key in a per-call request or options object is refused with the closest known
 * name, the way construction options are, and nothing happens: `execute({ code, scpoe })` used to start an
 * execution that belonged to nobody (every scope-less view saw it). Methods that return outcomes resolve with a
 * `validation` value; the reads throw `CodemodeArgumentError`. (The lists are derived from the signatures: see
 * `src/runtime/request-keys.ts`; `tool()` and the `ai-codemode/ui` helpers are in `test/ai/ui/option-keys.test.ts`.)
 */
import { beforeEach, describe, expect, it } from "vitest";
import { CodemodeArgumentError } from "../../src/errors.js";
import type { DurableRuntime } from "../../src/runtime/durable-runtime.js";
import type { CodemodeOutput } from "../../src/runtime/types.js";
import { createMockConnector, type MockConnector } from "../../src/test/index.js";
import { testRuntime } from "./runtime-fixture.js";

type Loose = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** Expects a `validation` value whose message names `typo` and suggests `known`. */
function refusesKey(output: unknown, typo: string, known: string): void {
  expect(output).toMatchObject({ status: "error", kind: "validation" });
  expect((output as { error: string }).error).toContain(`"${typo}" is not a known option (did you mean "${known}"?)`);
}

describe("per-call requests and options with a misspelt key", () => {
  let bank: MockConnector;
  let runtime: DurableRuntime;
  let loose: Loose;
  let paused: CodemodeOutput;

  beforeEach(async () => {
    bank = createMockConnector("bank", { methods: { transfer: { needsApproval: true }, balance: {} } });
    runtime = testRuntime({ connectors: { bank } });
    loose = runtime as unknown as Loose;
    paused = await runtime.execute({ code: "async () => bank.transfer({ amount: 5 })", scope: "alice" });
    expect(paused).toMatchObject({ status: "paused" });
  });

  it("execute({ code, scpoe }) starts nothing and says scope", async () => {
    refusesKey(await loose["execute"]!({ code: "async () => bank.balance({})", scpoe: "alice" }), "scpoe", "scope");
    refusesKey(
      await loose["execute"]!({ code: "1", scope: "alice" }, { toolCallID: "t1" }),
      "toolCallID",
      "toolCallId",
    );
    refusesKey(await loose["execute"]!({ code: "1" }, { abortSingal: undefined }), "abortSingal", "abortSignal");
    expect(await loose["execute"]!({ code: "1" }, null)).toMatchObject({ kind: "validation" });
    expect(bank.ledger.count("bank.balance")).toBe(0);
    // Only the paused execution exists: nothing was started for "nobody".
    expect((await runtime.executions()).map((summary) => summary.executionId)).toEqual([paused.executionId]);
  });

  it("execute({ cod }) names the typo rather than asking for { code }", async () => {
    refusesKey(await loose["execute"]!({ cod: "async () => bank.balance({})" }), "cod", "code");
    expect(bank.ledger.count("bank.balance")).toBe(0);
  });

  it("approve, reject, rollback and decide refuse the typo and change nothing", async () => {
    const { executionId } = paused;
    refusesKey(await loose["approve"]!({ executionId, sqe: 1 }), "sqe", "seq");
    refusesKey(await loose["approve"]!({ executionId, scpoe: "alice" }), "scpoe", "scope");
    refusesKey(
      await loose["approve"]!({ executionId, scope: "alice" }, { onProgres: () => undefined }),
      "onProgres",
      "onProgress",
    );
    refusesKey(await loose["reject"]!({ executionId, scope: "alice", reasn: "no" }), "reasn", "reason");
    refusesKey(await loose["rollback"]!({ executionId, scpoe: "alice" }), "scpoe", "scope");
    refusesKey(
      await loose["decide"]!({ executionId, scope: "alice", decisons: [{ seq: 1, approved: true }] }),
      "decisons",
      "decisions",
    );
    refusesKey(
      await loose["decide"]!({ executionId, scope: "alice", decisions: [{ seq: 1, aproved: true }] }),
      "aproved",
      "approved",
    );
    refusesKey(
      await loose["decide"]!(
        { executionId, scope: "alice", decisions: [{ seq: 1, approved: true }] },
        { tooCallId: "x" },
      ),
      "tooCallId",
      "toolCallId",
    );
    refusesKey(await loose["saveSnippet"]!("copy", { executionID: executionId }), "executionID", "executionId");
    expect(bank.ledger.count("bank.transfer")).toBe(0);
    expect(await runtime.execution(executionId)).toMatchObject({ status: "paused" });
    expect(await runtime.snippets()).toEqual([]);
    // Spelt right, the same requests work.
    expect(await runtime.approve({ executionId, seq: 1, scope: "alice" })).toMatchObject({ status: "completed" });
  });

  it.each([
    ["execution", (r: Loose, id: string) => r["execution"]!(id, { scpoe: "alice" }), "execution(…, options)", "scope"],
    ["pending", (r: Loose, id: string) => r["pending"]!(id, { scpoe: "alice" }), "pending(…, options)", "scope"],
    ["executions", (r: Loose) => r["executions"]!(10, { scpoe: "alice" }), "executions(…, options)", "scope"],
    ["expirePaused", (r: Loose) => r["expirePaused"]!({ maxAgeMS: 5 }), "expirePaused(options)", "maxAgeMs"],
    ["search", (r: Loose) => r["search"]!("bank", { limt: 3 }), "search(query, options)", "limit"],
  ])("%s throws CodemodeArgumentError naming the closest key", async (_name, call, argument, known) => {
    const error = await call(loose, paused.executionId).catch((thrown: unknown) => thrown);
    expect(CodemodeArgumentError.isInstance(error)).toBe(true);
    expect((error as CodemodeArgumentError).argument).toBe(argument);
    expect((error as Error).message).toContain(`(did you mean "${known}"?)`);
  });

  it("a hostile key is quoted and cut in the message", async () => {
    const key = "k".repeat(100_000);
    const output = await loose["execute"]!({ code: "1", [key]: 1 });
    expect(output).toMatchObject({ kind: "validation" });
    expect((output as { error: string }).error.length).toBeLessThan(1_000);
  });
});
