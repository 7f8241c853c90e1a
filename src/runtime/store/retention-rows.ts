/**
 * The retention operations of the libSQL store: delete one execution, prune ended ones by a rule (per owner and
 * by age, in bounded batches over partial indexes), expire stale runs, delete a runtime name's data. See
 * `journal-store.ts` for the contract.
 */
import type { InStatement, InValue } from "./connection/sql-client.js";
import type { PruneRule, RetentionStore } from "../journal/journal-store.js";
import { ENDED_SQL } from "./migrations.js";
import { dropModuleSourcesStatement } from "./module-source-rows.js";
import { idsOf, TERMINAL_SQL, type StoreContext } from "./store-context.js";

/**
 * The ids one part of `rule` selects: by count, the ended executions of `owner` past its newest
 * `rule.keepPerOwner`; by age, every owner's that ended before `rule.expiredBefore`. Oldest ended first, at most
 * `rule.limit`. Each is a walk of a partial index over ended rows (`migrations.ts`, version 10): the count finds the
 * owner's boundary row `keepPerOwner` steps from its newest, then deletes from its oldest; neither visits running
 * or paused rows nor the rest of the journal.
 */
function selectedIds(rule: PruneRule, runtime: string, part: PrunePart): { sql: string; args: InValue[] } {
  if (part.by === "age") {
    return {
      sql: `SELECT id FROM codemode_executions WHERE runtime = ? AND status IN ${ENDED_SQL} AND updated_at < ?
        ORDER BY updated_at, rowid LIMIT ?`,
      args: [runtime, Math.min(rule.endedBefore, rule.expiredBefore ?? rule.endedBefore), rule.limit],
    };
  }
  const owner = `runtime = ? AND scope IS ? AND status IN ${ENDED_SQL}`;
  const keep = rule.keepPerOwner ?? 0;
  // Keeping none (clearing an owner) has no boundary row.
  const beyond =
    keep === 0
      ? ""
      : `AND (updated_at, rowid) < (SELECT updated_at, rowid FROM codemode_executions WHERE ${owner}
          ORDER BY updated_at DESC, rowid DESC LIMIT 1 OFFSET ?)`;
  return {
    sql: `SELECT id FROM codemode_executions WHERE ${owner} AND updated_at < ? ${beyond}
      ORDER BY updated_at, rowid LIMIT ?`,
    args: [runtime, part.owner, rule.endedBefore, ...(keep === 0 ? [] : [runtime, part.owner, keep - 1]), rule.limit],
  };
}

/** One part of a prune rule: by count within one owner (`null`: executions without a scope), or by age. */
type PrunePart = { by: "count"; owner: string | null } | { by: "age" };

/** The parts of `rule` a run start of `owner` applies: its owner's count, and the age limit. */
function partsAtStart(rule: PruneRule, owner: string | null): PrunePart[] {
  return [
    ...(rule.keepPerOwner === undefined ? [] : [{ by: "count", owner } as const]),
    ...(rule.expiredBefore === undefined ? [] : [{ by: "age" } as const]),
  ];
}

/** Deletes what `part` of `rule` selects, the calls first; the second statement returns the deleted ids. */
function deleteStatements(rule: PruneRule, runtime: string, part: PrunePart): InStatement[] {
  const selected = selectedIds(rule, runtime, part);
  return [
    {
      sql: `DELETE FROM codemode_calls WHERE runtime = ? AND execution_id IN (${selected.sql})`,
      args: [runtime, ...selected.args],
    },
    {
      sql: `DELETE FROM codemode_executions WHERE runtime = ? AND id IN (${selected.sql}) RETURNING id`,
      args: [runtime, ...selected.args],
    },
  ];
}

/**
 * The statements a run start of `owner` adds to its insert batch: the bounded prune of that owner by count and of
 * the runtime by age. Each run adds at most one execution to its owner and removes up to `rule.limit`, so the
 * journal converges to the rule without any run paying for the size of the journal.
 */
export function pruneAtStartStatements(rule: PruneRule, runtime: string, owner: string | undefined): InStatement[] {
  return partsAtStart(rule, owner ?? null).flatMap((part) => deleteStatements(rule, runtime, part));
}

/**
 * Every owner with ended executions (those without a scope first, as `null`): a skip-scan of the per-owner
 * retention index, one seek per owner rather than a walk of every row.
 */
function ownersStatement(runtime: string): InStatement {
  const next = `SELECT scope FROM codemode_executions WHERE runtime = ? AND scope > owners.scope AND status IN ${ENDED_SQL}
    ORDER BY scope LIMIT 1`;
  return {
    sql: `WITH RECURSIVE owners(scope) AS (
        SELECT (SELECT scope FROM codemode_executions WHERE runtime = ? AND scope IS NOT NULL AND status IN ${ENDED_SQL}
          ORDER BY scope LIMIT 1)
        UNION ALL SELECT (${next}) FROM owners WHERE owners.scope IS NOT NULL
      )
      SELECT scope FROM owners WHERE scope IS NOT NULL`,
    args: [runtime, runtime],
  };
}

/** How many parts (owners, and the age limit) one write batch of an explicit prune covers. */
const PARTS_PER_BATCH = 100;

const INTERRUPTED_CALL =
  "interrupted: the process running this call stopped before recording its outcome; it is not run again";

/** The retention operations over `context`. */
export function retentionRows({ runtime, read, write }: StoreContext): RetentionStore {
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

    async prune(rule) {
      const parts: PrunePart[] = rule.expiredBefore === undefined ? [] : [{ by: "age" }];
      if (rule.keepPerOwner !== undefined) {
        const [listed] = await read([ownersStatement(runtime)]);
        const owners = [null, ...(listed?.rows ?? []).map((row) => String(row["scope"]))];
        parts.push(...owners.map((owner) => ({ by: "count", owner }) as const));
      }
      const deleted: string[] = [];
      for (let index = 0; index < parts.length; index += PARTS_PER_BATCH) {
        const chunk = parts.slice(index, index + PARTS_PER_BATCH);
        const results = await write(chunk.flatMap((part) => deleteStatements(rule, runtime, part)));
        // Every second result is a `DELETE … RETURNING id` of executions.
        for (let at = 1; at < results.length; at += 2) deleted.push(...idsOf(results[at]));
      }
      return deleted;
    },

    async clearHistory() {
      const ended = `SELECT id FROM codemode_executions WHERE runtime = ? AND status IN ${TERMINAL_SQL}`;
      const [, deleted] = await write([
        {
          sql: `DELETE FROM codemode_calls WHERE runtime = ? AND execution_id IN (${ended})`,
          args: [runtime, runtime],
        },
        {
          sql: `DELETE FROM codemode_executions WHERE runtime = ? AND id IN (${ended}) RETURNING id`,
          args: [runtime, runtime],
        },
      ]);
      return idsOf(deleted);
    },

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

    async deleteAllData() {
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
