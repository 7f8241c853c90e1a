/**
 * Kept module sources (`codemode_module_sources`): one row per runtime name and digest, written when a pass pauses
 * having imported a module not yet recorded, read when a resumed pass finds the runtime's current source changed,
 * and dropped once no unfinished execution of the runtime refers to it.
 */
import type { InStatement } from "./connection/sql-client.js";
import type { PassLease } from "../journal/journal-store.js";
import type { ModuleSource } from "../journal/module-record.js";
import type { StoreContext } from "./store-context.js";

/** Keeps `kept` under its digest (a digest already kept is left as it is). */
export function keepModuleSourceStatement(runtime: string, kept: ModuleSource, now: number): InStatement {
  return {
    sql: `INSERT INTO codemode_module_sources (runtime, digest, source, created_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (runtime, digest) DO NOTHING`,
    args: [runtime, kept.digest, kept.source, now],
  };
}

/**
 * Drops the kept sources that no running or paused execution of the lease's runtime records, but the ending one (an
 * unreadable record refers to nothing: it cannot resume anyway, and must not fail the end of another pass).
 */
export function releaseModuleSourcesStatement({ runtime, executionId }: PassLease): InStatement {
  return {
    sql: `DELETE FROM codemode_module_sources WHERE runtime = ? AND digest NOT IN (
        SELECT used.value FROM codemode_executions e, json_each(e.modules, '$.modules') used
        WHERE e.runtime = ? AND e.status IN ('running', 'paused') AND e.id != ? AND json_valid(e.modules))`,
    args: [runtime, runtime, executionId],
  };
}

/** Drops every kept source of `runtime` (its data is being destroyed). */
export function dropModuleSourcesStatement(runtime: string): InStatement {
  return { sql: "DELETE FROM codemode_module_sources WHERE runtime = ?", args: [runtime] };
}

/** The kept sources of `digests`, by digest. */
export async function readModuleSources(
  { runtime, read }: StoreContext,
  digests: string[],
): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  if (digests.length === 0) return kept;
  const [result] = await read([
    {
      sql: `SELECT digest, source FROM codemode_module_sources
        WHERE runtime = ? AND digest IN (SELECT value FROM json_each(?))`,
      args: [runtime, JSON.stringify(digests)],
    },
  ]);
  for (const row of result?.rows ?? []) {
    const { digest, source } = row as Record<string, unknown>;
    if (typeof digest === "string" && typeof source === "string") kept.set(digest, source);
  }
  return kept;
}
