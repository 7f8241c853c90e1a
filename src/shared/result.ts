/**
 * The one internal shape for an outcome that may fail with data (not an exception): `ok` and a `value`, or
 * not `ok` and an `error` (a message a model can read, unless the caller picks another error type).
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

/** A success. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failure. */
export function err<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
