/**
 * The `JournalStore` contract (`src/runtime/journal/journal-store.ts`), run on both implementations: the libSQL
 * store and the in-memory one the runtime's tests use (`test/support/memory-journal-store.ts`). Each story is told
 * to both and must leave the same records, so a test passing on the in-memory store says something of the real
 * one.
 */
import { describe, expect, it } from "vitest";
import type { JournalStore, PassEnd, StartExecution } from "../../../src/runtime/journal/journal-store.js";
import { createLibsqlJournalStore } from "../../../src/runtime/store/libsql-journal-store.js";
import type { SqlClient } from "../../../src/runtime/store/connection/sql-client.js";
import { createMemoryJournalStore } from "../../support/memory-journal-store.js";
import { memoryClient } from "../runtime-fixture.js";

const NOW = 1_000;

const STORES: Array<[string, () => JournalStore]> = [
  [
    "libSQL",
    () =>
      createLibsqlJournalStore({
        client: memoryClient() as unknown as SqlClient,
        runtime: "r",
        local: true,
        now: () => NOW,
        owned: true,
      }),
  ],
  ["in-memory", () => createMemoryJournalStore({ runtime: "r" })],
];

function start(executionId: string, overrides: Partial<StartExecution> = {}): StartExecution {
  return {
    executionId,
    code: "async () => 1",
    connectors: ["svc"],
    now: NOW,
    leaseToken: `lease-${executionId}`,
    leaseUntil: NOW + 60_000,
    prune: { keepPerOwner: 10, endedBefore: NOW, expiredBefore: undefined, limit: 8 },
    ...overrides,
  };
}

const call = (seq: number, now = NOW) => ({ seq, connector: "svc", method: "m", argsText: `{"n":${seq}}`, now });
const ended = (status: PassEnd["status"], now = NOW + 5): PassEnd => ({ status, logs: ["a line"], now });

