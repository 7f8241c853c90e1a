/**
 * The process-kill scenario of batched reads (issue 38): `readOnly` calls and a `codemode.step` whose rows ride
 * with the next write (an effect's `executing` row, a `pending` row), between effects, in a first pass that pauses
 * and in the approval pass that replays it. Shared by the killed process (`fixtures/read-kill-worker.ts`) and the test that
 * recovers and checks (`read-kill.process.test.ts`). Effects and reads go to an append-only ledger file, so what ran is
 * counted across processes, a killed one included.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import type { Connector, ConnectorCallContext } from "../../../src/connectors/types.js";
import type { ExecutionDetail } from "../../../src/runtime/types.js";

/** Sequence numbers: reads 1, 2, 4, 7; a step 5; effects 3 (`w`), 6 (`g`, needs approval), 8 (`r`). */
export const READ_KILL_PROGRAM = `async () => {
  const a = await svc.look({ n: 1, k: "l1" });
  const b = await svc.look({ n: 2, k: "l2" });
  const w = await svc.rev({ n: a.d + b.d, k: "w" });
  const c = await svc.look({ n: 3, k: "l3" });
  const s = await codemode.step("s", () => c.d + 1);
  const g = await svc.gated({ n: s, k: "g" });
  const d = await svc.look({ n: 4, k: "l4" });
  const r = await svc.rev({ n: d.d, k: "r" });
  return [a.d, b.d, w.d, c.d, s, g.d, d.d, r.d];
}`;

/** The program's result when it completes. */
const READ_KILL_RESULT = [2, 4, 12, 6, 7, 14, 8, 16];

/** Each read (and the step) and the effect whose write carries its row. */
const CARRIED_BY: Record<number, number> = { 1: 3, 2: 3, 4: 6, 5: 6, 7: 8 };
const STEP = 5;
const EFFECTS = [3, 6, 8];

/** One line of the ledger. */
export interface LedgerLine {
  method: string;
  key: string;
  k: string;
}

/**
 * `svc` with `look` (`readOnly`), `rev` and `gated` (needs approval), each noting its run in `ledger`.
 * `onRead(k)` runs inside `look` after it noted its run (the read happened; its row is only buffered).
 */
export function readKillConnector(ledger: string, onRead: (k: string) => void = () => {}): Connector {
  const run = (method: string) => async (args: unknown, context: ConnectorCallContext) => {
    const { n, k } = args as { n: number; k: string };
    appendFileSync(ledger, `${JSON.stringify({ method, key: context.idempotencyKey, k })}\n`);
    if (method === "look") onRead(k);
    return { d: n * 2, k };
  };
  return {
    methods: {
      look: { readOnly: true, execute: run("look") },
      rev: { execute: run("rev") },
      gated: { needsApproval: true, execute: run("gated") },
    },
  };
}

/** What the ledger holds. */
export function readKillLedger(ledger: string): LedgerLine[] {
  if (!existsSync(ledger)) return [];
  return readFileSync(ledger, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LedgerLine);
}

/**
 * The invariants after recovery (empty when all hold): no effect ran twice or without its `executing` row; a
 * read's row exists exactly when the write that carries it does (one write, all or nothing); an effect that ran
 * had every read before it recorded; a completed run replayed its reads (each ran once) and has the right result.
 */
export function readKillProblems(detail: ExecutionDetail | undefined, ledger: LedgerLine[]): string[] {
  if (detail === undefined) return ledger.length > 0 ? ["calls ran for an execution that does not exist"] : [];
  const problems: string[] = [];
  const rows = new Map(detail.calls.map((call) => [call.seq, call]));
  const ran = (seq: number) => ledger.filter((line) => line.key === `${detail.executionId}:${seq}`).length;
  for (const seq of EFFECTS) {
    if (ran(seq) > 1) problems.push(`effect #${seq} ran ${ran(seq)} times`);
    if (ran(seq) > 0 && !rows.has(seq)) problems.push(`effect #${seq} ran without its row`);
    if (rows.get(seq)?.status === "applied" && ran(seq) !== 1)
      problems.push(`effect #${seq} is applied, ran ${ran(seq)}`);
  }
  for (const [read, carrier] of Object.entries(CARRIED_BY).map(([r, c]) => [Number(r), c] as const)) {
    if (rows.has(read) !== rows.has(carrier))
      problems.push(`read #${read} ${rows.has(read) ? "has" : "lacks"} a row, its carrying write #${carrier} does not`);
    if (rows.has(read) && rows.get(read)?.status !== "applied")
      problems.push(`read #${read} is ${rows.get(read)?.status}`);
    if (read !== STEP && rows.has(read) && ran(read) < 1) problems.push(`read #${read} is recorded but never ran`);
    for (const effect of EFFECTS)
      if (effect > read && ran(effect) > 0 && !rows.has(read))
        problems.push(`effect #${effect} ran before read #${read} was recorded`);
  }
  if (detail.status === "running") problems.push("the execution is still running after recovery");
  if (detail.status === "completed") {
    if (JSON.stringify(detail.result) !== JSON.stringify(READ_KILL_RESULT))
      problems.push(`wrong result ${JSON.stringify(detail.result)}`);
    for (const read of Object.keys(CARRIED_BY).map(Number))
      if (read !== STEP && ran(read) !== 1)
        problems.push(`read #${read} ran ${ran(read)} times in a completed run (replay re-ran it)`);
  }
  return problems;
}
