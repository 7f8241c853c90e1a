/**
 * Failures as values: the `CodemodeOutput` of a request that failed outside a pass (or whose pass could not
 * run). Messages say what happened and what to do; a model reads them.
 */
import { StoreConfigurationError } from "../errors/store-configuration-error.js";
import { messageOf } from "../shared/message-of.js";
import type { CodemodeOutput, FailureKind } from "./types.js";

/** A failure as a `CodemodeOutput`. */
export function failure(executionId: string, kind: FailureKind, error: string): CodemodeOutput {
  return { status: "error", executionId, error, kind };
}

/** A store failure outside a pass: nothing was written by the failed step. */
export function storeFailure(executionId: string, error: unknown): CodemodeOutput {
  // A store that cannot work as configured: its message says what to fix; retrying changes nothing.
  if (StoreConfigurationError.isInstance(error)) return failure(executionId, "store", error.message);
  const message = `The journal database failed (${messageOf(error)}); nothing was changed by this request. Try again later.`;
  return failure(executionId, "store", message);
}