/** Every story of this file, told to `store`: what each verb returned, and the records it left. */
async function story(store: JournalStore) {
  const seen: Record<string, unknown> = {};
  // A pass with effects, reads, a re-executed call, a failed call and a replayed one; then it completes.
  await store.startExecution(start("e1", { scope: "alice", toolCallId: "tc-1", budgetsText: '{"version":1}' }));
  const pass = store.passJournal({ runtime: "r", executionId: "e1", leaseToken: "lease-e1" });
  seen["insert"] = await pass.insertCall({ ...call(1), status: "executing", needsApproval: false, cost: 3 });
  pass.applyCall({ seq: 1, resultText: '"one"', now: NOW + 1 });
  pass.recordRead({ ...call(2), startedAt: NOW, resultText: '"read"', cost: 2.5 });
  pass.recordRead({ ...call(3), startedAt: NOW, error: "read failed" });
  pass.logReexecuted({ ...call(4), cost: 1 });
  seen["insert5"] = await pass.insertCall({ ...call(5), status: "executing", needsApproval: false });
  pass.failCall({ seq: 5, error: "boom", now: NOW + 2 });
  // A step begun and ended between two writes: both rows ride with the next write, the start first.
  pass.beginStep({ ...call(6), connector: "codemode", method: "s", argsText: "" });
  pass.applyCall({ seq: 6, resultText: '"stepped"', now: NOW + 3 });
  pass.countReplays({ seqs: [1, 2] });
  pass.renewLease({ leaseUntil: NOW + 120_000 });
  seen["finish"] = await pass.finish({ ...ended("completed"), resultText: '"done"' });
  seen["lostRows"] = pass.lostRows;
  seen["e1"] = await store.load("e1");

  // A pass whose lease was taken: nothing it writes lands.
  await store.startExecution(start("e2"));
  const stale = store.passJournal({ runtime: "r", executionId: "e2", leaseToken: "someone-else" });
  seen["staleInsert"] = await stale.insertCall({ ...call(1), status: "executing", needsApproval: false });
  const owner = store.passJournal({ runtime: "r", executionId: "e2", leaseToken: "lease-e2" });
  await owner.insertCall({ ...call(1), status: "executing", needsApproval: false });
  stale.applyCall({ seq: 1, resultText: '"no"', now: NOW });
  seen["staleFinish"] = await stale.finish(ended("completed"));
  seen["staleLostRows"] = stale.lostRows;

  // A pause on two approvals and an open step, a claim approving one, the approved call started once.
  await store.startExecution(start("e3", { now: NOW + 1 }));
  const first = store.passJournal({ runtime: "r", executionId: "e3", leaseToken: "lease-e3" });
  await first.insertCall({ ...call(1), status: "executing", needsApproval: false });
  await first.insertCall({ ...call(2), status: "pending", needsApproval: true });
  await first.insertCall({ ...call(3), status: "pending", needsApproval: true });
  first.dropStep({ seq: 1 });
  await first.finish(ended("paused"));
  seen["pendingE3"] = await store.pending("e3");
  seen["claimedStale"] = await store.claimPaused({
    executionId: "e3",
    passes: 0,
    leaseToken: "L0",
    leaseUntil: NOW + 9,
    now: NOW + 6,
    seq: 2,
  });
  seen["claimed"] = await store.claimPaused({
    executionId: "e3",
    passes: 1,
    leaseToken: "L2",
    leaseUntil: NOW + 9,
    now: NOW + 6,
    seq: 2,
    decidedBy: "ann",
  });
  seen["claimedAgain"] = await store.claimPaused({
    executionId: "e3",
    passes: 1,
    leaseToken: "L3",
    leaseUntil: NOW + 9,
    now: NOW + 7,
  });
  const second = store.passJournal({ runtime: "r", executionId: "e3", leaseToken: "L2" });
  seen["started"] = await second.startApprovedCall({ seq: 2, now: NOW + 7 });
  seen["startedTwice"] = await second.startApprovedCall({ seq: 2, now: NOW + 7 });
  seen["startedUnapproved"] = await second.startApprovedCall({ seq: 3, now: NOW + 7 });
  second.applyCall({ seq: 2, resultText: "2", now: NOW + 8 });
  await second.finish(ended("paused", NOW + 8));
  seen["decided"] = await store.claimPaused({
    executionId: "e3",
    passes: 2,
    leaseToken: "L4",
    leaseUntil: NOW + 20,
    now: NOW + 10,
    decisions: { approve: [], reject: [{ seq: 3, error: "no thanks" }] },
    decidedBy: "ben",
  });
  const third = store.passJournal({ runtime: "r", executionId: "e3", leaseToken: "L4" });
  third.failUnreachedApprovals({ seqs: [2, 3], reason: "unreached", now: NOW + 11 });
  await third.finish({ status: "error", logs: [], error: "x", kind: "approval-unreached", now: NOW + 11 });
  seen["e3"] = await store.load("e3");

  // A whole program awaiting approval; a rejection; listings by scope.
  await store.startExecution(
    start("e4", {
      now: NOW + 2,
      scope: "bob",
      programApproval: { connector: "codemode", method: "program", argsText: "{}" },
    }),
  );
  await store.startExecution(
    start("e5", { now: NOW + 3, programApproval: { connector: "codemode", method: "program", argsText: "{}" } }),
  );
  seen["pendingBob"] = await store.pending(undefined, "bob");
  seen["approvedProgram"] = await store.claimPaused({
    executionId: "e4",
    passes: 0,
    leaseToken: "P",
    leaseUntil: NOW + 50,
    now: NOW + 12,
  });
  seen["e4"] = await store.load("e4");
  seen["rejected"] = await store.rejectPaused({
    executionId: "e5",
    token: "R",
    now: NOW + 13,
    reason: "denied",
    decidedBy: "cy",
  });
  seen["rejectedTwice"] = await store.rejectPaused({ executionId: "e5", token: "R", now: NOW + 13, reason: "denied" });
  seen["e5"] = await store.load("e5");
  seen["listAlice"] = (await store.list(10, "alice")).map((execution) => execution.executionId);
  seen["list"] = (await store.list(3)).map((execution) => execution.executionId);

  // Rollback of e1: claim, mark, clear, revert, finish.
  seen["rollbackClaim"] = await store.claimForRollback({
    executionId: "e1",
    status: "completed",
    token: "RB",
    leaseUntil: NOW + 99,
    now: NOW + 20,
  });
  seen["rollbackClaimTwice"] = await store.claimForRollback({
    executionId: "e1",
    status: "completed",
    token: "RB2",
    leaseUntil: NOW + 99,
    now: NOW + 20,
  });
  seen["marked"] = await store.markReverting({ executionId: "e1", token: "RB", seq: 1, note: "reverting" });
  seen["markedTwice"] = await store.markReverting({ executionId: "e1", token: "RB", seq: 1, note: "reverting" });
  await store.clearReverting({ executionId: "e1", token: "RB", seq: 1 });
  seen["reverted"] = await store.markReverted({ executionId: "e1", token: "RB", seq: 1, now: NOW + 21 });
  seen["revertedByOther"] = await store.markReverted({ executionId: "e1", token: "other", seq: 2, now: NOW + 21 });
  await store.finishRollback({ executionId: "e1", token: "RB", rolledBack: true, now: NOW + 22 });
  seen["e1RolledBack"] = await store.load("e1");

  // Expiry: e2 and e4 are running with their leases past; nothing paused is older than `pausedBefore`.
  seen["expired"] = await store.expire({
    now: NOW + 70_000,
    pausedBefore: NOW,
    runningMessage: "dead",
    pausedMessage: "stale",
  });
  seen["e2"] = await store.load("e2");

  // Snippets, search vectors, retention.
  await store.saveSnippet({ name: "b", code: "2", connectors: [], executionId: "e1", createdAt: NOW });
  await store.saveSnippet({
    name: "a",
    code: "1",
    connectors: ["svc"],
    executionId: "e1",
    createdAt: NOW,
    description: "d",
  });
  seen["snippets"] = await store.snippets();
  seen["deletedSnippet"] = [await store.deleteSnippet("b"), await store.deleteSnippet("b")];
  await store.saveSearchVectors("m", [{ textHash: "h1", vector: new Float32Array([1, 0.5]) }]);
  seen["vectors"] = (await store.searchVectors("m", ["h1", "h2"])).map((v) => [v.textHash, [...v.vector]]);
  seen["snippetsAtStart"] = await store.startExecution(
    start("e6", {
      now: NOW + 30,
      prune: { keepPerOwner: 2, endedBefore: NOW + 1_000_000, expiredBefore: undefined, limit: 8 },
    }),
  );
  seen["afterPrune"] = (await store.list(10)).map((execution) => [execution.executionId, execution.status]);
  seen["deleted"] = [await store.deleteExecution("e6"), await store.deleteExecution("e6")];
  seen["cleared"] = await store.clearHistory();
  seen["destroyed"] = await store.deleteAllData();
  seen["afterDestroy"] = [await store.list(10), await store.snippets()];
  store.close();
  return seen;
}

