/**
 * The requests that name an execution (`approve`, `reject`, `rollback`, `execution`, `pending`, `executions`):
 * their `executionId`, `seq` and `scope` read defensively (a clear error value, never a throw or a store failure),
 * ids cut in messages, and the owner rule. Scope: a request without a scope (the server's own view) sees every
 * execution; a request with a scope sees only executions started with that same scope — every other one is
 * `not-found`, exactly as an unknown id. A key a request does not know (`scpoe`) is refused with the closest known
 * one, never ignored: an ignored `scope` would make the execution everybody's.
 */
import { MAX_ID_CHARS, quoted } from "../shared/bounded-text.js";
import { isRecord } from "../shared/is-record.js";
import { unknownKeyProblem } from "../shared/known-keys.js";
import { described } from "./read-arguments.js";
import { err, ok, type Result } from "../shared/result.js";

/** A request that names an execution, read and checked. */
export interface ExecutionRequest {
  executionId: string;
  seq?: number;
  scope?: string;
  /** Who decides (`approve`, `reject`, `decide`). */
  decidedBy?: string;
}

/** Whether a request with `scope` may see an execution owned by `owner`. */
export function visibleTo(owner: string | undefined, scope: string | undefined): boolean {
  return scope === undefined || owner === scope;
}

/** Why `scope` is not a valid scope, or undefined when it is (absent, or a non-empty string of at most 200). */
export function scopeProblem(scope: unknown): string | undefined {
  if (scope === undefined) return undefined;
  if (typeof scope !== "string" || scope === "" || scope.length > MAX_ID_CHARS) {
    return `scope must be a non-empty string of at most ${MAX_ID_CHARS} characters (got ${typeof scope === "string" ? quoted(scope) : typeof scope})`;
  }
  return undefined;
}

/** Why `decidedBy` is not valid, or undefined when it is (absent, or a non-empty string of at most 200). */
function decidedByProblem(decidedBy: unknown): string | undefined {
  if (decidedBy === undefined) return undefined;
  if (typeof decidedBy !== "string" || decidedBy === "" || decidedBy.length > MAX_ID_CHARS) {
    const got = typeof decidedBy === "string" ? `${decidedBy.length} characters` : typeof decidedBy;
    return `decidedBy must be a non-empty string of at most ${MAX_ID_CHARS} characters, the id of who decides (got ${got})`;
  }
  return undefined;
}

/**
 * The not-found message for an id (cut when long), naming the store read (`storeDescription`): the likeliest cause
 * of a not-found for an id someone was given is a runtime opened on another database or under another name.
 */
export function notFoundMessage(executionId: string, runtime: string, store: string): string {
  return (
    `No execution ${quoted(executionId)} in runtime "${runtime}" of the store ${store}. If the execution was ` +
    "started against another database (TURSO_DATABASE_URL, CODEMODE_DATABASE_URL or the store option of the app " +
    "that ran it) or under another runtime name, open the runtime with that store and name."
  );
}

/**
 * Why `options` cannot be the per-call options object of `call` (omitted, or an object whose keys are all in
 * `known`), or undefined when it can. A message a caller can act on.
 */
export function optionsProblem(call: string, options: unknown, known: readonly string[]): string | undefined {
  if (options === undefined) return undefined;
  if (!isRecord(options)) return `${call}: the options must be an object (got ${described(options)}).`;
  const problem = unknownKeyProblem(options, known);
  return problem === undefined ? undefined : `${call}: ${problem}.`;
}

/**
 * Reads `{ executionId, seq?, scope? }` of `action` (e.g. `approve`), whose keys must be in `keys`; the error is
 * a message a model can act on.
 */
export function readExecutionRequest(
  action: string,
  request: unknown,
  { seq: allowSeq = true, keys }: { seq?: boolean; keys: readonly string[] },
): Result<ExecutionRequest> {
  const shape = allowSeq ? "{ executionId, seq?, scope? }" : "{ executionId, scope? }";
  if (!isRecord(request))
    return err(`${action}(${shape}) needs an object naming the execution (got ${typeof request}).`);
  const unknownKey = unknownKeyProblem(request, keys);
  if (unknownKey !== undefined) return err(`${action}(${shape}): ${unknownKey}. Nothing was changed.`);
  const { executionId, seq, scope, decidedBy } = request;
  if (typeof executionId !== "string" || executionId === "") {
    const got = typeof executionId === "string" ? "an empty string" : typeof executionId;
    return err(`${action}(${shape}) needs executionId, the id of the execution (got ${got}). Nothing was changed.`);
  }
  if (allowSeq && seq !== undefined && (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0)) {
    return err(
      `${action}(${shape}): seq must be a call number (an integer >= 0; 0 is a whole-program approval) or omitted. Nothing was changed.`,
    );
  }
  const problem = scopeProblem(scope);
  if (problem !== undefined) return err(`${action}(${shape}): ${problem}. Nothing was changed.`);
  const decider = decidedByProblem(decidedBy);
  if (decider !== undefined) return err(`${action}(${shape}): ${decider}. Nothing was changed.`);
  return ok({
    executionId,
    ...(allowSeq && typeof seq === "number" ? { seq } : {}),
    ...(typeof scope === "string" ? { scope } : {}),
    ...(typeof decidedBy === "string" ? { decidedBy } : {}),
  });
}

/** The id to put in an output's `executionId` field: the caller's, cut when it cannot be an id at all. */
export function outputId(executionId: unknown): string {
  return typeof executionId === "string" ? executionId.slice(0, MAX_ID_CHARS) : "";
}
