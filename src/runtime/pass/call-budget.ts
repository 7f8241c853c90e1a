/**
 * The budgets of one pass: every new connector call is admitted (or refused) here, synchronously and in call order,
 * before anything is journaled or run, then charged its cost once its arguments are validated (the cost of the
 * arguments that will run, schema defaults included). The counts start from the journal, so a replayed call counts once, where it
 * first ran, and a call a human rejected does not count; a call this pass refuses ends the run (`kind: "limit"`)
 * with a message that says which budget, how much was used, and how to do the work with fewer calls.
 */
import { messageOf } from "../../shared/message-of.js";
import type { ExecutionBudgets } from "../journal/budget-record.js";
import { DEFAULT_MAX_DISCOVERY_CALLS, DEFAULT_MAX_JOURNAL_BYTES, DEFAULT_MAX_STEPS } from "../journal/budget-record.js";

/** What a call is, for its budgets: its method and that method's cost function. */
export interface BudgetedCall {
  connector: string;
  method: string;
  definition: { cost?: (args: unknown) => number };
}

/** Admitted (with the cost to journal, when the method has one), or refused with the reason. */
export type Admission =
  | { ok: true; cost?: number | undefined }
  /** `limit`: a budget would be exceeded, the run ends. `cost`: the method's cost function failed, the call fails. */
  | { ok: false; kind: "limit" | "cost"; error: string };

const FEWER_CALLS =
  "Do the work in fewer calls: use a method that takes many items in one call (a batch or list method; codemode.search finds one), " +
  "or filter and aggregate what one call returned instead of calling again per item. Promise.all does not help: every call counts.";

function calls(count: number): string {
  return `${amount(count)} ${count === 1 ? "call" : "calls"}`;
}

function amount(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString("en-US") : String(value);
}

/** The UTF-8 size of journal texts (absent ones count nothing). */
export function journalBytesOf(...texts: ReadonlyArray<string | undefined>): number {
  let bytes = 0;
  for (const text of texts) if (text !== undefined) bytes += Buffer.byteLength(text, "utf8");
  return bytes;
}

/** What an execution's journal already holds, beyond its calls: its steps and its size. */
export interface JournalUsage {
  steps: number;
  journalBytes: number;
}

/** The running counts of one execution's calls and cost against its budgets. */
export class CallBudget {
  readonly #budgets: ExecutionBudgets;
  #calls = 0;
  /** Calls that were charged (journaled ones, and this pass's that passed `charge`): what the cost was spent by. */
  #charged = 0;
  #cost = 0;
  readonly #byMethod = new Map<string, number>();
  #steps: number;
  #journalBytes: number;
  #lookups = 0;

  /** `counted`: the journaled calls that count (`countedCalls` in `execution-budgets.ts` picks them). */
  constructor(
    budgets: ExecutionBudgets,
    counted: Iterable<{ connector: string; method: string; cost?: number }>,
    usage: JournalUsage = { steps: 0, journalBytes: 0 },
  ) {
    this.#budgets = budgets;
    for (const row of counted) {
      this.#count(`${row.connector}.${row.method}`, row.cost);
      this.#charged += 1;
    }
    this.#steps = usage.steps;
    this.#journalBytes = usage.journalBytes;
  }

