/**
 * Generated programs for the model test and the reference model that says what
 * the durable runtime must do with them. A program is a list of parts over one
 * connector `svc` whose methods are:
 * - `plain` (runs at once), `rev` (runs at once, revertible),
 * - `gated` (needs approval, revertible), `fail` (throws), `read` (`reexecute`).
 * Every call's arguments are `{ n, k }` with `k` unique per call site; the
 * result is `{ d: 2n, k }`; `gated` is `editable`: an approver may change its `n` (the result and the effect then
 * use the approver's). The model is deliberately naive: it re-walks the
 * program from the start on every pass, with the journal as a map of rows.
 */
import fc from "fast-check";
import { createMockConnector, type MockConnector } from "../../../src/test/index.js";

/** Methods of `svc`. */
type CallKind = "plain" | "rev" | "gated" | "fail" | "read";
/** One call site. */
interface Call {
  kind: CallKind;
  n: number;
}
/** One part of a program. */
export type Part =
  | { t: "call"; call: Call }
  | { t: "all"; calls: Call[] }
  | { t: "step"; n: number }
  | { t: "catch"; n: number }
  | { t: "branch"; n: number; yes: Part[]; no: Part[] }
  | { t: "snippet"; n: number }
  | { t: "throw" };

/** The saved snippet `snip`: one `plain` call, then `d + 1`. */
export const SNIPPET_CODE = "async () => { const r = await svc.plain({ n: input.n, k: input.k }); return r.d + 1; }";

const callArb: fc.Arbitrary<Call> = fc.record({
  kind: fc.constantFrom<CallKind>("plain", "rev", "gated", "gated", "fail", "read"),
  n: fc.integer({ min: 0, max: 9 }),
});

const leafArb: fc.Arbitrary<Part> = fc.oneof(
  { weight: 5, arbitrary: callArb.map((call) => ({ t: "call" as const, call })) },
  {
    weight: 2,
    arbitrary: fc.array(callArb, { minLength: 2, maxLength: 3 }).map((calls) => ({ t: "all" as const, calls })),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }).map((n) => ({ t: "step" as const, n })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }).map((n) => ({ t: "catch" as const, n })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }).map((n) => ({ t: "snippet" as const, n })) },
  { weight: 1, arbitrary: fc.constant({ t: "throw" as const }) },
);

/** Programs of 1–5 parts; a branch holds up to two leaf parts per side. */
export const programArb: fc.Arbitrary<Part[]> = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: leafArb },
    {
      weight: 1,
      arbitrary: fc
        .record({
          n: fc.integer({ min: 0, max: 9 }),
          yes: fc.array(leafArb, { maxLength: 2 }),
          no: fc.array(leafArb, { maxLength: 2 }),
        })
        .map((branch) => ({ t: "branch" as const, ...branch })),
    },
  ),
  { minLength: 1, maxLength: 5 },
);

/** The program's source. */
export function programSource(parts: Part[]): string {
  let site = 0;
  const expr = (call: Call): string => `svc.${call.kind}({ n: ${call.n}, k: "c${++site}" })`;
  const lines = (list: Part[]): string =>
    list
      .map((part) => {
        switch (part.t) {
          case "call":
            return `out.push((await ${expr(part.call)}).d);`;
          case "all":
            return `out.push(...(await Promise.all([${part.calls.map(expr).join(", ")}])).map((r) => r.d));`;
          case "step":
            return `out.push(await codemode.step("s${++site}", () => ${part.n} * 3));`;
          case "catch":
            return `try { await ${expr({ kind: "fail", n: part.n })}; out.push("no"); } catch (e) { out.push("caught " + e.message); }`;
          case "snippet":
            return `out.push(await codemode.run("snip", { n: ${part.n}, k: "c${++site}" }));`;
          case "throw":
            return `throw new Error("boom");`;
          case "branch": {
            const head = `{ const r = await ${expr({ kind: "plain", n: part.n })}; out.push(r.d); if (r.d % 4 === 0) { ${lines(part.yes)} } else { ${lines(part.no)} } }`;
            return head;
          }
          default:
            return "";
        }
      })
      .join(" ");
  return `async () => { const out = []; ${lines(parts)} return out; }`;
}

/** The test connector `svc` (shared ledger across runtimes of one case). */
export function svcConnector(): MockConnector {
  const result = (args: unknown) => ({ d: (args as { n: number }).n * 2, k: (args as { k: string }).k });
  return createMockConnector("svc", {
    methods: {
      plain: { result },
      rev: { result, revert: true },
      gated: { result, needsApproval: true, revert: true, editable: true },
      fail: { fails: "nope" },
      read: { result, replay: "reexecute" },
    },
  });
}

