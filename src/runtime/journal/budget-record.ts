/**
 * What an execution keeps of its budgets (the `budgets` column): the execution's call budget, its cost budget and
 * the per-method call budgets, fixed when it starts. Every later pass, in whichever process and under whichever
 * runtime options, enforces these numbers (see docs/decisions/budgets.md). Stored as version-tagged JSON and
 * validated when read: a record that does not validate is a corrupt row (`store`), never a budget silently lifted.
 */
import { isRecord } from "../../shared/is-record.js";

// The defaults of the budgets a record written before they existed lacks (and of the `limits` options).
/**
 * Default `limits.maxSteps`: `codemode.step`s recorded per execution. A step groups work; a program with a step per
 * item of a large list is honest at hundreds, a runaway loop makes thousands a second.
 */
export const DEFAULT_MAX_STEPS = 10_000;
/** Default `limits.maxDiscoveryCalls`: `codemode.search` + `codemode.describe` calls per pass (one per lookup). */
export const DEFAULT_MAX_DISCOVERY_CALLS = 1_000;
/**
 * Default `limits.maxJournalBytes`: what one execution may write to its journal (arguments, results, errors; UTF-8).
 * Each value is at most ~1 MB already; 100 MB is a hundred of the largest values, and stops a loop of steps that
 * journals a megabyte each within seconds.
 */
export const DEFAULT_MAX_JOURNAL_BYTES = 100_000_000;

/** The budgets one execution runs under. */
export interface ExecutionBudgets {
  /** Connector calls over all its passes. */
  maxCalls: number;
  /** Total of the calls' `cost(args)`; absent: no cost budget. */
  maxCost?: number;
  /** Per-method call budgets, by `connector.method`. */
  methodCalls: Record<string, number>;
  /** `codemode.step`s over all its passes; absent in records written before it existed (the default applies). */
  maxSteps?: number;
  /** `codemode.search` / `describe` calls per pass; absent as `maxSteps`. */
  maxDiscoveryCalls?: number;
  /** Bytes written to its journal; absent as `maxSteps`. */
  maxJournalBytes?: number;
}

/** The budgets added after the first record, optional in it. */
const LATER_COUNTS = ["maxSteps", "maxDiscoveryCalls", "maxJournalBytes"] as const;

/** Version tag of the stored JSON. */
const BUDGET_RECORD_VERSION = 1;

/** The JSON text kept in the `budgets` column. */
export function encodeBudgets(budgets: ExecutionBudgets): string {
  return JSON.stringify({
    version: BUDGET_RECORD_VERSION,
    maxCalls: budgets.maxCalls,
    ...(budgets.maxCost === undefined ? {} : { maxCost: budgets.maxCost }),
    methodCalls: budgets.methodCalls,
    ...Object.fromEntries(LATER_COUNTS.flatMap((key) => (budgets[key] === undefined ? [] : [[key, budgets[key]]]))),
  });
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** The budgets of a `budgets` column; throws a message naming what is wrong when the text is not a budget record. */
export function parseBudgets(text: string): ExecutionBudgets {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error("the budgets column is not JSON");
  }
  if (!isRecord(parsed) || parsed["version"] !== BUDGET_RECORD_VERSION)
    throw new Error(`the budgets column is not a version ${BUDGET_RECORD_VERSION} budget record`);
  const { maxCalls, maxCost, methodCalls } = parsed;
  if (!isCount(maxCalls)) throw new Error("the budgets column's maxCalls is not a positive integer");
  if (maxCost !== undefined && (typeof maxCost !== "number" || !Number.isFinite(maxCost) || maxCost < 0))
    throw new Error("the budgets column's maxCost is not a number >= 0");
  if (!isRecord(methodCalls) || !Object.values(methodCalls).every(isCount))
    throw new Error("the budgets column's methodCalls is not an object of positive integers");
  const budgets: ExecutionBudgets = {
    maxCalls,
    methodCalls: Object.assign(Object.create(null) as Record<string, number>, methodCalls as Record<string, number>),
  };
  if (maxCost !== undefined) budgets.maxCost = maxCost;
  for (const key of LATER_COUNTS) {
    const value = parsed[key];
    if (value === undefined) continue;
    if (!isCount(value)) throw new Error(`the budgets column's ${key} is not a positive integer`);
    budgets[key] = value;
  }
  return budgets;
}
