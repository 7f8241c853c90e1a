/**
 * The execution operations of the libSQL store: start, load, approval claim, rejection, listings, and the journal
 * of a pass (`libsql-pass-journal.ts`). See `journal-store.ts` for the contract.
 */
import type { ExecutionStore } from "../journal/journal-store.js";
import { libsqlPassJournal } from "./libsql-pass-journal.js";
import { parseCallRow, parseExecutionRow } from "./record-validation.js";
import type { InStatement } from "./connection/sql-client.js";
import type { StartExecution } from "../journal/journal-store.js";
import { RECORD_VERSION, WHOLE_PROGRAM_SEQ } from "../journal/records.js";
import { readModuleSources } from "./module-source-rows.js";
import { pruneAtStartStatements } from "./retention-rows.js";
import { listSnippetsStatement, snippetsOf } from "./snippet-rows.js";
import type { StoreContext } from "./store-context.js";

/** The execution operations over `context`. */
export function executionRows(context: StoreContext): ExecutionStore {
  const { client, runtime, read, write } = context;
  return {
    async startExecution(start) {
      const awaiting = start.programApproval !== undefined;
      const results = await write([
        {
          sql: `INSERT INTO codemode_executions (runtime, id, record_version, status, code, connectors, created_at,
              updated_at, passes, logs, lease_token, lease_until, tool_call_id, scope, trace_context, budgets)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?, ?, ?)`,
          args: [
            runtime,
            start.executionId,
            RECORD_VERSION,
            awaiting ? "paused" : "running",
            start.code,
            JSON.stringify(start.connectors),
            start.now,
            start.now,
            awaiting ? 0 : 1,
            awaiting ? null : start.leaseToken,
            awaiting ? null : start.leaseUntil,
            start.toolCallId ?? null,
            start.scope ?? null,
            start.traceContext ?? null,
            start.budgetsText ?? null,
          ],
        },
        ...(start.programApproval === undefined
          ? []
          : [programApprovalRow(runtime, start.executionId, start.programApproval)]),
        ...pruneAtStartStatements(start.prune, runtime, start.scope),
        listSnippetsStatement(runtime),
      ]);
      return snippetsOf(results[results.length - 1]);
    },

    async load(executionId) {
      const [executions, calls] = await read([
        { sql: "SELECT * FROM codemode_executions WHERE runtime = ? AND id = ?", args: [runtime, executionId] },
        {
          sql: "SELECT * FROM codemode_calls WHERE runtime = ? AND execution_id = ? ORDER BY seq",
          args: [runtime, executionId],
        },
      ]);
      const row = executions?.rows[0];
      if (row === undefined) return undefined;
      return { execution: parseExecutionRow(row), calls: (calls?.rows ?? []).map(parseCallRow) };
    },

    async claimPaused(claim) {
      const results = await write([
        {
          sql: `UPDATE codemode_executions SET status = 'running', lease_token = ?, lease_until = ?, passes = passes + 1,
              updated_at = ?
            WHERE runtime = ? AND id = ? AND status = 'paused' AND passes = ?`,
          args: [claim.leaseToken, claim.leaseUntil, claim.now, runtime, claim.executionId, claim.passes],
        },
        ...(claim.decisions === undefined
          ? [
              {
                sql: `UPDATE codemode_calls SET approved_at = ?, decided_by = ?
            WHERE runtime = ? AND execution_id = ? AND status = 'pending' AND approved_at IS NULL AND (? IS NULL OR seq = ?)
              AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
                args: [
                  claim.now,
                  claim.decidedBy ?? null,
                  runtime,
                  claim.executionId,
                  claim.seq ?? null,
                  claim.seq ?? null,
                  runtime,
                  claim.executionId,
                  claim.leaseToken,
                ],
              },
            ]
          : decisionStatements(runtime, { ...claim, decisions: claim.decisions })),
        ...editStatements(runtime, { ...claim, edits: claim.edits ?? [] }),
        {
          // An approved whole-program row has nothing to run: it is applied as part of the claim.
          sql: `UPDATE codemode_calls SET status = 'applied', started_at = ?, finished_at = ?
            WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'pending' AND approved_at = ?
              AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
          args: [
            claim.now,
            claim.now,
            runtime,
            claim.executionId,
            WHOLE_PROGRAM_SEQ,
            claim.now,
            runtime,
            claim.executionId,
            claim.leaseToken,
          ],
        },
        listSnippetsStatement(runtime),
      ]);
      // The compare-and-set is the first statement; the snippets are read last.
      return (results[0]?.rowsAffected ?? 0) === 1 ? snippetsOf(results[results.length - 1]) : undefined;
    },

    async claimAbandoned(claim) {
      const results = await write([
        {
          sql: `UPDATE codemode_executions SET lease_token = ?, lease_until = ?, passes = passes + 1, updated_at = ?
            WHERE runtime = ? AND id = ? AND status = 'running' AND passes = ? AND lease_until < ?`,
          args: [claim.leaseToken, claim.leaseUntil, claim.now, runtime, claim.executionId, claim.passes, claim.now],
        },
        listSnippetsStatement(runtime),
      ]);
      return (results[0]?.rowsAffected ?? 0) === 1 ? snippetsOf(results[results.length - 1]) : undefined;
    },

    async rejectPaused(reject) {
      const [cas] = await write([
        {
          sql: `UPDATE codemode_executions SET status = 'rejected', error = ?, kind = 'rejected', updated_at = ?, lease_token = ?,
              lease_until = NULL
            WHERE runtime = ? AND id = ? AND status = 'paused'`,
          args: [reject.reason, reject.now, reject.token, runtime, reject.executionId],
        },
        {
          sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?, decided_by = ?
            WHERE runtime = ? AND execution_id = ? AND status = 'pending'
              AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
          args: [
            reject.reason,
            reject.now,
            reject.decidedBy ?? null,
            runtime,
            reject.executionId,
            runtime,
            reject.executionId,
            reject.token,
          ],
        },
        {
          sql: "UPDATE codemode_executions SET lease_token = NULL WHERE runtime = ? AND id = ? AND lease_token = ?",
          args: [runtime, reject.executionId, reject.token],
        },
      ]);
      return (cas?.rowsAffected ?? 0) === 1;
    },

    moduleSources: (digests) => readModuleSources(context, digests),

    async list(limit, scope) {
      // Two statements, not `(? IS NULL OR scope = ?)`: each walks its own index (`migrations.ts`, version 10) and
      // stops after `limit` rows, where the combined form would sort the runtime's whole history.
      const [result] = await read([
        scope === undefined
          ? {
              sql: "SELECT * FROM codemode_executions WHERE runtime = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
              args: [runtime, limit],
            }
          : {
              sql: `SELECT * FROM codemode_executions WHERE runtime = ? AND scope = ?
                ORDER BY created_at DESC, rowid DESC LIMIT ?`,
              args: [runtime, scope, limit],
            },
      ]);
      return (result?.rows ?? []).map(parseExecutionRow);
    },

    async pending(executionId, scope) {
      // One execution: its calls by primary key. All: the paused executions by their status index, then each one's
      // calls. Either way the rows read are the paused ones', never every call of the runtime.
      const owner = scope === undefined ? "" : "AND e.scope = ?";
      const [result] = await read([
        executionId === undefined
          ? {
              // CROSS JOIN: SQLite keeps this order (executions first), which the planner, without statistics, does not pick.
              sql: `SELECT c.* FROM codemode_executions e CROSS JOIN codemode_calls c ON c.runtime = e.runtime AND c.execution_id = e.id
                WHERE e.runtime = ? AND e.status = 'paused' ${owner} AND c.status = 'pending' AND c.approved_at IS NULL
                ORDER BY e.created_at, c.execution_id, c.seq`,
              args: [runtime, ...(scope === undefined ? [] : [scope])],
            }
          : {
              sql: `SELECT c.* FROM codemode_calls c JOIN codemode_executions e ON e.runtime = c.runtime AND e.id = c.execution_id
                WHERE c.runtime = ? AND c.execution_id = ? AND e.status = 'paused' ${owner} AND c.status = 'pending'
                  AND c.approved_at IS NULL
                ORDER BY c.seq`,
              args: [runtime, executionId, ...(scope === undefined ? [] : [scope])],
            },
      ]);
      return (result?.rows ?? []).map((row) => ({ executionId: String(row["execution_id"]), call: parseCallRow(row) }));
    },

    passJournal: (lease) => libsqlPassJournal(client, lease),
  };
}

/** The pending whole-program row of an execution that starts awaiting approval (`program-approval.ts`). */
function programApprovalRow(
  runtime: string,
  executionId: string,
  row: NonNullable<StartExecution["programApproval"]>,
): InStatement {
  return {
    sql: `INSERT INTO codemode_calls (runtime, execution_id, seq, record_version, connector, method, args, status, replay,
        requires_approval) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 'record', 1)`,
    args: [runtime, executionId, WHOLE_PROGRAM_SEQ, RECORD_VERSION, row.connector, row.method, row.argsText],
  };
}

/**
 * The approver's arguments written onto the calls the claim approved (approved at the claim's instant, under its
 * lease): an edit can only land on a call this claim approved, never on another call or execution.
 */
function editStatements(
  runtime: string,
  claim: {
    executionId: string;
    leaseToken: string;
    now: number;
    edits: Array<{ seq: number; argsText: string; cost?: number }>;
  },
): InStatement[] {
  // The cost of the arguments that will run replaces the program's (an edit may only lower it).
  return claim.edits.map(({ seq, argsText, cost }) => ({
    sql: `UPDATE codemode_calls SET approved_args = ?, cost = COALESCE(?, cost)
      WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'pending' AND approved_at = ?
        AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
    args: [
      argsText,
      cost ?? null,
      runtime,
      claim.executionId,
      seq,
      claim.now,
      runtime,
      claim.executionId,
      claim.leaseToken,
    ],
  }));
}

/** The per-call writes of a claim that decides several pending calls (each guarded by the claim's new lease). */
function decisionStatements(
  runtime: string,
  claim: {
    executionId: string;
    leaseToken: string;
    now: number;
    decisions: { approve: number[]; reject: Array<{ seq: number; error: string }> };
    decidedBy?: string;
  },
): InStatement[] {
  const guard = "AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)";
  const owner = [runtime, claim.executionId, claim.leaseToken];
  const decidedBy = claim.decidedBy ?? null;
  return [
    ...claim.decisions.approve.map((seq) => ({
      sql: `UPDATE codemode_calls SET approved_at = ?, decided_by = ?
        WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'pending' AND approved_at IS NULL ${guard}`,
      args: [claim.now, decidedBy, runtime, claim.executionId, seq, ...owner],
    })),
    ...claim.decisions.reject.map(({ seq, error }) => ({
      sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?, decided_by = ?
        WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'pending' AND approved_at IS NULL ${guard}`,
      args: [error, claim.now, decidedBy, runtime, claim.executionId, seq, ...owner],
    })),
  ];
}
