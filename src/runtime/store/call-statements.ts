/**
 * Statement builders for a pass's writes (call rows, the lease, the pass's end), private to the libSQL store:
 * `libsql-pass-journal.ts` turns the pass's verbs into them. Every write is guarded by the execution's
 * lease token: a pass whose lease was taken away (expired and claimed by
 * `expirePaused`, say) changes nothing, and sees zero affected rows.
 */
import type { InStatement, InValue } from "./connection/sql-client.js";
import type { PassEnd, PassLease } from "../journal/journal-store.js";
import { RECORD_VERSION } from "../journal/records.js";

const LEASE_GUARD =
  "EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ? AND status = 'running')";

function leaseArgs(lease: PassLease): [string, string, string] {
  return [lease.runtime, lease.executionId, lease.leaseToken];
}

/**
 * A write of one call row, merged by the journal writer with the other call-row
 * writes of the same flush into a single upsert statement (one statement, no
 * transaction: the cheapest durable write libSQL offers).
 */
export interface CallRowWrite {
  kind: "call-row";
  /** `insert`: a new row; `update`: `executing → applied | error` of an existing row. */
  mode: "insert" | "update";
  seq: number;
  connector: string;
  method: string;
  argsText: string;
  status: "executing" | "pending" | "applied" | "error";
  resultText: string | null;
  error: string | null;
  replay: "record" | "reexecute";
  needsApproval: boolean;
  startedAt: number | null;
  finishedAt: number | null;
  /** What the call counts against `maxCost` (inserts only; an update leaves the column as it is). */
  cost: number | null;
}

/** Tells a call-row write from a plain statement. */
export function isCallRowWrite(value: unknown): value is CallRowWrite {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "call-row";
}

/** A new call row, `executing` (about to run) or `pending` (waiting for approval), or a `reexecute` log row (`applied`, no result). */
export function insertCallStatement(call: {
  seq: number;
  connector: string;
  method: string;
  argsText: string;
  status: "executing" | "pending" | "applied";
  replay: "record" | "reexecute";
  needsApproval: boolean;
  now: number;
  cost?: number;
}): CallRowWrite {
  return {
    kind: "call-row",
    mode: "insert",
    seq: call.seq,
    connector: call.connector,
    method: call.method,
    argsText: call.argsText,
    status: call.status,
    resultText: null,
    error: null,
    replay: call.replay,
    needsApproval: call.needsApproval,
    startedAt: call.status === "pending" ? null : call.now,
    finishedAt: call.status === "applied" ? call.now : null,
    cost: call.cost ?? null,
  };
}

/**
 * A read-only call's row, written once it finished (`applied` with its result, or `error`) and buffered until
 * the pass's next write: no `executing` row precedes it, since a read has no effect to protect.
 */
export function readCallStatement(
  call: {
    seq: number;
    connector: string;
    method: string;
    argsText: string;
    now: number;
    startedAt: number;
    cost?: number;
  },
  outcome: { resultText: string | undefined } | { error: string },
): CallRowWrite {
  const failed = "error" in outcome;
  return {
    kind: "call-row",
    mode: "insert",
    seq: call.seq,
    connector: call.connector,
    method: call.method,
    argsText: call.argsText,
    status: failed ? "error" : "applied",
    resultText: failed ? null : (outcome.resultText ?? null),
    error: failed ? outcome.error : null,
    replay: "record",
    needsApproval: false,
    startedAt: call.startedAt,
    finishedAt: call.now,
    cost: call.cost ?? null,
  };
}

function update(
  seq: number,
  status: "applied" | "error",
  resultText: string | null,
  error: string | null,
  now: number,
): CallRowWrite {
  return {
    kind: "call-row",
    mode: "update",
    seq,
    connector: "",
    method: "",
    argsText: "",
    status,
    resultText,
    error,
    replay: "record",
    needsApproval: false,
    startedAt: null,
    finishedAt: now,
    cost: null,
  };
}

/** A running call finished: `executing → applied` with its recorded result (absent for `reexecute`). */
export function applyCallStatement(seq: number, resultText: string | undefined, now: number): CallRowWrite {
  return update(seq, "applied", resultText ?? null, null, now);
}

/** A running call failed: `executing → error`; the error is replayed as a rejection on later passes. */
export function failCallStatement(seq: number, error: string, now: number): CallRowWrite {
  return update(seq, "error", null, error, now);
}

const ROW_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/**
 * One statement for several call-row writes: inserts new rows and moves
 * existing `executing` rows to `applied`/`error`, all guarded by the lease.
 * Changes exactly `rows.length` rows when every write applies. (An update whose
 * row is missing would insert it; rows only disappear with their execution,
 * and then the lease guard fails first.) Rows are a `VALUES` table: SQLite
 * prepares it faster than `SELECT … UNION ALL` (measured ~50 vs ~62 µs for the
 * usual two rows; `@libsql/client` prepares every statement anew, so this is
 * paid on every journal write).
 */
