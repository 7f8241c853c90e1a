/**
 * Failures as values: the `CodeModeOutput` of a request that failed outside a pass (or whose pass could not
 * run). Messages say what happened and what to do; a model reads them.
 */
import { messageOf } from "../shared/message-of.js";
import type { CodeModeOutput, FailureKind } from "./types.js";

/** A failure as a `CodeModeOutput`. */
export function failure(executionId: string, kind: FailureKind, error: string): CodeModeOutput {
  return { status: "error", executionId, error, kind };
}

/** A store failure outside a pass: nothing was written by the failed step. */
export function storeFailure(executionId: string, error: unknown): CodeModeOutput {
  const message = `The journal database failed (${messageOf(error)}); nothing was changed by this request. Try again later.`;
  return failure(executionId, "store", message);
}
