/**
 * Property-based model test (issue 7): generated programs × generated
 * schedules (approve all / one / one with changed arguments, reject, rollback, resume in a new runtime
 * object, two approvals at once, a store fault at a random write boundary)
 * run against the real runtime (in-process executor, one `:memory:` database and
 * runtime name, cases told apart by execution id) and the reference model in `support/program-model.ts`.
 *
 * Invariants checked after every step: the output equals the model's (status,
 * result, pending list, failure kind); the journal's call statuses equal the
 * model's rows; recorded results equal what the connector returned; every
 * effect ran exactly as often as the model says (record calls at most once,
 * approved ones exactly once); rollback reverted exactly the applied
 * revertible calls. After a fault the execution is either unchanged or ended
 * (`error`), no effect ran twice and every `applied` row has its one effect.
 *
 * Reproduce: FC_SEED=<seed printed on failure> (and MODEL_RUNS=<n>).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createDurableRuntime, type DurableRuntime } from "../../src/runtime/durable-runtime.js";
import type { CodemodeOutput, ExecutionDetail } from "../../src/runtime/types.js";
import type { MockConnector } from "../../src/test/index.js";
import { memoryClient, sequentialIds, sharedExecutor, testClock, type TestClock } from "../runtime/runtime-fixture.js";
import { faultyClient, type FaultyClient } from "./support/faulty-client.js";
import {
  cloneExecution,
  modelApprove,
  modelExecute,
  modelReject,
  modelRollback,
  programArb,
  programSource,
  SNIPPET_CODE,
  svcConnector,
  type ModelExecution,
  type ModelOutcome,
  type Part,
} from "./support/program-model.js";

const SEED = Number(process.env["FC_SEED"] ?? 7_2026_1130);
const RUNS = Number(process.env["MODEL_RUNS"] ?? 10_000);
const LEASE_MS = 60_000;

type Op =
  | { op: "approve" | "reject" | "rollback" | "reopen" | "concurrent" }
  | { op: "approveOne"; pick: number }
  | { op: "approveEdited"; pick: number; n: number }
  | { op: "fault"; inner: "execute" | "approve" | "reject" | "rollback"; atWrite: number; dead: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ op: "approve" as const }) },
  { weight: 3, arbitrary: fc.nat(3).map((pick) => ({ op: "approveOne" as const, pick })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ pick: fc.nat(3), n: fc.integer({ min: 0, max: 9 }) })
      .map((edit) => ({ op: "approveEdited" as const, ...edit })),
  },
  { weight: 1, arbitrary: fc.constant({ op: "reject" as const }) },
  { weight: 2, arbitrary: fc.constant({ op: "rollback" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "reopen" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "concurrent" as const }) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        inner: fc.constantFrom("approve" as const, "reject" as const, "rollback" as const),
        atWrite: fc.integer({ min: 1, max: 6 }),
        dead: fc.boolean(),
      })
      .map((fault) => ({ op: "fault" as const, ...fault })),
  },
);

const firstArb: fc.Arbitrary<{ atWrite: number; dead: boolean } | null> = fc.oneof(
  { weight: 5, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.record({ atWrite: fc.integer({ min: 1, max: 6 }), dead: fc.boolean() }) },
);

const shared = faultyClient(memoryClient());
const stats = { cases: 0, steps: 0, faults: 0, passes: 0, edits: 0 };
let caseNumber = 0;

afterAll(() => {
  console.log(
    `model test: ${stats.cases} cases, ${stats.steps} schedule steps, ${stats.faults} injected store faults, ${stats.edits} approvals with changes (seed ${SEED})`,
  );
});

interface Case {
  parts: Part[];
  svc: MockConnector;
  clock: TestClock;
  name: string;
  runtime: DurableRuntime;
  client: FaultyClient;
}

function openRuntime(c: Omit<Case, "runtime" | "parts">, generation: number): DurableRuntime {
  return createDurableRuntime({
    store: c.client.client,
    executor: sharedExecutor(),
    connectors: { svc: c.svc },
    name: c.name,
    _internal: { now: c.clock.now, generateId: sequentialIds(`${c.name}-g${generation}`), leaseMs: LEASE_MS },
  });
}

// One runtime name, connector and clock for every case (a runtime object builds its catalog once);
// cases are told apart by execution id, and the ledger is cleared per case.
const sharedCase = { svc: svcConnector(), clock: testClock(), name: "model", client: shared };
const mainRuntime = openRuntime(sharedCase, 0);
let snippetSaved = false;

function expectOutcome(
  real: CodemodeOutput | { status: string; kind?: string },
  model: ModelOutcome | { status: string; kind?: string },
  where: string,
): void {
  if (model.status === "error") {
    expect({ status: real.status, kind: (real as { kind?: string }).kind }, where).toEqual({
      status: "error",
      kind: (model as { kind: string }).kind,
    });
    return;
  }
  if (model.status === "completed") {
    expect(real, where).toMatchObject({ status: "completed", result: (model as { result: unknown }).result });
    return;
  }
  if (model.status === "paused") {
    expect(real.status, where).toBe("paused");
    const pending = (real as { pending: Array<{ seq: number; connector: string; method: string; args: unknown }> })
      .pending;
    expect(
      pending.map((p) => ({ seq: p.seq, method: p.method, args: p.args })),
      where,
    ).toEqual((model as { pending: unknown }).pending);
    expect(
      pending.every((p) => p.connector === "svc"),
      where,
    ).toBe(true);
    return;
  }
  expect(real.status, where).toBe(model.status);
}

const dbStatus = {
  pending: "pending",
  applied: "applied",
  error: "error",
  reverted: "reverted",
  executing: "executing",
} as const;

/** Journal, ledger and model agree. */
function expectJournal(detail: ExecutionDetail, exec: ModelExecution, svc: MockConnector, where: string): void {
  expect(detail.status, where).toBe(exec.status);
  const rows = detail.calls.map((call) => ({ seq: call.seq, status: call.status }));
  expect(rows, where).toEqual(
    [...exec.rows].sort(([a], [b]) => a - b).map(([seq, row]) => ({ seq, status: row.status })),
  );
  for (const call of detail.calls) {
    if (call.connector === "svc" && call.status === "applied" && call.replay === "record") {
      // An edited call ran with the approver's arguments: its recorded result is theirs.
      const ran = (call.approvedArgs ?? call.args) as { n: number; k: string };
      expect(call.result, `${where}: recorded result of #${call.seq}`).toEqual({ d: ran.n * 2, k: ran.k });
    }
    const edit = exec.rows.get(call.seq)?.edit;
    expect(call.approvedArgs, `${where}: approved arguments of #${call.seq}`).toEqual(
      edit === undefined ? undefined : { ...(call.args as object), n: edit },
    );
  }
  expectLedger(detail.executionId, exec, svc, where);
}

