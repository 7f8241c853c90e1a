/**
 * How long ended executions stay in the journal: the `retention` option (by age, with a grace for retries), the
 * per-owner meaning of `maxExecutions`, and the prune rule both become at an instant.
 */
import { InvalidOptionError } from "../errors.js";
import { declareOptions, option } from "../shared/options/declare-options.js";
import { isRecord } from "../shared/is-record.js";
import type { PruneRule } from "./journal/journal-store.js";

/** Default `maxExecutions`: ended executions kept per owner (`scope`). */
export const DEFAULT_MAX_EXECUTIONS = 50;
/**
 * Default `retention.minAgeMs`: an ended execution stays at least as long as a paused one waits for its approver
 * by default (`expirePaused`), so the retry of an approved call finds its result.
 */
export const DEFAULT_RETENTION_MIN_AGE_MS = 24 * 60 * 60_000;
/**
 * Executions a run start deletes at most, per part of the rule (its owner's count; the age limit). Each run adds
 * one, so a few more per start drain a backlog without making any run pay for it.
 */
export const PRUNE_AT_START_LIMIT = 8;
/** Executions one write of an explicit `pruneExecutions` deletes at most, per part of the rule. */
export const PRUNE_BATCH_LIMIT = 500;

/** How long ended executions stay in the journal (`createCodemodeRuntime({ retention })`). */
export interface CodemodeRetentionOptions {
  /**
   * Ended executions older than this (since they ended) are pruned, whatever `maxExecutions` says: an audit
   * trail of a fixed age. At least `minAgeMs`.
   * @default undefined (no age limit; only `maxExecutions` prunes)
   */
  maxAgeMs?: number;
  /**
   * Ended executions younger than this (since they ended) are never pruned by `maxExecutions` or
   * `pruneExecutions`: the time an approved call's retry (an MCP client, a second instance) or its owner has to
   * read the result. `0` prunes as soon as an execution ends.
   * @default 86_400_000 (24 hours)
   */
  minAgeMs?: number;
}

/** The retention settings resolved. */
export interface ResolvedRetention {
  /** Ended executions kept per owner; `Infinity`: any number. */
  maxExecutions: number;
  maxAgeMs: number | undefined;
  minAgeMs: number;
}

function readAge(value: unknown, path: string, { zero }: { zero: boolean }): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < (zero ? 0 : 1)) {
    const wanted = zero ? "a non-negative integer" : "a positive integer";
    throw new InvalidOptionError({ path, message: `must be ${wanted} of milliseconds (got ${String(value)})` });
  }
  return value;
}

/** How each option of {@link CodemodeRetentionOptions} is checked and defaulted. */
const RETENTION_OPTIONS = declareOptions<CodemodeRetentionOptions>()({
  maxAgeMs: option((value, path) => readAge(value, path, { zero: false })),
  minAgeMs: option((value, path) => readAge(value, path, { zero: true }) ?? DEFAULT_RETENTION_MIN_AGE_MS),
});

/** `maxExecutions`: a positive integer, or `Infinity` for no count limit. */
export function readMaxExecutions(value: unknown, path: string): number {
  if (value === undefined) return DEFAULT_MAX_EXECUTIONS;
  if (value === Number.POSITIVE_INFINITY) return value;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError({ path, message: `must be a positive integer or Infinity (got ${String(value)})` });
  }
  return value;
}

/** The `retention` option read (with `maxExecutions`, read before); throws `InvalidOptionError` naming the path. */
export function resolveRetention(value: unknown, maxExecutions: number, path = "retention"): ResolvedRetention {
  if (value !== undefined && !isRecord(value))
    throw new InvalidOptionError({ path, message: "must be an object { maxAgeMs?, minAgeMs? }" });
  const { maxAgeMs, minAgeMs } = RETENTION_OPTIONS.resolve(value, path);
  if (maxAgeMs !== undefined && maxAgeMs < minAgeMs) {
    throw new InvalidOptionError({
      path: `${path}.maxAgeMs`,
      message: `must be at least ${path}.minAgeMs (${minAgeMs} ms): an ended execution is kept that long for its retry (got ${maxAgeMs})`,
    });
  }
  return { maxExecutions, maxAgeMs, minAgeMs };
}

/** The prune rule of `retention` at `now`, keeping `keep` per owner, deleting at most `limit` per part. */
export function pruneRule(
  retention: ResolvedRetention,
  { now, keep = retention.maxExecutions, limit }: { now: number; keep?: number; limit: number },
): PruneRule {
  return {
    keepPerOwner: Number.isFinite(keep) ? keep : undefined,
    endedBefore: now - retention.minAgeMs,
    expiredBefore: retention.maxAgeMs === undefined ? undefined : now - retention.maxAgeMs,
    limit,
  };
}
