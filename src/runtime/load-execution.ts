/**
 * Loads the execution a request names, as that request may see it: an unknown id and an execution of another
 * scope are the same `not-found` (a caller learns nothing about executions it does not own); a store failure is
 * its own kind. Used by approve, reject, rollback and `execution()`.
 */
import { MAX_ID_CHARS } from "../shared/bounded-text.js";
import { messageOf } from "../shared/message-of.js";
import { err, ok, type Result } from "../shared/result.js";
import { storeDescription } from "./store/connection/open-store.js";
import { notFoundMessage, visibleTo, type ExecutionRequest } from "./execution-request.js";
import type { RuntimeCore } from "./runtime-core.js";
import type { LoadedExecution } from "./journal/journal-store.js";

/** Why the execution could not be loaded. */
export interface LoadFailure {
  kind: "not-found" | "store";
  error: string;
  cause?: unknown;
}

/** The execution and its call log, if `request` may see it. */
export async function loadForRequest(
  core: RuntimeCore,
  request: ExecutionRequest,
): Promise<Result<LoadedExecution, LoadFailure>> {
  let loaded: LoadedExecution | undefined;
  try {
    // An id longer than any id the runtime makes names nothing: no round trip.
    if (request.executionId.length <= MAX_ID_CHARS) loaded = await core.store.load(request.executionId);
  } catch (error) {
    return err({ kind: "store", error: `The journal database failed (${messageOf(error)}).`, cause: error });
  }
  if (loaded === undefined || !visibleTo(loaded.execution.scope, request.scope)) {
    return err({
      kind: "not-found",
      error: notFoundMessage(request.executionId, core.options.name, storeDescription(core.options.store)),
    });
  }
  return ok(loaded);
}
