/**
 * The rules every journaled call follows (`src/runtime/pass/journaled-call.ts`), tested on the unit itself
 * over the in-memory journal store (`test/support/memory-journal-store.ts`, held to the libSQL store's contract
 * by `test/runtime/journal/journal-store.test.ts`): numbering, refusal after a fatal failure or a pause, divergence, the guarded
 * insert and its lost-lease conflict, recording success (with the journal limit) and failure.
 */
import { resolveModules } from "../../../src/runtime/runtime-modules.js";
import { CallBudget } from "../../../src/runtime/pass/call-budget.js";
import { describe, expect, it } from "vitest";
import * as journal from "../../../src/runtime/pass/journaled-call.js";
import { PassContext } from "../../../src/runtime/pass/pass-context.js";
import type { CallJournalRecord } from "../../../src/runtime/journal/records.js";
import { serializeValue } from "../../../src/sandbox/codec.js";
import { createMemoryJournalStore } from "../../support/memory-journal-store.js";
import { sharedExecutor } from "../runtime-fixture.js";

const NOW = Date.UTC(2026, 0, 1);

async function openPass({
  calls = [],
  leaseToken = "lease-1",
}: {
  calls?: CallJournalRecord[];
  leaseToken?: string;
} = {}) {
  const store = createMemoryJournalStore({ runtime: "unit" });
  await store.startExecution({
    executionId: "exec-1",
    code: "1",
    connectors: [],
    now: NOW,
    leaseToken: "lease-1",
    leaseUntil: NOW + 60_000,
    prune: { keepPerOwner: 10, endedBefore: NOW, expiredBefore: undefined, limit: 8 },
  });
  const execution = {
    runtime: "unit",
    executionId: "exec-1",
    status: "running" as const,
    code: "1",
    connectors: [],
    createdAt: NOW,
    updatedAt: NOW,
    passes: 1,
    logs: [],
  };
  const pass = new PassContext({
    deps: {
      store,
      executor: sharedExecutor(),
      connectors: {},
      namespaces: {},
      outbound: undefined,
      hooks: { connectors: {}, hookTimeoutMs: 1000 },
      snippets: [],
      modules: resolveModules(undefined),
      now: () => NOW,
      leaseMs: 60_000,
      inflightGraceMs: 1000,
      search: () => [],
      describe: () => ({}),
    },
    execution,
    calls,
    leaseToken,
    options: {},
    budget: new CallBudget({ maxCalls: 1_000, methodCalls: {} }, []),
  });
  return { pass, store };
}

function identity(pass: PassContext, args: unknown, method = "send"): journal.CallIdentity {
  return { connector: "mail", method, args, argsText: journal.journalArguments(pass, args, "the arguments") };
}

function recordedRow(seq: number, overrides: Partial<CallJournalRecord> = {}): CallJournalRecord {
  return {
    seq,
    connector: "mail",
    method: "send",
    argsText: serializeValue({ to: "a" }),
    status: "applied",
    resultText: serializeValue(7),
    replay: "record",
    needsApproval: false,
    replayedCount: 0,
    ...overrides,
  };
}

/** Who the calls are, for the tracer (these passes are not traced). */
const CALL = { connector: "svc", method: "op" };

describe("journaledCall", () => {
  it("numbers calls synchronously in call order and refuses every call after a fatal failure", async () => {
    const { pass } = await openPass();
    const seen: number[] = [];
    const first = journal.journaledCall(pass, CALL, undefined, async (seq) => seen.push(seq));
    const second = journal.journaledCall(pass, CALL, undefined, async (seq) => seen.push(seq));
    await Promise.all([first, second]);
    expect(seen).toEqual([1, 2]);
    pass.failWith({ kind: "limit", error: "too big" });
    await expect(journal.journaledCall(pass, CALL, undefined, async () => "ran")).rejects.toThrow("too big");
    expect(pass.reached.has(3)).toBe(true);
  });

  it("refuses a call after a delivered pause, without running it", async () => {
    const { pass } = await openPass();
    pass.pauseMessage = "Paused: mail.send (call #1) needs human approval.";
    let ran = false;
    await expect(
      journal.journaledCall(pass, CALL, undefined, async () => {
        ran = true;
      }),
    ).rejects.toThrow(/Paused: mail.send/);
    expect(ran).toBe(false);
  });

  it("turns a store failure inside the call into a fatal `store` failure", async () => {
    const { pass, store } = await openPass();
    store.failWrites(new Error("disk I/O error"));
    await expect(
      journal.journaledCall(pass, CALL, undefined, (seq) =>
        journal.insertCall(pass, seq, identity(pass, {}), { status: "executing", needsApproval: false }),
      ),
    ).rejects.toThrow(/journal could not be written \(disk I\/O error\)/);
    expect(pass.fatal?.kind).toBe("store");
  });
});

