/**
 * The check of a method's `maxCalls` option, shared by hand-written connectors and `connector(tools, { methods })`.
 */
import { InvalidOptionError } from "../errors.js";

/** Throws `InvalidOptionError` at `path` unless `value` is absent or a positive integer. */
export function optionalCallBudget(value: unknown, path: string): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)) {
    throw new InvalidOptionError({ path, message: `must be a positive integer (got ${String(value)})` });
  }
}