describe.each(STORES)("JournalStore contract (%s)", (_name, open) => {
  it("tells each story with the outcomes the contract promises", async () => {
    const seen = await story(open());
    expect(seen).toMatchObject({
      insert: true,
      insert5: true,
      finish: true,
      lostRows: 0,
      e1: {
        execution: {
          status: "completed",
          resultText: '"done"',
          logs: ["a line"],
          scope: "alice",
          toolCallId: "tc-1",
          budgetsText: '{"version":1}',
        },
        calls: [
          { seq: 1, status: "applied", resultText: '"one"', replayedCount: 1, cost: 3 },
          { seq: 2, status: "applied", resultText: '"read"', replayedCount: 1, cost: 2.5 },
          { seq: 3, status: "error", error: "read failed" },
          { seq: 4, status: "applied", replay: "reexecute", cost: 1 },
          { seq: 5, status: "error", error: "boom" },
          { seq: 6, connector: "codemode", method: "s", status: "applied", resultText: '"stepped"' },
        ],
      },
      staleInsert: false,
      staleFinish: false,
      staleLostRows: 1,
      // A claim decided on an older load (another pass count) changes nothing.
      claimedStale: undefined,
      claimed: [],
      claimedAgain: undefined,
      started: true,
      startedTwice: false,
      startedUnapproved: false,
      decided: [],
      e3: {
        execution: { status: "error", kind: "approval-unreached" },
        calls: [
          { seq: 2, status: "applied", decidedBy: "ann" },
          { seq: 3, status: "error", error: "no thanks", decidedBy: "ben" },
        ],
      },
      e4: { execution: { status: "running", passes: 1 }, calls: [{ seq: 0, status: "applied" }] },
      rejected: true,
      rejectedTwice: false,
      e5: {
        execution: { status: "rejected", kind: "rejected", error: "denied" },
        calls: [{ seq: 0, status: "error", decidedBy: "cy" }],
      },
      listAlice: ["e1"],
      list: ["e5", "e4", "e3"],
      rollbackClaim: true,
      rollbackClaimTwice: false,
      marked: true,
      markedTwice: false,
      reverted: true,
      revertedByOther: false,
      e1RolledBack: {
        execution: { status: "rolled_back", updatedAt: NOW + 22 },
        calls: [{ seq: 1, status: "reverted" }, { seq: 2 }, { seq: 3 }, { seq: 4 }, { seq: 5 }, { seq: 6 }],
      },
      expired: [
        { executionId: "e2", status: "error" },
        { executionId: "e4", status: "error" },
      ],
      e2: { execution: { status: "error", kind: "expired", error: "dead" }, calls: [{ seq: 1, status: "error" }] },
      deletedSnippet: [true, false],
      vectors: [["h1", [1, 0.5]]],
      deleted: [true, false],
      afterDestroy: [[], []],
    });
    expect(seen["pendingE3"]).toMatchObject([
      { executionId: "e3", call: { seq: 2 } },
      { executionId: "e3", call: { seq: 3 } },
    ]);
    expect(seen["pendingBob"]).toMatchObject([{ executionId: "e4", call: { seq: 0, connector: "codemode" } }]);
    expect((seen["snippets"] as Array<{ name: string }>).map((snippet) => snippet.name)).toEqual(["a", "b"]);
  });
});