describe("recordedCall", () => {
  it("returns the row recorded at the sequence number when the call is the same (arguments compared canonically)", async () => {
    const { pass } = await openPass({ calls: [recordedRow(1)] });
    const row = journal.recordedCall(pass, 1, identity(pass, { to: "a" }));
    expect(row?.seq).toBe(1);
    expect(journal.replayedResult(pass, row!)).toBe(7);
    expect(pass.replayed).toEqual([1]);
    expect(journal.recordedCall(pass, 2, identity(pass, { to: "a" }))).toBeUndefined();
  });

  it("ends the pass with `divergence` for another method or other arguments", async () => {
    const other = await openPass({ calls: [recordedRow(1)] });
    expect(() => journal.recordedCall(other.pass, 1, identity(other.pass, { to: "a" }, "delete"))).toThrow(
      /Replay diverged at call #1/,
    );
    expect(other.pass.fatal?.kind).toBe("divergence");
    const changed = await openPass({ calls: [recordedRow(1)] });
    expect(() => journal.recordedCall(changed.pass, 1, identity(changed.pass, { to: "b" }))).toThrow(
      /different arguments/,
    );
  });

  it("ends the pass with kind `store` for a corrupt recorded row", async () => {
    const { pass } = await openPass({ calls: [recordedRow(1, { argsText: "{not a codec value" })] });
    expect(() => journal.recordedCall(pass, 1, identity(pass, { to: "a" }))).toThrow(
      /journal row of call #1 is corrupt/,
    );
    expect(pass.fatal?.kind).toBe("store");
  });
});

describe("insertCall and recording", () => {
  it("inserts under the lease, then records success and failure", async () => {
    const { pass, store } = await openPass();
    await journal.insertCall(pass, 1, identity(pass, { to: "a" }), { status: "executing", needsApproval: false });
    journal.recordSuccess(pass, 1, { id: 9 }, "the result");
    await journal.insertCall(pass, 2, identity(pass, { to: "b" }), { status: "executing", needsApproval: false });
    journal.recordFailure(pass, 2, "smtp refused");
    await pass.journal.flush();
    const loaded = await store.load("exec-1");
    expect(loaded?.calls.map((call) => [call.seq, call.status, call.error ?? null])).toEqual([
      [1, "applied", null],
      [2, "error", "smtp refused"],
    ]);
  });

  it("a lost lease writes nothing and ends the pass with `conflict`", async () => {
    const { pass, store } = await openPass({ leaseToken: "someone-else" });
    await expect(
      journal.insertCall(pass, 1, identity(pass, {}), { status: "executing", needsApproval: false }),
    ).rejects.toThrow(/taken over by another invocation/);
    expect(pass.fatal?.kind).toBe("conflict");
    expect((await store.load("exec-1"))?.calls).toEqual([]);
  });

  it("a result over the journal limit records the call as failed and ends the pass with `limit`", async () => {
    const { pass, store } = await openPass();
    await journal.insertCall(pass, 1, identity(pass, {}), { status: "executing", needsApproval: false });
    expect(() => journal.recordSuccess(pass, 1, "x".repeat(1_000_001), "the result of mail.send")).toThrow(
      /over the journal's limit/,
    );
    expect(pass.fatal?.kind).toBe("limit");
    await pass.journal.flush();
    expect((await store.load("exec-1"))?.calls[0]?.status).toBe("error");
  });

  it("arguments over the journal limit end the pass with `limit` before anything is written", async () => {
    const { pass } = await openPass();
    expect(() => journal.journalArguments(pass, "x".repeat(1_000_001), "the arguments of mail.send")).toThrow(
      /over the journal's limit/,
    );
    expect(pass.fatal?.kind).toBe("limit");
  });
});