  /** Admits new step `seq` (counting it), or says why it must not run. */
  admitStep(name: string, seq: number): Admission {
    const max = this.#budgets.maxSteps ?? DEFAULT_MAX_STEPS;
    if (this.#steps >= max) {
      return this.#limit(
        `Step budget exhausted: this execution may record ${amount(max)} steps (limits.maxSteps) and has recorded ` +
          `${amount(this.#steps)}; step ${JSON.stringify(name)} (call #${seq}) did not run. Wrap a loop in one step ` +
          "instead of a step per item, and return only what later code needs.",
      );
    }
    this.#steps += 1;
    return { ok: true };
  }

  /** Admits a `codemode.search` / `describe` of this pass (counting it), or says why it must not run. */
  admitLookup(kind: "search" | "describe"): Admission {
    const max = this.#budgets.maxDiscoveryCalls ?? DEFAULT_MAX_DISCOVERY_CALLS;
    if (this.#lookups >= max) {
      return this.#limit(
        `Discovery budget exhausted: a pass may make ${amount(max)} codemode.search / codemode.describe calls ` +
          `(limits.maxDiscoveryCalls); this codemode.${kind} did not run. Search once for what you need and ` +
          'describe a whole namespace at once (codemode.describe("ns")) instead of looking up inside a loop.',
      );
    }
    this.#lookups += 1;
    return { ok: true };
  }

  /** Admits writing `bytes` more to the journal (`what` names it in the refusal), counting them. */
  admitJournalBytes(bytes: number, what: string): Admission {
    const max = this.#budgets.maxJournalBytes ?? DEFAULT_MAX_JOURNAL_BYTES;
    if (this.#journalBytes + bytes > max) {
      return this.#limit(
        `Journal budget exhausted: this execution may write ${amount(max)} bytes to its journal ` +
          `(limits.maxJournalBytes) and has written ${amount(this.#journalBytes)}; ${what} (${amount(bytes)} bytes) ` +
          "was not recorded. Keep large data outside the run (store it and pass a reference), and return only what " +
          "later code needs from calls and steps.",
      );
    }
    this.#journalBytes += bytes;
    return { ok: true };
  }

  #count(path: string, cost: number | undefined): void {
    this.#calls += 1;
    this.#cost += cost ?? 0;
    this.#byMethod.set(path, (this.#byMethod.get(path) ?? 0) + 1);
  }

  /** Admits call `seq` against the call budgets (counting it), or says why it must not run. */
  admit(call: BudgetedCall, seq: number): Admission {
    const path = `${call.connector}.${call.method}`;
    const { maxCalls, methodCalls } = this.#budgets;
    if (this.#calls >= maxCalls) {
      return this.#limit(
        `Call budget exhausted: this execution may make ${amount(maxCalls)} connector calls (limits.maxCalls) and ` +
          `has made ${amount(this.#calls)}; call #${seq} (${path}) did not run. ${FEWER_CALLS}`,
      );
    }
    const methodMax = methodCalls[path];
    const made = this.#byMethod.get(path) ?? 0;
    if (methodMax !== undefined && made >= methodMax) {
      return this.#limit(
        `Call budget of ${path} exhausted: it may be called ${amount(methodMax)} times per execution (its maxCalls) and ` +
          `has been called ${amount(made)} times; call #${seq} did not run. ${FEWER_CALLS}`,
      );
    }
    this.#count(path, undefined);
    return { ok: true };
  }

  /**
   * Charges admitted call `seq` the cost of `args` (its validated arguments) against the cost budget, or says why it
   * must not run. A method without `cost` is free.
   */
  charge(call: BudgetedCall, seq: number, args: unknown): Admission {
    const path = `${call.connector}.${call.method}`;
    const { maxCost } = this.#budgets;
    const cost = this.#costOf(call, path, seq, args);
    if (typeof cost === "object") return cost;
    if (maxCost !== undefined && cost !== undefined && this.#cost + cost > maxCost) {
      return this.#limit(
        `Cost budget exhausted: this execution may spend ${amount(maxCost)} (limits.maxCost) and ${amount(this.#cost)} ` +
          `was spent by ${calls(this.#charged)} made; call #${seq} (${path}) would cost ${amount(cost)} and did not run. ` +
          "Do the work for less: ask each call for fewer records (filters, smaller pages, only the fields needed), " +
          "and do not fetch again what an earlier call returned. Promise.all does not help: every call's cost counts.",
      );
    }
    this.#cost += cost ?? 0;
    this.#charged += 1;
    return { ok: true, cost };
  }

  /** The method's cost of these arguments; a failed cost function is a refusal of the call (it does not run). */
  #costOf(call: BudgetedCall, path: string, seq: number, args: unknown): number | undefined | Admission {
    const cost = call.definition.cost;
    if (cost === undefined) return undefined;
    let value: unknown;
    try {
      value = cost(args);
    } catch (error) {
      return {
        ok: false,
        kind: "cost",
        error: `${path}: its cost function threw (${messageOf(error)}); call #${seq} did not run.`,
      };
    }
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      const got = typeof value === "number" ? String(value) : typeof value;
      return {
        ok: false,
        kind: "cost",
        error: `${path}: its cost function returned ${got}, not a finite number >= 0; call #${seq} did not run.`,
      };
    }
    return value;
  }

  #limit(error: string): Admission {
    return { ok: false, kind: "limit", error };
  }
}