function ledgerCounts(executionId: string, svc: MockConnector, kind: "execute" | "revert"): Map<number, number> {
  const counts = new Map<number, number>();
  for (const entry of svc.ledger.of(kind)) {
    if (!entry.idempotencyKey.startsWith(`${executionId}:`) || entry.method === "read") continue;
    const seq = Number(entry.idempotencyKey.slice(executionId.length + 1));
    counts.set(seq, (counts.get(seq) ?? 0) + 1);
  }
  return counts;
}

function expectLedger(executionId: string, exec: ModelExecution, svc: MockConnector, where: string): void {
  const sorted = (map: Map<number, number>) => [...map].sort(([a], [b]) => a - b);
  expect(sorted(ledgerCounts(executionId, svc, "execute")), `${where}: effects`).toEqual(sorted(exec.effects));
  expect(sorted(ledgerCounts(executionId, svc, "revert")), `${where}: reverts`).toEqual(sorted(exec.reverts));
  const reads = svc.ledger
    .of("execute", "svc.read")
    .filter((entry) => entry.idempotencyKey.startsWith(`${executionId}:`)).length;
  expect(reads, `${where}: reads`).toBe(exec.reads);
  // Each approved effect ran with the arguments it was approved with (the approver's, when edited).
  for (const entry of svc.ledger.of("execute", "svc.gated")) {
    if (!entry.idempotencyKey.startsWith(`${executionId}:`)) continue;
    const row = exec.rows.get(Number(entry.idempotencyKey.slice(executionId.length + 1)));
    const n = row?.edit ?? (row?.args as { n: number } | undefined)?.n;
    expect((entry.args as { n: number }).n, `${where}: arguments of ${entry.idempotencyKey}`).toBe(n);
  }
}

/**
 * After a fault: the execution is unchanged, or it ended (`error`, or a partial rollback); no effect
 * or revert ran twice, every effect is one the model allows, every applied row has its one effect.
 * Returns the model adopted from the journal.
 */
