/**
 * The runtime's `limits` option: the default executor's budgets per run (the `QuickJSExecutor` option names) and the
 * runtime's own per-execution budgets (`maxCalls`, `maxCost`, `maxSteps`, `maxDiscoveryCalls`, `maxJournalBytes`), declared once; sandbox budgets beside a custom
 * executor are refused, since it keeps its own.
 */
import { InvalidOptionError } from "../errors.js";
import {
  EXECUTOR_OPTION_KEYS,
  resolveExecutorOptions,
  type QuickJSExecutorOptions,
  type ResolvedExecutorOptions,
} from "../sandbox/executor-options.js";
import { isRecord } from "../shared/is-record.js";
import { assertKnownKeys } from "../shared/known-keys.js";
import { declareOptions, option } from "../shared/options/declare-options.js";
import { integerOption } from "../shared/options/option-checks.js";
import { DEFAULT_MAX_DISCOVERY_CALLS, DEFAULT_MAX_JOURNAL_BYTES, DEFAULT_MAX_STEPS } from "./journal/budget-record.js";

/**
 * Connector calls one execution may make by default, over all its passes: ten times the largest real program, and
 * a runaway loop stops within a second of journal work (docs/decisions/default-figures.md).
 */
export const DEFAULT_MAX_CALLS = 1_000;

/** The runtime's own budgets, per execution over all its passes (the executor's budgets are per run). */
interface RuntimeBudgetLimits {
  /**
   * Connector calls (including outbound `fetch`) one execution may make over all its passes; a replayed call
   * counts once, where it first ran, and a call a human rejected does not count. The call past it does not run:
   * the run ends with `kind: "limit"`. Journaled with the execution: an approval pass enforces the number the
   * execution started with, whatever this runtime's option says.
   * @default 1_000
   */
  maxCalls?: number;
  /**
   * Total cost one execution may spend, summed over its calls' method `cost(args)`; a call whose cost would take
   * the total past it does not run (the run ends with `kind: "limit"`). Journaled like `maxCalls`.
   * @default no cost budget
   */
  maxCost?: number;
  /**
   * `codemode.step`s one execution may record over all its passes (a replayed step counts once). The step past it
   * does not run: the run ends with `kind: "limit"`. Journaled like `maxCalls`.
   * @default 10_000
   */
  maxSteps?: number;
  /**
   * `codemode.search` and `codemode.describe` calls one pass may make (they are not journaled: a resumed pass makes
   * the program's lookups again). The one past it ends the run with `kind: "limit"`.
   * @default 1_000
   */
  maxDiscoveryCalls?: number;
  /**
   * Bytes (UTF-8) one execution may write to its journal over all its passes: call arguments, results, step
   * values, error messages. The write past it does not happen: the run ends with `kind: "limit"`. Journaled like
   * `maxCalls`.
   * @default 100_000_000
   */
  maxJournalBytes?: number;
}

/** How each budget of {@link RuntimeBudgetLimits} is checked and defaulted. */
const BUDGET_OPTIONS = declareOptions<RuntimeBudgetLimits>()({
  maxCalls: integerOption(DEFAULT_MAX_CALLS),
  maxCost: option((value, path) => {
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      throw new InvalidOptionError({ path, message: `must be a finite number >= 0 (got ${String(value)})` });
    return value;
  }),
  maxSteps: integerOption(DEFAULT_MAX_STEPS),
  maxDiscoveryCalls: integerOption(DEFAULT_MAX_DISCOVERY_CALLS),
  maxJournalBytes: integerOption(DEFAULT_MAX_JOURNAL_BYTES),
});

/** The runtime's budgets resolved (`maxCost` stays undefined when not given). */
export type ResolvedBudgetLimits = Required<Omit<RuntimeBudgetLimits, "maxCost">> & { maxCost: number | undefined };

/**
 * The `limits` option: the default executor's budgets per run (the `QuickJSExecutor` option names, refused when
 * `executor` is given) and the runtime's per-execution call and cost budgets (always applied).
 */
export interface RuntimeLimits extends Omit<QuickJSExecutorOptions, "isolation" | "poolSize">, RuntimeBudgetLimits {}

/** `limits` read: the default executor's budgets, the runtime's, and which sandbox budgets were given. */
export interface ReadLimits {
  executor: ResolvedExecutorOptions;
  budgets: ResolvedBudgetLimits;
  /** Sandbox budgets given (refused beside a custom executor, which would ignore them). */
  sandboxKeys: string[];
}

export function readLimits(value: unknown, path: string): ReadLimits {
  if (value !== undefined && isRecord(value))
    assertKnownKeys(value, [...EXECUTOR_OPTION_KEYS, ...BUDGET_OPTIONS.keys], path);
  // The runtime's budgets taken out; the rest (or a limits that is not an object, refused there) is the executor's.
  const { maxCalls, maxCost, maxSteps, maxDiscoveryCalls, maxJournalBytes, ...sandbox } = isRecord(value) ? value : {};
  return {
    executor: resolveExecutorOptions((value === undefined || isRecord(value) ? sandbox : value) as never, path),
    budgets: BUDGET_OPTIONS.resolve({ maxCalls, maxCost, maxSteps, maxDiscoveryCalls, maxJournalBytes }, path),
    sandboxKeys: Object.keys(sandbox).filter((key) => sandbox[key] !== undefined),
  };
}

/**
 * A custom executor keeps its own budgets, so sandbox budgets in `limits` beside it would be silently ignored (a
 * `timeoutMs` the app believes in would not apply): they are refused, pointing at where they belong.
 */
export function refuseIgnoredLimits(ignored: readonly string[]): void {
  if (ignored.length === 0) return;
  const list = ignored.map((key) => `${key}: …`).join(", ");
  throw new InvalidOptionError({
    path: `limits.${ignored[0]}`,
    message:
      `would be ignored: the executor option brings its own budgets. Give them to it instead ` +
      `(new QuickJSExecutor({ ${list} })); limits keeps only the runtime's budgets (maxCalls, maxCost, maxSteps, maxDiscoveryCalls, maxJournalBytes) beside an executor`,
  });
}
