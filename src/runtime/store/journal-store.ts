/**
 * Every SQL statement the runtime runs outside a pass's call journal: starting,
 * claiming, rejecting and listing executions, retention and snippets. Single
 * statements and `batch()` only (no interactive transactions), so each
 * operation is one round trip against a remote database. All rows are scoped
 * by runtime name; every status change is a compare-and-set whose affected
 * row count is checked.
 */
import type { InStatement } from "@libsql/client";
import type { SqlClient, SqlResult } from "./sql-client.js";
import type { ExecutionStatus } from "../types.js";
import { migrateStore } from "./migrations.js";
import { RECORD_VERSION, TERMINAL_EXECUTION_STATUSES, type CallJournalRecord, type ExecutionRecord, type SnippetRecord } from "./records.js";
import { parseCallRow, parseExecutionRow, parseSnippetRow } from "./record-validation.js";

const TERMINAL = `(${TERMINAL_EXECUTION_STATUSES.map((status) => `'${status}'`).join(", ")})`;

/** The execution and its whole call log, read in one batch. */
export interface LoadedExecution {
  execution: ExecutionRecord;
  calls: CallJournalRecord[];
}

/** An execution ended by `expirePaused`. */
export interface ExpiredExecution {
  executionId: string;
  status: "rejected" | "error";
}

/** The store operations of one runtime name. */
export type JournalStore = ReturnType<typeof createJournalStore>;

function olderTerminal(runtime: string, keep: number): { sql: string; args: [string, number] } {
  return {
    sql: `SELECT id FROM codemode_executions WHERE runtime = ? AND status IN ${TERMINAL} ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?`,
    args: [runtime, keep],
  };
}

function pruneStatements(runtime: string, keep: number): InStatement[] {
  const older = olderTerminal(runtime, keep);
  return [
    { sql: `DELETE FROM codemode_calls WHERE runtime = ? AND execution_id IN (${older.sql})`, args: [runtime, ...older.args] },
    { sql: `DELETE FROM codemode_executions WHERE runtime = ? AND id IN (${older.sql}) RETURNING id`, args: [runtime, ...older.args] },
  ];
}

function idsOf(result: SqlResult | undefined): string[] {
  return (result?.rows ?? []).map((row) => String(row["id"]));
}