export function callRowsStatement(lease: PassLease, rows: CallRowWrite[]): InStatement {
  const args: InValue[] = [];
  for (const row of rows) {
    args.push(
      lease.runtime,
      lease.executionId,
      row.seq,
      RECORD_VERSION,
      row.connector,
      row.method,
      row.argsText,
      row.status,
      row.resultText,
      row.error,
      row.replay,
      row.needsApproval ? 1 : 0,
      row.startedAt,
      row.finishedAt,
      row.cost,
    );
  }
  args.push(...leaseArgs(lease));
  return { sql: callRowsSql(rows.length), args };
}

/** The upsert's text for each row count, built once: the same string each time lets a statement cache find it without rehashing it. */
const callRowsSqlByCount: string[] = [];

function callRowsSql(count: number): string {
  let sql = callRowsSqlByCount[count];
  if (sql === undefined) {
    sql = `INSERT INTO codemode_calls (runtime, execution_id, seq, record_version, connector, method, args, status, result, error, replay, requires_approval, started_at, finished_at, cost, replayed_count)
      SELECT *, 0 FROM (VALUES ${Array.from({ length: count }, () => ROW_VALUES).join(", ")}) WHERE ${LEASE_GUARD}
      ON CONFLICT (runtime, execution_id, seq) DO UPDATE SET status = excluded.status, result = excluded.result, error = excluded.error, finished_at = excluded.finished_at
      WHERE codemode_calls.status = 'executing' AND excluded.status IN ('applied', 'error')`;
    callRowsSqlByCount[count] = sql;
  }
  return sql;
}

/** An approved `pending` call starts: `pending → executing` (compare-and-set). */
export function startApprovedCallStatement(lease: PassLease, seq: number, now: number): InStatement {
  return {
    sql: `UPDATE codemode_calls SET status = 'executing', started_at = ?
      WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'pending' AND approved_at IS NOT NULL AND ${LEASE_GUARD}`,
    args: [now, lease.runtime, lease.executionId, seq, ...leaseArgs(lease)],
  };
}

/**
 * Removes a `codemode.step` row that a pause interrupted (`executing`, begun in this pass): the step did not
 * finish, so the resumed pass runs it again (its own journaled calls replay from the journal).
 */
export function dropInterruptedStepStatement(lease: PassLease, seq: number): InStatement {
  return {
    sql: `DELETE FROM codemode_calls
      WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'executing' AND ${LEASE_GUARD}`,
    args: [lease.runtime, lease.executionId, seq, ...leaseArgs(lease)],
  };
}

/** Approved calls the pass never started (`pending`, approved) become `error` with `reason`. */
export function failUnreachedApprovalsStatement(
  lease: PassLease,
  seqs: number[],
  reason: string,
  now: number,
): InStatement {
  return {
    sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?
      WHERE runtime = ? AND execution_id = ? AND seq IN (SELECT value FROM json_each(?)) AND status = 'pending'
        AND approved_at IS NOT NULL AND ${LEASE_GUARD}`,
    args: [reason, now, lease.runtime, lease.executionId, JSON.stringify(seqs), ...leaseArgs(lease)],
  };
}

/** Counts one more replay for each listed call (one statement for the whole pass). */
export function countReplaysStatement(lease: PassLease, seqs: number[]): InStatement {
  return {
    sql: `UPDATE codemode_calls SET replayed_count = replayed_count + 1
      WHERE runtime = ? AND execution_id = ? AND seq IN (SELECT value FROM json_each(?)) AND ${LEASE_GUARD}`,
    args: [lease.runtime, lease.executionId, JSON.stringify(seqs), ...leaseArgs(lease)],
  };
}

/** Extends the pass's lease. */
export function renewLeaseStatement(lease: PassLease, leaseUntil: number): InStatement {
  return {
    sql: `UPDATE codemode_executions SET lease_until = ?
      WHERE runtime = ? AND id = ? AND lease_token = ? AND status = 'running'`,
    args: [leaseUntil, lease.runtime, lease.executionId, lease.leaseToken],
  };
}

/** Ends the pass: `running → paused | completed | error` (compare-and-set on status and lease). */
export function finishPassStatement(lease: PassLease, end: PassEnd): InStatement {
  return {
    sql: `UPDATE codemode_executions SET status = ?, result = ?, logs = ?, error = ?, kind = ?, updated_at = ?,
        lease_token = NULL, lease_until = NULL, modules = COALESCE(?, modules)
      WHERE runtime = ? AND id = ? AND lease_token = ? AND status = 'running'`,
    args: [
      end.status,
      end.resultText ?? null,
      JSON.stringify(end.logs),
      end.error ?? null,
      end.kind ?? null,
      end.now,
      end.modulesText ?? null,
      lease.runtime,
      lease.executionId,
      lease.leaseToken,
    ],
  };
}