/** Module sources kept for paused executions: once per digest, dropped when no unfinished execution refers to one. */
async function moduleStory(store: JournalStore) {
  const record = (digest: string) => JSON.stringify({ v: 1, modules: { m: digest } });
  const pause = async (executionId: string, digest: string) => {
    await store.startExecution(start(executionId));
    const pass = store.passJournal({ runtime: "r", executionId, leaseToken: `lease-${executionId}` });
    await pass.finish({
      ...ended("paused"),
      modulesText: record(digest),
      moduleSources: [{ digest, source: `source ${digest}` }],
    });
  };
  const end = async (executionId: string) => {
    const loaded = await store.load(executionId);
    const leaseToken = `again-${executionId}`;
    const passes = loaded?.execution.passes ?? 0;
    await store.claimPaused({ executionId, passes, leaseToken, leaseUntil: NOW + 60_000, now: NOW + 6 });
    await store
      .passJournal({ runtime: "r", executionId, leaseToken })
      .finish({ ...ended("completed"), releaseModules: true });
  };
  const kept = async () => [...(await store.moduleSources(["d1", "d2"])).entries()];
  const seen: Record<string, unknown> = {};
  await pause("m1", "d1");
  await pause("m2", "d1");
  await pause("m3", "d2");
  seen["once"] = await kept();
  await end("m1");
  seen["stillUsed"] = await kept();
  await end("m2");
  seen["released"] = await kept();
  await store.deleteAllData();
  seen["destroyed"] = await kept();
  return seen;
}

describe.each(STORES)("JournalStore module sources (%s)", (_name, open) => {
  it("keeps a source once per digest while a paused execution refers to it", async () => {
    expect(await moduleStory(open())).toEqual({
      once: [
        ["d1", "source d1"],
        ["d2", "source d2"],
      ],
      stillUsed: [
        ["d1", "source d1"],
        ["d2", "source d2"],
      ],
      released: [["d2", "source d2"]],
      destroyed: [],
    });
  });
});

describe("the two JournalStore implementations", () => {
  it("leave identical records after the same story", async () => {
    const [libsql, memory] = await Promise.all(STORES.map(([, open]) => story(open())));
    expect(memory).toEqual(libsql);
  });
});
