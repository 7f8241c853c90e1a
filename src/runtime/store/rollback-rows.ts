/**
 * The rollback operations of the libSQL store: a lease on an ended execution, and each revert marked before and
 * after it runs, every write guarded by that lease. See `journal-store.ts` for the contract.
 */
import type { RollbackStore } from "../journal/journal-store.js";
import type { StoreContext } from "./store-context.js";

const HOLDS_LEASE = "EXISTS (SELECT 1 FROM codemode_executions WHERE runtime = ? AND id = ? AND lease_token = ?)";

/** The rollback operations over `context`. */
export function rollbackRows({ runtime, execute }: StoreContext): RollbackStore {
  return {
    async claimForRollback(claim) {
      const result = await execute({
        sql: `UPDATE codemode_executions SET lease_token = ?, lease_until = ?
          WHERE runtime = ? AND id = ? AND status = ? AND (lease_token IS NULL OR lease_until < ?)`,
        args: [claim.token, claim.leaseUntil, runtime, claim.executionId, claim.status, claim.now],
      });
      return result.rowsAffected === 1;
    },

    async markReverting(mark) {
      const result = await execute({
        sql: `UPDATE codemode_calls SET error = ?
          WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'applied' AND error IS NULL AND ${HOLDS_LEASE}`,
        args: [mark.note, runtime, mark.executionId, mark.seq, runtime, mark.executionId, mark.token],
      });
      return result.rowsAffected === 1;
    },

    async clearReverting(mark) {
      await execute({
        sql: `UPDATE codemode_calls SET error = NULL
          WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'applied' AND ${HOLDS_LEASE}`,
        args: [runtime, mark.executionId, mark.seq, runtime, mark.executionId, mark.token],
      });
    },

    async markReverted(mark) {
      const result = await execute({
        sql: `UPDATE codemode_calls SET status = 'reverted', error = NULL, finished_at = ?
          WHERE runtime = ? AND execution_id = ? AND seq = ? AND status = 'applied' AND ${HOLDS_LEASE}`,
        args: [mark.now, runtime, mark.executionId, mark.seq, runtime, mark.executionId, mark.token],
      });
      return result.rowsAffected === 1;
    },

    async finishRollback(finish) {
      await execute({
        // A rollback that reverted nothing leaves the execution as it was, its last update included.
        sql: `UPDATE codemode_executions SET status = CASE WHEN ? THEN 'rolled_back' ELSE status END,
            updated_at = CASE WHEN ? THEN ? ELSE updated_at END, lease_token = NULL, lease_until = NULL
          WHERE runtime = ? AND id = ? AND lease_token = ?`,
        args: [
          finish.rolledBack ? 1 : 0,
          finish.rolledBack ? 1 : 0,
          finish.now,
          runtime,
          finish.executionId,
          finish.token,
        ],
      });
    },
  };
}
