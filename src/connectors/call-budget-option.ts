/**
 * The checks of a method's budget options (`maxCalls`, `cost`), shared by hand-written connectors and
 * `connector(tools, { methods })`.
 */
import { InvalidOptionError } from "../errors.js";

/** Throws `InvalidOptionError` at `path` unless `value` is absent or a positive integer. */
export function optionalCallBudget(value: unknown, path: string): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)) {
    throw new InvalidOptionError({ path, message: `must be a positive integer (got ${String(value)})` });
  }
}

/**
 * Throws `InvalidOptionError` at `path` when a method has both `cost` and `replay: "reexecute"`: such a method runs
 * again on every pass while its call is journaled, and charged, once; a cost budget would undercount it.
 */
export function costNotOnReexecute(cost: unknown, replay: unknown, path: string): void {
  if (cost === undefined || replay !== "reexecute") return;
  throw new InvalidOptionError({
    path,
    message:
      'cannot be combined with replay: "reexecute": that method runs again on every pass but is charged once, so ' +
      'the cost budget would undercount it. Use replay: "record" (the default) for a metered method, or drop cost.',
  });
}