function adoptAfterFault(
  detail: ExecutionDetail | undefined,
  before: ModelExecution | undefined,
  allowed: ModelExecution,
  svc: MockConnector,
  inner: string,
  where: string,
): ModelExecution | undefined {
  if (detail === undefined) {
    expect(before, `${where}: only a failed start leaves no execution`).toBeUndefined();
    return undefined;
  }
  const effects = ledgerCounts(detail.executionId, svc, "execute");
  const reverts = ledgerCounts(detail.executionId, svc, "revert");
  for (const [seq, count] of effects) {
    expect(count, `${where}: effect #${seq} ran ${count} times`).toBe(1);
    expect(allowed.effects.has(seq), `${where}: effect #${seq} is one the model allows`).toBe(true);
  }
  for (const [seq, count] of reverts) expect(count, `${where}: revert of #${seq} ran ${count} times`).toBe(1);
  for (const call of detail.calls) {
    if (call.connector !== "svc" || call.replay !== "record") continue;
    const ran = effects.get(call.seq) ?? 0;
    if (call.status === "applied" || call.status === "reverted")
      expect(ran, `${where}: applied #${call.seq} has its effect`).toBe(1);
    if (call.status === "pending") expect(ran, `${where}: pending #${call.seq} has no effect`).toBe(0);
    if (call.status === "reverted")
      expect(reverts.get(call.seq), `${where}: reverted #${call.seq} was reverted once`).toBe(1);
  }
  // A call whose outcome was lost stays `executing` only in an ended run (never re-run); expirePaused ended every running one.
  expect(detail.status, where).not.toBe("running");
  if (detail.calls.some((call) => call.status === "executing"))
    expect(["error", "rolled_back"], `${where}: executing rows only in an ended run`).toContain(detail.status);
  const unchanged =
    before !== undefined &&
    detail.status === before.status &&
    detail.calls.length === before.rows.size &&
    detail.calls.every((call) => before.rows.get(call.seq)?.status === call.status);
  if (!unchanged) {
    if (inner === "rollback") expect(["rolled_back", before?.status], where).toContain(detail.status);
    else if (inner === "reject") expect(detail.status, where).toBe("rejected");
    else {
      expect(detail.status, where).toBe("error");
      expect(["store", "expired"], where).toContain(detail.kind);
    }
  }
  const rows = new Map(
    detail.calls.map((call) => [
      call.seq,
      {
        method: call.connector === "svc" ? call.method : "step",
        args: call.args,
        status: dbStatus[call.status],
        approved: call.approvedAt !== undefined,
        ...(call.approvedArgs === undefined ? {} : { edit: (call.approvedArgs as { n: number }).n }),
        ...(call.status === "applied" && call.error?.startsWith("reverting:") === true ? { stuck: true } : {}),
      },
    ]),
  );
  return {
    status: detail.status as ModelExecution["status"],
    rows,
    pending: detail.pending.map((p) => ({ seq: p.seq, method: p.method, args: p.args })),
    effects,
    reads: svc.ledger
      .of("execute", "svc.read")
      .filter((entry) => entry.idempotencyKey.startsWith(`${detail.executionId}:`)).length,
    reverts,
    ...(detail.kind === undefined ? {} : { kind: detail.kind }),
  };
}