/** A journal row of the model. */
interface ModelRow {
  method: string;
  args: unknown;
  status: "pending" | "applied" | "error" | "reverted" | "executing";
  approved: boolean;
  /** Marked "reverting" by a rollback that died: never reverted again (its outcome is unknown). */
  stuck?: boolean;
  /** The `n` an approver gave instead of the program's (approve with changes). */
  edit?: number;
}

/** The model's view of one execution. */
export interface ModelExecution {
  status: "paused" | "completed" | "error" | "rejected" | "rolled_back";
  rows: Map<number, ModelRow>;
  pending: Array<{ seq: number; method: string; args: unknown }>;
  result?: unknown;
  kind?: string;
  /** `svc` effects by idempotency seq (record methods), reads counted separately. */
  effects: Map<number, number>;
  reads: number;
  reverts: Map<number, number>;
}

/** What a step of the schedule must return according to the model. */
export type ModelOutcome =
  | { status: "completed"; result: unknown }
  | { status: "paused"; pending: Array<{ seq: number; method: string; args: unknown }> }
  | { status: "error"; kind: string };

class Pause extends Error {}
class Thrown extends Error {}

const REVERTIBLE = new Set(["rev", "gated"]);

/** Runs one pass of the model over `exec` (mutating it) and returns the outcome. */
function modelPass(parts: Part[], exec: ModelExecution): ModelOutcome {
  let seq = 0;
  let site = 0;
  const pending: ModelExecution["pending"] = [];
  const out: unknown[] = [];
  type Got = { ok: true; value: { d: number; k: string } } | { ok: false; error: string } | { pause: true };

  const invoke = (call: Call, k: string): Got => {
    const s = ++seq;
    const args = { n: call.n, k };
    const row = exec.rows.get(s);
    // A call approved with changes ran (and replays) with the approver's `n`.
    const value = { d: (row?.edit ?? call.n) * 2, k };
    const effect = (): void => {
      exec.effects.set(s, (exec.effects.get(s) ?? 0) + 1);
    };
    if (row === undefined) {
      if (call.kind === "gated") {
        exec.rows.set(s, { method: "gated", args, status: "pending", approved: false });
        pending.push({ seq: s, method: "gated", args });
        return { pause: true };
      }
      if (call.kind === "read") {
        exec.reads += 1;
        exec.rows.set(s, { method: "read", args, status: "applied", approved: false });
        return { ok: true, value };
      }
      effect();
      if (call.kind === "fail") {
        exec.rows.set(s, { method: "fail", args, status: "error", approved: false });
        return { ok: false, error: "nope" };
      }
      exec.rows.set(s, { method: call.kind, args, status: "applied", approved: false });
      return { ok: true, value };
    }
    if (row.status === "applied") {
      if (row.method === "read") exec.reads += 1;
      return { ok: true, value };
    }
    if (row.status === "error") return { ok: false, error: "nope" };
    if (row.status === "pending" && row.approved) {
      effect();
      row.status = "applied";
      return { ok: true, value };
    }
    pending.push({ seq: s, method: row.method, args });
    return { pause: true };
  };
  const must = (got: Got): number => {
    if ("pause" in got) throw new Pause();
    if (!got.ok) throw new Thrown(got.error);
    return got.value.d;
  };
  const step = (n: number): number => {
    const s = ++seq;
    ++site;
    if (!exec.rows.has(s)) exec.rows.set(s, { method: "step", args: undefined, status: "applied", approved: false });
    return n * 3;
  };
  const walk = (list: Part[]): void => {
    for (const part of list) {
      switch (part.t) {
        case "call":
          out.push(must(invoke(part.call, `c${++site}`)));
          break;
        case "all": {
          const got = part.calls.map((call) => invoke(call, `c${++site}`));
          if (got.some((entry) => "pause" in entry)) throw new Pause();
          out.push(...got.map(must));
          break;
        }
        case "step":
          out.push(step(part.n));
          break;
        case "catch": {
          const got = invoke({ kind: "fail", n: part.n }, `c${++site}`);
          out.push(!("pause" in got) && !got.ok ? `caught ${got.error}` : "no");
          break;
        }
        case "snippet": {
          const k = `c${++site}`;
          out.push(must(invoke({ kind: "plain", n: part.n }, k)) + 1);
          break;
        }
        case "throw":
          throw new Thrown("boom");
        case "branch": {
          const d = must(invoke({ kind: "plain", n: part.n }, `c${++site}`));
          out.push(d);
          // Sites of both sides are numbered in source order, whichever side runs.
          const before = site;
          const yesSites = countSites(part.yes);
          if (d % 4 === 0) walk(part.yes);
          else {
            site = before + yesSites;
            walk(part.no);
          }
          site = before + yesSites + countSites(part.no);
          break;
        }
      }
    }
  };
  let outcome: ModelOutcome;
  try {
    walk(parts);
    outcome = { status: "completed", result: out };
  } catch (error) {
    if (!(error instanceof Pause) && !(error instanceof Thrown)) throw error;
    outcome = { status: "error", kind: "exception" };
  }
  if (pending.length > 0) outcome = { status: "paused", pending: [...pending].sort((a, b) => a.seq - b.seq) };
  exec.pending = outcome.status === "paused" ? outcome.pending : [];
  exec.status = outcome.status;
  if (outcome.status === "completed") exec.result = outcome.result;
  if (outcome.status === "error") exec.kind = outcome.kind;
  return outcome;
}