/** Creates the store operations for `runtime` on `client`; the schema is migrated on first use. */
export function createJournalStore({ client, runtime, local, now }: { client: SqlClient; runtime: string; local: boolean; now: () => number }) {
  let ready: Promise<void> | undefined;
  const migrate = (): Promise<void> => {
    ready ??= migrateStore(client, { local, now: now() }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  const write = async (statements: InStatement[]): Promise<SqlResult[]> => {
    await migrate();
    return client.batch(statements, "write");
  };
  const read = async (statements: InStatement[]): Promise<SqlResult[]> => {
    await migrate();
    return client.batch(statements, "read");
  };

  return {
    client,
    runtime,
    migrate,

    /** Inserts a `running` execution under a lease, then prunes terminal executions beyond `keep` (one batch). */
    async startExecution(start: {
      executionId: string; code: string; connectors: string[]; now: number; leaseToken: string; leaseUntil: number;
      toolCallId?: string; keep: number;
    }): Promise<void> {
      await write([
        {
          sql: `INSERT INTO codemode_executions (runtime, id, record_version, status, code, connectors, created_at, updated_at, passes, logs, lease_token, lease_until, tool_call_id)
            VALUES (?, ?, ?, 'running', ?, ?, ?, ?, 1, '[]', ?, ?, ?)`,
          args: [runtime, start.executionId, RECORD_VERSION, start.code, JSON.stringify(start.connectors), start.now, start.now,
            start.leaseToken, start.leaseUntil, start.toolCallId ?? null],
        },
        ...pruneStatements(runtime, start.keep),
      ]);
    },

    /** Reads an execution and its whole call log in one batch (a constant number of queries). */
    async load(executionId: string): Promise<LoadedExecution | undefined> {
      const [executions, calls] = await read([
        { sql: "SELECT * FROM codemode_executions WHERE runtime = ? AND id = ?", args: [runtime, executionId] },
        { sql: "SELECT * FROM codemode_calls WHERE runtime = ? AND execution_id = ? ORDER BY seq", args: [runtime, executionId] },
      ]);
      const row = executions?.rows[0];
      if (row === undefined) return undefined;
      return { execution: parseExecutionRow(row), calls: (calls?.rows ?? []).map(parseCallRow) };
    },

    /**
     * Approval: `paused → running` under a new lease (compare-and-set), and marks the
     * approved pending call(s) in the same batch, guarded by that lease.
     * @returns false when another invocation changed the execution first.
     */
    async claimPaused(claim: { executionId: string; leaseToken: string; leaseUntil: number; now: number; seq?: number }): Promise<boolean> {
      const [cas] = await write([
        {
          sql: `UPDATE codemode_executions SET status = 'running', lease_token = ?, lease_until = ?, passes = passes + 1, updated_at = ?
            WHERE runtime = ? AND id = ? AND status = 'paused'`,
          args: [claim.leaseToken, claim.leaseUntil, claim.now, runtime, claim.executionId],
        },
        {
          sql: `UPDATE codemode_calls SET approved_at = ?
            WHERE runtime = ? AND execution_id = ? AND status = 'pending' AND approved_at IS NULL AND (? IS NULL OR seq = ?)
              AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
          args: [claim.now, runtime, claim.executionId, claim.seq ?? null, claim.seq ?? null, runtime, claim.executionId, claim.leaseToken],
        },
      ]);
      return (cas?.rowsAffected ?? 0) === 1;
    },

    /** Rejection: `paused → rejected` (compare-and-set); the pending calls become `error` in the same batch. */
    async rejectPaused(reject: { executionId: string; token: string; now: number; reason: string }): Promise<boolean> {
      const [cas] = await write([
        {
          sql: `UPDATE codemode_executions SET status = 'rejected', error = ?, kind = 'rejected', updated_at = ?, lease_token = ?, lease_until = NULL
            WHERE runtime = ? AND id = ? AND status = 'paused'`,
          args: [reject.reason, reject.now, reject.token, runtime, reject.executionId],
        },
        {
          sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?
            WHERE runtime = ? AND execution_id = ? AND status = 'pending'
              AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
          args: [reject.reason, reject.now, runtime, reject.executionId, runtime, reject.executionId, reject.token],
        },
        {
          sql: "UPDATE codemode_executions SET lease_token = NULL WHERE runtime = ? AND id = ? AND lease_token = ?",
          args: [runtime, reject.executionId, reject.token],
        },
      ]);
      return (cas?.rowsAffected ?? 0) === 1;
    },

    /** Takes an ended execution for a rollback: sets a lease if none is live (compare-and-set on status too). */
    async claimForRollback(claim: { executionId: string; status: ExecutionStatus; token: string; leaseUntil: number; now: number }): Promise<boolean> {
      await migrate();
      const result = await client.execute({
        sql: `UPDATE codemode_executions SET lease_token = ?, lease_until = ?
          WHERE runtime = ? AND id = ? AND status = ? AND (lease_token IS NULL OR lease_until < ?)`,
        args: [claim.token, claim.leaseUntil, runtime, claim.executionId, claim.status, claim.now],
      });
      return result.rowsAffected === 1;
    },

    /**
     * Records, before its `revert` runs, that a rollback is reverting this applied call (its
     * `error` becomes `note`), guarded by the rollback's lease. A later rollback that finds the
     * note knows an earlier one died between the revert and its record, and does not revert again.
     * @returns false when the call is not applied, already marked, or the lease was lost.
     */
    async markReverting(mark: { executionId: string; token: string; seq: number; note: string }): Promise<boolean> {
      const result = await client.execute({
        sql: `UPDATE codemode_calls SET error = ?
          WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'applied' AND error IS NULL
            AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
        args: [mark.note, runtime, mark.executionId, mark.seq, runtime, mark.executionId, mark.token],
      });
      return result.rowsAffected === 1;
    },

    /** Clears the note of {@link markReverting} after a revert that failed (so a later rollback may try again). */
    async clearReverting(mark: { executionId: string; token: string; seq: number }): Promise<void> {
      await client.execute({
        sql: `UPDATE codemode_calls SET error = NULL
          WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'applied'
            AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
        args: [runtime, mark.executionId, mark.seq, runtime, mark.executionId, mark.token],
      });
    },

    /** Marks one call reverted (`applied → reverted`, its reverting note cleared), guarded by the rollback's lease. */
    async markReverted(mark: { executionId: string; token: string; seq: number; now: number }): Promise<boolean> {
      const result = await client.execute({
        sql: `UPDATE codemode_calls SET status = 'reverted', error = NULL, finished_at = ?
          WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'applied'
            AND EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)`,
        args: [mark.now, runtime, mark.executionId, mark.seq, runtime, mark.executionId, mark.token],
      });
      return result.rowsAffected === 1;
    },

    /** Ends a rollback: releases the lease, moving to `rolled_back` when something was reverted. */
    async finishRollback(finish: { executionId: string; token: string; rolledBack: boolean; now: number }): Promise<void> {
      await client.execute({
        sql: `UPDATE codemode_executions SET status = CASE WHEN ? THEN 'rolled_back' ELSE status END,
            updated_at = ?, lease_token = NULL, lease_until = NULL
          WHERE runtime = ? AND id = ? AND lease_token = ?`,
        args: [finish.rolledBack ? 1 : 0, finish.now, runtime, finish.executionId, finish.token],
      });
    },

    /** Newest executions first. */
    async list(limit: number): Promise<ExecutionRecord[]> {
      const [result] = await read([
        { sql: "SELECT * FROM codemode_executions WHERE runtime = ? ORDER BY created_at DESC, rowid DESC LIMIT ?", args: [runtime, limit] },
      ]);
      return (result?.rows ?? []).map(parseExecutionRow);
    },

    /** Unapproved pending calls of paused executions (of one, or all). */
    async pending(executionId?: string): Promise<Array<{ executionId: string; call: CallJournalRecord }>> {
      const [result] = await read([
        {
          sql: `SELECT c.* FROM codemode_calls c JOIN codemode_executions e ON e.runtime = c.runtime AND e.id = c.execution_id
            WHERE c.runtime = ? AND e.status = 'paused' AND c.status = 'pending' AND c.approved_at IS NULL AND (? IS NULL OR c.execution_id = ?)
            ORDER BY e.created_at, c.execution_id, c.seq`,
          args: [runtime, executionId ?? null, executionId ?? null],
        },
      ]);
      return (result?.rows ?? []).map((row) => ({ executionId: String(row["execution_id"]), call: parseCallRow(row) }));
    },

    /** Deletes one execution and its calls. @returns whether it existed. */
    async deleteExecution(executionId: string): Promise<boolean> {
      const [, deleted] = await write([
        { sql: "DELETE FROM codemode_calls WHERE runtime = ? AND execution_id = ?", args: [runtime, executionId] },
        { sql: "DELETE FROM codemode_executions WHERE runtime = ? AND id = ? RETURNING id", args: [runtime, executionId] },
      ]);
      return idsOf(deleted).length === 1;
    },

    /** Deletes terminal executions beyond the newest `keep`. @returns the deleted ids. */
    async prune(keep: number): Promise<string[]> {
      const [, deleted] = await write(pruneStatements(runtime, keep));
      return idsOf(deleted);
    },

    /** Deletes every terminal execution. @returns the deleted ids. */
    async clearHistory(): Promise<string[]> {
      return this.prune(0);
    },

    /**
     * Ends stale runs in one batch: running runs whose lease expired → `error`
     * (their `executing` calls → `error`, never re-run); paused runs not touched
     * since `pausedBefore` → `rejected` (their pending calls → `error`).
     */
    async expire({ now: at, pausedBefore, runningMessage, pausedMessage }: { now: number; pausedBefore: number; runningMessage: string; pausedMessage: string }): Promise<ExpiredExecution[]> {
      const staleRunning = "SELECT id FROM codemode_executions WHERE runtime = ? AND status = 'running' AND lease_until < ?";
      const stalePaused = "SELECT id FROM codemode_executions WHERE runtime = ? AND status = 'paused' AND updated_at < ?";
      const results = await write([
        {
          sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ? WHERE runtime = ? AND status = 'executing' AND execution_id IN (${staleRunning})`,
          args: ["interrupted: the process running this call stopped before recording its outcome; it is not run again", at, runtime, runtime, at],
        },
        {
          sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ? WHERE runtime = ? AND status = 'pending' AND execution_id IN (${stalePaused})`,
          args: [pausedMessage, at, runtime, runtime, pausedBefore],
        },
        {
          sql: `UPDATE codemode_executions SET status = 'error', kind = 'expired', error = ?, updated_at = ?, lease_token = NULL, lease_until = NULL
            WHERE runtime = ? AND status = 'running' AND lease_until < ? RETURNING id`,
          args: [runningMessage, at, runtime, at],
        },
        {
          sql: `UPDATE codemode_executions SET status = 'rejected', kind = 'expired', error = ?, updated_at = ?
            WHERE runtime = ? AND status = 'paused' AND updated_at < ? RETURNING id`,
          args: [pausedMessage, at, runtime, pausedBefore],
        },
      ]);
      return [
        ...idsOf(results[2]).map((executionId) => ({ executionId, status: "error" as const })),
        ...idsOf(results[3]).map((executionId) => ({ executionId, status: "rejected" as const })),
      ];
    },

    /** Drops every row of this runtime name. @returns the ids of executions that had not ended. */
    async destroy(): Promise<string[]> {
      const results = await write([
        { sql: `SELECT id FROM codemode_executions WHERE runtime = ? AND status NOT IN ${TERMINAL}`, args: [runtime] },
        { sql: "DELETE FROM codemode_calls WHERE runtime = ?", args: [runtime] },
        { sql: "DELETE FROM codemode_executions WHERE runtime = ?", args: [runtime] },
        { sql: "DELETE FROM codemode_snippets WHERE runtime = ?", args: [runtime] },
      ]);
      return idsOf(results[0]);
    },

    /** Inserts or replaces a snippet. */
    async saveSnippet(snippet: SnippetRecord): Promise<void> {
      await write([
        {
          sql: `INSERT OR REPLACE INTO codemode_snippets (runtime, name, record_version, description, code, connectors, input_schema, execution_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          args: [runtime, snippet.name, RECORD_VERSION, snippet.description ?? null, snippet.code, JSON.stringify(snippet.connectors),
            snippet.inputSchemaText ?? null, snippet.executionId, snippet.createdAt],
        },
      ]);
    },

    /** All snippets, by name. */
    async snippets(): Promise<SnippetRecord[]> {
      const [result] = await read([{ sql: "SELECT * FROM codemode_snippets WHERE runtime = ? ORDER BY name", args: [runtime] }]);
      return (result?.rows ?? []).map(parseSnippetRow);
    },

    /** Deletes a snippet. @returns whether it existed. */
    async deleteSnippet(name: string): Promise<boolean> {
      const [result] = await write([{ sql: "DELETE FROM codemode_snippets WHERE runtime = ? AND name = ? RETURNING name", args: [runtime, name] }]);
      return (result?.rows.length ?? 0) === 1;
    },
  };
}
