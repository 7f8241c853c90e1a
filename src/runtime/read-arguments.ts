/**
 * The arguments of the handle's reads and housekeeping calls (`execution`, `pending`, `executions`,
 * `deleteExecution`, `deleteSnippet`, `expirePaused`, `search` and their options), checked before the store
 * sees them: a programmer error (an id that is not a string, a bad count, options that are not an object, a
 * misspelt option) throws `CodemodeArgumentError` naming the call, never a database driver's message. A
 * string too long to be an id (the runtime's ids are UUIDs) names nothing: the read answers as for an unknown
 * id, without a round trip.
 */
import { CodemodeArgumentError } from "../errors/codemode-argument-error.js";
import { MAX_ID_CHARS, quoted } from "../shared/bounded-text.js";
import { isRecord } from "../shared/is-record.js";
import { unknownKeyProblem } from "../shared/known-keys.js";

/** How a value is named in a message: a string quoted and cut, anything else by its type. */
export function described(value: unknown): string {
  if (typeof value === "string") return value === "" ? "an empty string" : quoted(value);
  if (value === null) return "null";
  return typeof value === "number" ? String(value) : typeof value;
}

/**
 * `value` as an id for `call` (e.g. `execution(executionId)`), or `undefined` when it is a string longer than
 * `maxChars`, which can name nothing. Throws {@link CodemodeArgumentError} unless it is a non-empty string.
 */
export function readId(call: string, value: unknown, maxChars = MAX_ID_CHARS): string | undefined {
  if (typeof value !== "string" || value === "") {
    throw new CodemodeArgumentError({
      argument: call,
      message: `must be a non-empty string (got ${described(value)})`,
    });
  }
  return value.length > maxChars ? undefined : value;
}

/**
 * The options object `value` of `call` (`{}` when omitted), every key in `known`. Throws
 * {@link CodemodeArgumentError} for anything else: not an object, or a key it does not know (with the closest one).
 */
export function readOptions(call: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    throw new CodemodeArgumentError({ argument: call, message: `must be an object (got ${described(value)})` });
  }
  const problem = unknownKeyProblem(value, known);
  if (problem !== undefined) throw new CodemodeArgumentError({ argument: call, message: problem });
  return value;
}

/** A count argument of `call` (`executions(limit)`): `fallback` when omitted, else a non-negative safe integer. */
export function readCount(call: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new CodemodeArgumentError({
      argument: call,
      message: `must be a non-negative integer (got ${described(value)})`,
    });
  }
  return value;
}
