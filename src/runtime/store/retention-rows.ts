/**
 * The retention operations of the libSQL store: delete one execution, prune terminal ones beyond a count,
 * expire stale runs, destroy a runtime name's data. See `journal-store.ts` for the contract.
 */
import type { InStatement } from "@libsql/client";
import type { RetentionStore } from "../journal/journal-store.js";
import { dropModuleSourcesStatement } from "./module-source-rows.js";
import { idsOf, TERMINAL_SQL, type StoreContext } from "./store-context.js";

function olderTerminal(runtime: string, keep: number): { sql: string; args: [string, number] } {
  return {
    sql: `SELECT id FROM codemode_executions WHERE runtime = ? AND status IN ${TERMINAL_SQL}
      ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?`,
    args: [runtime, keep],
  };
}

/** Deletes terminal executions of `runtime` beyond the newest `keep`, their calls first. */
export function pruneStatements(runtime: string, keep: number): InStatement[] {
  const older = olderTerminal(runtime, keep);
  return [
    {
      sql: `DELETE FROM codemode_calls WHERE runtime = ? AND execution_id IN (${older.sql})`,
      args: [runtime, ...older.args],
    },
    {
      sql: `DELETE FROM codemode_executions WHERE runtime = ? AND id IN (${older.sql}) RETURNING id`,
      args: [runtime, ...older.args],
    },
  ];
}

const INTERRUPTED_CALL =
  "interrupted: the process running this call stopped before recording its outcome; it is not run again";

/** The retention operations over `context`. */
export function retentionRows({ runtime, write }: StoreContext): RetentionStore {
  const prune = async (keep: number): Promise<string[]> => {
    const [, deleted] = await write(pruneStatements(runtime, keep));
    return idsOf(deleted);
  };
  return {
    async deleteExecution(executionId) {
      const [, deleted] = await write([
        { sql: "DELETE FROM codemode_calls WHERE runtime = ? AND execution_id = ?", args: [runtime, executionId] },
        {
          sql: "DELETE FROM codemode_executions WHERE runtime = ? AND id = ? RETURNING id",
          args: [runtime, executionId],
        },
      ]);
      return idsOf(deleted).length === 1;
    },

    prune,
    clearHistory: () => prune(0),

    async expire({ now: at, pausedBefore, runningMessage, pausedMessage }) {
      const staleRunning =
        "SELECT id FROM codemode_executions WHERE runtime = ? AND status = 'running' AND lease_until < ?";
      const stalePaused =
        "SELECT id FROM codemode_executions WHERE runtime = ? AND status = 'paused' AND updated_at < ?";
      const results = await write([
        {
          sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?
            WHERE runtime = ? AND status = 'executing' AND execution_id IN (${staleRunning})`,
          args: [INTERRUPTED_CALL, at, runtime, runtime, at],
        },
        {
          sql: `UPDATE codemode_calls SET status = 'error', error = ?, finished_at = ?
            WHERE runtime = ? AND status = 'pending' AND execution_id IN (${stalePaused})`,
          args: [pausedMessage, at, runtime, runtime, pausedBefore],
        },
        {
          sql: `UPDATE codemode_executions SET status = 'error', kind = 'expired', error = ?, updated_at = ?, lease_token = NULL,
              lease_until = NULL
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

    async destroy() {
      const results = await write([
        {
          sql: `SELECT id FROM codemode_executions WHERE runtime = ? AND status NOT IN ${TERMINAL_SQL}`,
          args: [runtime],
        },
        { sql: "DELETE FROM codemode_calls WHERE runtime = ?", args: [runtime] },
        { sql: "DELETE FROM codemode_executions WHERE runtime = ?", args: [runtime] },
        { sql: "DELETE FROM codemode_snippets WHERE runtime = ?", args: [runtime] },
        dropModuleSourcesStatement(runtime),
      ]);
      return idsOf(results[0]);
    },
  };
}
