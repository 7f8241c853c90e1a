/**
 * The keys every per-call options object and request of the handle accepts, derived from the methods'
 * own signatures (`DurableRuntime`): a key added to a signature but not listed here fails to compile, so a
 * new option is never refused, and a misspelt one (`scpoe` for `scope`) is never silently ignored.
 */
import { keysOf } from "../shared/known-keys.js";
import type { DurableRuntime } from "./durable-runtime-handle.js";

/** Argument `index` of handle method `method`, without `undefined`. */
type Argument<M extends keyof DurableRuntime, I extends number> = NonNullable<
  Parameters<Extract<DurableRuntime[M], (...args: never[]) => unknown>>[I]
>;

/** `execute(input)`. */
export const EXECUTE_INPUT_KEYS = keysOf<Argument<"execute", 0>>({ code: true, scope: true });

/** The per-call options of `execute`, `approve` and `decide`. */
export const EXECUTE_OPTION_KEYS = keysOf<Argument<"execute", 1>>({
  abortSignal: true,
  messages: true,
  context: true,
  toolCallId: true,
  executionId: true,
  onProgress: true,
});

/** `approve(request)`. */
export const APPROVE_REQUEST_KEYS = keysOf<Argument<"approve", 0>>({
  executionId: true,
  seq: true,
  scope: true,
  decidedBy: true,
  args: true,
});

/** `reject(request)`. */
export const REJECT_REQUEST_KEYS = keysOf<Argument<"reject", 0>>({
  executionId: true,
  seq: true,
  scope: true,
  reason: true,
  decidedBy: true,
});

/** `rollback(request)`. */
export const ROLLBACK_REQUEST_KEYS = keysOf<Argument<"rollback", 0>>({ executionId: true, scope: true });

/** `decide(request)`. */
export const DECIDE_REQUEST_KEYS = keysOf<Argument<"decide", 0>>({
  executionId: true,
  decisions: true,
  scope: true,
  decidedBy: true,
});

/** One decision of `decide(request).decisions`. */
export const DECISION_KEYS = keysOf<Argument<"decide", 0>["decisions"][number]>({
  seq: true,
  approved: true,
  reason: true,
  args: true,
});

/** The options of `execution`, `pending` and `executions`. */
export const SCOPE_OPTION_KEYS = keysOf<Argument<"execution", 1>>({ scope: true });

/** `expirePaused(options)`. */
export const EXPIRE_OPTION_KEYS = keysOf<Argument<"expirePaused", 0>>({ maxAgeMs: true });

/** `saveSnippet(name, options)`. */
export const SAVE_SNIPPET_OPTION_KEYS = keysOf<Argument<"saveSnippet", 1>>({
  executionId: true,
  description: true,
  inputSchema: true,
});

/** `search(query, options)`. */
export const SEARCH_OPTION_KEYS = keysOf<Argument<"search", 1>>({ limit: true });