function countSites(list: Part[]): number {
  let count = 0;
  for (const part of list) {
    if (part.t === "all") count += part.calls.length;
    else if (part.t === "branch") count += 1 + countSites(part.yes) + countSites(part.no);
    else if (part.t !== "throw") count += 1;
  }
  return count;
}

/** A fresh execution: the first pass. */
export function modelExecute(parts: Part[]): { exec: ModelExecution; outcome: ModelOutcome } {
  const exec: ModelExecution = {
    status: "paused",
    rows: new Map(),
    pending: [],
    effects: new Map(),
    reads: 0,
    reverts: new Map(),
  };
  return { exec, outcome: modelPass(parts, exec) };
}

/** Approve (one call or all; one with the approver's `n` when `edit` is given); a refusal changes nothing. */
export function modelApprove(parts: Part[], exec: ModelExecution, seq?: number, edit?: number): ModelOutcome {
  if (exec.status !== "paused") return { status: "error", kind: "stale" };
  for (const entry of exec.pending) {
    if (seq !== undefined && entry.seq !== seq) continue;
    const row = exec.rows.get(entry.seq) as ModelRow;
    row.approved = true;
    // Arguments equal to the program's are no edit.
    if (edit !== undefined && edit !== (row.args as { n: number }).n) row.edit = edit;
  }
  return modelPass(parts, exec);
}

/** Reject: paused → rejected, pending rows → error. */
export function modelReject(exec: ModelExecution): { status: "rejected" } | { status: "error"; kind: string } {
  if (exec.status !== "paused") return { status: "error", kind: "stale" };
  for (const row of exec.rows.values()) if (row.status === "pending") row.status = "error";
  exec.status = "rejected";
  exec.pending = [];
  return { status: "rejected" };
}

/** Rollback: reverts the applied revertible calls newest first. */
export function modelRollback(
  exec: ModelExecution,
): { status: "rolled_back"; reverted: number[] } | { status: "error"; kind: string } {
  if (exec.status === "paused") return { status: "error", kind: "stale" };
  const revertible = [...exec.rows].filter(([, row]) => row.status === "applied" && REVERTIBLE.has(row.method));
  const stuck = revertible.filter(([, row]) => row.stuck === true).length;
  const reverted = revertible
    .filter(([, row]) => row.stuck !== true)
    .map(([seq]) => seq)
    .sort((a, b) => b - a);
  for (const seq of reverted) {
    (exec.rows.get(seq) as ModelRow).status = "reverted";
    exec.reverts.set(seq, (exec.reverts.get(seq) ?? 0) + 1);
  }
  if (reverted.length === 0 && exec.status !== "rolled_back")
    return { status: "error", kind: stuck > 0 ? "exception" : "nothing-to-revert" };
  exec.status = "rolled_back";
  return { status: "rolled_back", reverted };
}

/** A deep copy (to compare against after a fault). */
export function cloneExecution(exec: ModelExecution): ModelExecution {
  return {
    ...exec,
    rows: new Map([...exec.rows].map(([seq, row]) => [seq, { ...row }])),
    pending: [...exec.pending],
    effects: new Map(exec.effects),
    reverts: new Map(exec.reverts),
  };
}
