/**
 * The checks every options object shares, written once: each reads a value that may be omitted and throws
 * `InvalidOptionError` naming its path (`limits.timeoutMs must be a positive integer (got -5)`). The `*Option`
 * builders make declaration fields of them.
 */
import { InvalidOptionError } from "../../errors.js";
import { option, type OptionField } from "./declare-options.js";

/** Bounds of an integer option; `min` is at least 1. */
export interface IntegerBounds {
  min?: number;
  max?: number;
}

/** A positive safe integer within `bounds`, or `undefined` when omitted. */
export function readPositiveInteger(value: unknown, path: string, bounds: IntegerBounds = {}): number | undefined {
  if (value === undefined) return undefined;
  const { min = 1, max = Number.MAX_SAFE_INTEGER } = bounds;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidOptionError({ path, message: `must be a positive integer (got ${String(value)})` });
  if (value < min || value > max)
    throw new InvalidOptionError({ path, message: `must be between ${min} and ${max} (got ${value})` });
  return value;
}

/** A string with something besides white space in it, or `undefined` when omitted. */
export function readText(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "")
    throw new InvalidOptionError({ path, message: "must be a non-empty string" });
  return value;
}

/** A positive integer option; `fallback` when omitted. */
export function integerOption(fallback: number, bounds?: IntegerBounds): OptionField<number> {
  return option((value, path) => readPositiveInteger(value, path, bounds) ?? fallback);
}

/** A positive integer option with no default (the reader decides what omitted means). */
export function optionalIntegerOption(bounds?: IntegerBounds): OptionField<number | undefined> {
  return option((value, path) => readPositiveInteger(value, path, bounds));
}

/** A boolean option; `fallback` when omitted. */
export function booleanOption(fallback: boolean): OptionField<boolean> {
  return option((value, path) => {
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") throw new InvalidOptionError({ path, message: "must be true or false" });
    return value;
  });
}

/** One of a few literal values; `fallback` when omitted. */
export function oneOfOption<const T extends string>(values: readonly T[], fallback: T): OptionField<T> {
  return option((value, path) => {
    if (value === undefined) return fallback;
    if (!values.includes(value as T)) {
      const listed = values.map((known) => JSON.stringify(known)).join(" or ");
      throw new InvalidOptionError({ path, message: `must be ${listed} (got ${JSON.stringify(value)})` });
    }
    return value as T;
  });
}

/** A non-blank string option; `undefined` when omitted. */
export function textOption(): OptionField<string | undefined> {
  return option(readText);
}

/** A function option (`shape` says which, for the message); `undefined` when omitted. */
// biome-ignore lint/suspicious/noExplicitAny: any function type.
export function functionOption<F extends (...args: any[]) => unknown>(shape: string): OptionField<F | undefined> {
  return option((value, path) => {
    if (value === undefined) return undefined;
    if (typeof value !== "function") throw new InvalidOptionError({ path, message: `must be a function ${shape}` });
    return value as F;
  });
}
