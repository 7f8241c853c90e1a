/**
 * Statement builders for call rows. Every write is guarded by the execution's
 * lease token: a pass whose lease was taken away (expired and claimed by
 * `expirePaused`, say) changes nothing, and sees zero affected rows.
 */
import type { InStatement } from "@libsql/client";
import { RECORD_VERSION } from "./records.js";

/** Identifies the pass writing: runtime name, execution and the lease it holds. */
export interface PassLease {
  runtime: string;
  executionId: string;
  leaseToken: string;
}

const LEASE_GUARD =
  "EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ? AND status = 'running')";

function leaseArgs(lease: PassLease): [string, string, string] {
  return [lease.runtime, lease.executionId, lease.leaseToken];
}

/** A new call row, `executing` (about to run) or `pending` (waiting for approval), or a `reexecute` log row (`applied`, no result). */
export function insertCallStatement(
  lease: PassLease,
  call: {
    seq: number;
    connector: string;
    method: string;
    argsText: string;
    status: "executing" | "pending" | "applied";
    replay: "record" | "reexecute";
    requiresApproval: boolean;
    now: number;
  },
): InStatement {
  return {
    sql: `INSERT INTO codemode_calls (runtime, execution_id, seq, record_version, connector, method, args, status, replay, requires_approval, started_at, finished_at, replayed_count)
      SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0 WHERE ${LEASE_GUARD}`,
    args: [
      lease.runtime, lease.executionId, call.seq, RECORD_VERSION, call.connector, call.method, call.argsText,
      call.status, call.replay, call.requiresApproval ? 1 : 0,
      call.status === "pending" ? null : call.now, call.status === "applied" ? call.now : null,
      ...leaseArgs(lease),
    ],
  };
}

/** An approved `pending` call starts: `pending → executing` (compare-and-set). */
export function startApprovedCallStatement(lease: PassLease, seq: number, now: number): InStatement {
  return {
    sql: `UPDATE codemode_calls SET status = 'executing', started_at = ?
      WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'pending' AND approved_at IS NOT NULL AND ${LEASE_GUARD}`,
    args: [now, lease.runtime, lease.executionId, seq, ...leaseArgs(lease)],
  };
}

/** A running call finished: `executing → applied` with its recorded result (absent for `reexecute`). */
export function applyCallStatement(lease: PassLease, seq: number, resultText: string | undefined, now: number): InStatement {
  return {
    sql: `UPDATE codemode_calls SET status = 'applied', result = ?, finished_at = ?
      WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'executing' AND ${LEASE_GUARD}`,
    args: [resultText ?? null, now, lease.runtime, lease.executionId, seq, ...leaseArgs(lease)],
  };
}

/** A running call failed: `executing → error`; the error is replayed as a rejection on later passes. */
export function failCallStatement(lease: PassLease, seq: number, error: string, now: number): InStatement {
  return {
    sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?
      WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'executing' AND ${LEASE_GUARD}`,
    args: [error, now, lease.runtime, lease.executionId, seq, ...leaseArgs(lease)],
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
export function finishPassStatement(
  lease: PassLease,
  end: {
    status: "paused" | "completed" | "error";
    resultText?: string;
    logs: string[];
    error?: string;
    kind?: string;
    now: number;
  },
): InStatement {
  return {
    sql: `UPDATE codemode_executions SET status = ?, result = ?, logs = ?, error = ?, kind = ?, updated_at = ?,
        lease_token = NULL, lease_until = NULL
      WHERE runtime = ? AND id = ? AND lease_token = ? AND status = 'running'`,
    args: [
      end.status, end.resultText ?? null, JSON.stringify(end.logs), end.error ?? null, end.kind ?? null, end.now,
      lease.runtime, lease.executionId, lease.leaseToken,
    ],
  };
}