async function runCase(parts: Part[], first: { atWrite: number; dead: boolean } | null, ops: Op[]): Promise<void> {
  stats.cases += 1;
  caseNumber += 1;
  sharedCase.svc.ledger.clear();
  let generation = caseNumber * 10;
  const c: Case = { ...sharedCase, parts, runtime: mainRuntime };
  const code = programSource(parts);
  if (!snippetSaved) {
    const setup = await c.runtime.execute({ code: SNIPPET_CODE });
    expect(await c.runtime.saveSnippet("snip", { executionId: setup.executionId })).toMatchObject({ status: "saved" });
    snippetSaved = true;
  }

  const recover = async (): Promise<void> => {
    shared.revive();
    c.clock.advance(LEASE_MS + 1);
    await c.runtime.expirePaused({ maxAgeMs: 1e12 });
  };

  // The first pass, possibly with a fault.
  let exec: ModelExecution | undefined;
  let executionId: string;
  const modelFirst = modelExecute(parts);
  if (first !== null) {
    stats.steps += 1;
    const faultsBefore = shared.faults;
    shared.arm({ atWrite: first.atWrite, mode: first.dead ? "dead" : "once" });
    const out = await c.runtime.execute({ code });
    shared.disarm();
    executionId = out.executionId;
    if (shared.faults === faultsBefore) {
      shared.revive();
      expectOutcome(out, modelFirst.outcome, "first pass");
      exec = modelFirst.exec;
    } else {
      stats.faults += 1;
      expect(out, "first pass with a fault").toMatchObject({ status: "error", kind: "store" });
      expect((out as { error: string }).error).toContain("injected fault");
      await recover();
      exec = adoptAfterFault(
        await c.runtime.execution(executionId),
        undefined,
        modelFirst.exec,
        c.svc,
        "execute",
        "first pass (fault)",
      );
    }
  } else {
    const out = await c.runtime.execute({ code });
    executionId = out.executionId;
    expectOutcome(out, modelFirst.outcome, "first pass");
    exec = modelFirst.exec;
  }
  if (exec === undefined) return;
  expectJournal((await c.runtime.execution(executionId))!, exec, c.svc, "after the first pass");

  for (const [index, op] of ops.entries()) {
    stats.steps += 1;
    const where = `step ${index} (${JSON.stringify(op)})`;
    switch (op.op) {
      case "approve": {
        const out = await c.runtime.approve({ executionId });
        expectOutcome(out, modelApprove(parts, exec, undefined), where);
        if (exec.status !== "paused" && out.status === "error" && out.kind === "stale") break;
        break;
      }
      case "approveOne": {
        if (exec.status !== "paused") {
          const out = await c.runtime.approve({ executionId, seq: 1 });
          expect(out.status, where).toBe("error");
          expect(["stale", "conflict", "not-found"], where).toContain((out as { kind: string }).kind);
          break;
        }
        const seq = exec.pending[op.pick % exec.pending.length]!.seq;
        expectOutcome(await c.runtime.approve({ executionId, seq }), modelApprove(parts, exec, seq), where);
        break;
      }
      case "approveEdited": {
        if (exec.status !== "paused") break;
        const target = exec.pending[op.pick % exec.pending.length]!;
        const args = { ...(target.args as { n: number; k: string }), n: op.n };
        const out = await c.runtime.approve({ executionId, seq: target.seq, args });
        stats.edits += 1;
        expectOutcome(out, modelApprove(parts, exec, target.seq, op.n), where);
        break;
      }
      case "concurrent": {
        if (exec.status !== "paused") break;
        const seq = exec.pending[0]!.seq;
        const outs = await Promise.all([
          c.runtime.approve({ executionId, seq }),
          openRuntime(c, ++generation).approve({ executionId, seq }),
        ]);
        const losers = outs.filter((out) => out.status === "error" && out.kind === "conflict");
        expect(losers, `${where}: ${JSON.stringify(outs)}`).toHaveLength(1);
        const winner = outs.find((out) => !losers.includes(out))!;
        expectOutcome(winner, modelApprove(parts, exec, seq), where);
        break;
      }
      case "reject": {
        const out = await c.runtime.reject({ executionId });
        expectOutcome(out, modelReject(exec), where);
        break;
      }
      case "rollback": {
        const model = modelRollback(exec);
        const out = await c.runtime.rollback({ executionId });
        expectOutcome(out, model, where);
        if (model.status === "rolled_back")
          expect((out as { reverted: number[] }).reverted, where).toEqual(model.reverted);
        break;
      }
      case "reopen":
        c.runtime = openRuntime(c, ++generation);
        break;
      case "fault": {
        const before = cloneExecution(exec);
        const allowed = cloneExecution(exec);
        const model =
          op.inner === "approve"
            ? modelApprove(parts, allowed)
            : op.inner === "reject"
              ? modelReject(allowed)
              : modelRollback(allowed);
        const faultsBefore = shared.faults;
        shared.arm({ atWrite: op.atWrite, mode: op.dead ? "dead" : "once" });
        const out =
          op.inner === "approve"
            ? await c.runtime.approve({ executionId })
            : op.inner === "reject"
              ? await c.runtime.reject({ executionId })
              : await c.runtime.rollback({ executionId });
        shared.disarm();
        if (shared.faults === faultsBefore) {
          shared.revive();
          expectOutcome(out, model, where);
          exec = allowed;
          break;
        }
        stats.faults += 1;
        expect(out, where).toMatchObject({ status: "error", kind: "store" });
        await recover();
        exec = adoptAfterFault(await c.runtime.execution(executionId), before, allowed, c.svc, op.inner, where)!;
        break;
      }
    }
    expectJournal((await c.runtime.execution(executionId))!, exec, c.svc, `after ${where}`);
  }
}

describe("reference model × real runtime (property-based)", () => {
  it(`${RUNS} generated programs and schedules agree with the model`, { timeout: 900_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        programArb,
        firstArb,
        fc.array(opArb, { minLength: 1, maxLength: 5 }),
        async (parts, first, ops) => {
          await runCase(parts, first, ops);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(stats.cases).toBeGreaterThanOrEqual(RUNS);
  });
});
