/**
 * The retention operations of the libSQL store: delete one execution, prune terminal ones beyond a count,
 * expire stale runs, destroy a runtime name's data. See `journal-store.ts` for the contract.
 */
import type { InStatement } from "@libsql/client";
import type { RetentionStore } from "../journal/journal-store.js";
import { RETRY_HOLD_MS, RETRY_HOLD_TOOL_CALL_PREFIX } from "../journal/records.js";
import { dropModuleSourcesStatement } from "./module-source-rows.js";
import { idsOf, TERMINAL_SQL, type StoreContext } from "./store-context.js";

/**
 * Terminal executions beyond the newest `keep`, but those a retry may still ask for: started for one
 * ({@link RETRY_HOLD_TOOL_CALL_PREFIX}), paused for a person (a call that required approval; one that never paused
 * gave out no retry id), and changed since `heldSince`.
 */
function olderTerminal(
  runtime: string,
  keep: number,
  heldSince: number | undefined,
): { sql: string; args: Array<string | number | null> } {
  return {
    sql: `SELECT id FROM (SELECT id, tool_call_id, updated_at FROM codemode_executions
        WHERE runtime = ? AND status IN ${TERMINAL_SQL} ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?) AS tail
      WHERE ? IS NULL OR tool_call_id IS NULL OR substr(tool_call_id, 1, ?) <> ? OR updated_at < ?
        OR NOT EXISTS (SELECT 1 FROM codemode_calls
          WHERE runtime = ? AND execution_id = tail.id AND requires_approval = 1)`,
    args: [
      runtime,
      keep,
      heldSince ?? null,
      RETRY_HOLD_TOOL_CALL_PREFIX.length,
      RETRY_HOLD_TOOL_CALL_PREFIX,
      heldSince ?? null,
      runtime,
    ],
  };
}

/**
 * Deletes terminal executions of `runtime` beyond the newest `keep`, their calls first. With `now`, one a client
 * may still retry for (tool call id {@link RETRY_HOLD_TOOL_CALL_PREFIX}, paused for a person, changed within
 * {@link RETRY_HOLD_MS}) stays.
 */
export function pruneStatements(runtime: string, keep: number, now?: number): InStatement[] {
  const older = olderTerminal(runtime, keep, now === undefined ? undefined : now - RETRY_HOLD_MS);
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
  const prune = async (keep: number, now?: number): Promise<string[]> => {
    const [, deleted] = await write(pruneStatements(runtime, keep, now));
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
    // Everything ended goes: the app asked to clear it, retries included.
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
