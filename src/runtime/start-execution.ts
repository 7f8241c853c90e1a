/**
 * `execute`: a new execution of a program. The input is read defensively (a model or a client wrote it), the
 * execution is inserted `running` under a lease (with a bounded batch of ended executions past the retention rule
 * pruned in the same batch) with its owner `scope` and the tool call that started it, then its first pass runs — or,
 * when `approveProgram` says so, it is inserted `paused` on one whole-program approval and nothing runs.
 */
import { preloadJsonSchemaValidator } from "../connectors/argument-validator.js";
import { MAX_ID_CHARS } from "../shared/bounded-text.js";
import { isRecord } from "../shared/is-record.js";
import { failure, storeFailure } from "./failure-output.js";
import { optionsProblem, scopeProblem } from "./execution-request.js";
import { EXECUTE_INPUT_KEYS, EXECUTE_OPTION_KEYS } from "./request-keys.js";
import { checkJournalSize, encodeJournalValue } from "./journal/journal-values.js";
import { programApprovalAction, programNeedsApproval } from "./program-approval.js";
import { runClaimedPass } from "./run-claimed-pass.js";
import { takeOverExecution } from "./take-over-execution.js";
import { PRUNE_AT_START_LIMIT, pruneRule } from "./retention-options.js";
import { encodeBudgets } from "./journal/budget-record.js";
import type { RuntimeCore } from "./shared-parts.js";
import { traceFirstPass, tracePausedStart } from "./tracing/start-spans.js";
import type { SnippetRecord } from "./journal/records.js";
import type { CodemodeOutput, ExecuteInput, ExecuteOptions } from "./types.js";

/** Why the input or options cannot start an execution, or undefined. */
function inputProblem(input: unknown, options: unknown): string | undefined {
  // A misspelt key first: `{ cod }` is best answered by naming `code`, not by "the input must be { code }".
  const unknownInput = isRecord(input)
    ? optionsProblem("execute({ code, scope? })", input, EXECUTE_INPUT_KEYS)
    : undefined;
  if (unknownInput !== undefined) return `${unknownInput} Nothing was run.`;
  const code: unknown = (input as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || code.trim() === "") {
    return "The input must be { code: string } with a non-empty program (an async arrow function, a function body or an expression).";
  }
  const scope = scopeProblem((input as { scope?: unknown }).scope);
  if (scope !== undefined) return `execute({ code, scope }): ${scope}.`;
  const unknownOption = optionsProblem("execute(input, options)", options, EXECUTE_OPTION_KEYS);
  if (unknownOption !== undefined) return `${unknownOption} Nothing was run.`;
  const { toolCallId } = (options ?? {}) as ExecuteOptions;
  if (toolCallId !== undefined && (typeof toolCallId !== "string" || toolCallId.length > MAX_ID_CHARS)) {
    return `execute(input, { toolCallId }): toolCallId must be a string of at most ${MAX_ID_CHARS} characters.`;
  }
  const { executionId } = (options ?? {}) as ExecuteOptions;
  if (
    executionId !== undefined &&
    (typeof executionId !== "string" || executionId === "" || executionId.length > MAX_ID_CHARS)
  ) {
    return `execute(input, { executionId }): executionId must be a non-empty string of at most ${MAX_ID_CHARS} characters.`;
  }
  return undefined;
}

/** Runs a program as a new execution. Never throws for a failed program. */
export async function startExecution(
  core: RuntimeCore,
  input: ExecuteInput,
  options: ExecuteOptions,
): Promise<CodemodeOutput> {
  const { now, generateId, leaseMs } = core.options;
  const chosen = (options as { executionId?: unknown } | undefined)?.executionId;
  const executionId = typeof chosen === "string" && chosen !== "" ? chosen : generateId();
  const problem = inputProblem(input, options);
  if (problem !== undefined) return failure(executionId, "validation", problem);
  const { code, scope } = input;
  if (typeof chosen === "string") {
    let loaded: Awaited<ReturnType<RuntimeCore["store"]["load"]>>;
    try {
      loaded = await core.store.load(executionId);
    } catch (error) {
      return storeFailure(executionId, error);
    }
    if (loaded !== undefined) return takeOverExecution(core, loaded, code, options);
  }
  const size = checkJournalSize(code, "The program");
  if (!size.ok) return failure(executionId, "limit", size.error);
  preloadJsonSchemaValidator();
  const approval = await programNeedsApproval(core.options.approveProgram, code);
  if (!approval.ok) return failure(executionId, "validation", approval.error);
  const createdAt = now();
  const leaseToken = generateId();
  const connectorNames = Object.keys(core.connectors);
  if (approval.value) {
    return startAwaitingApproval(core, {
      executionId,
      code,
      connectors: connectorNames,
      now: createdAt,
      options,
      scope,
    });
  }
  const budgetsText = encodeBudgets(core.budgets);
  // The first pass's span exists before the insert, which stores its context: a resumed pass joins its trace.
  const traced = await traceFirstPass(core.tracing, executionId);
  let snippets: SnippetRecord[];
  try {
    snippets = await core.store.startExecution({
      executionId,
      code,
      connectors: connectorNames,
      now: createdAt,
      leaseToken,
      leaseUntil: createdAt + leaseMs,
      prune: pruneRule(core.options.retention, { now: createdAt, limit: PRUNE_AT_START_LIMIT }),
      ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
      ...(scope === undefined ? {} : { scope }),
      ...(traced === undefined ? {} : { traceContext: traced.record }),
      budgetsText,
    });
  } catch (error) {
    const output = storeFailure(executionId, error);
    traced?.trace.end(output);
    return output;
  }
  const execution = {
    runtime: core.options.name,
    executionId,
    status: "running" as const,
    code,
    connectors: connectorNames,
    createdAt,
    updatedAt: createdAt,
    passes: 1,
    logs: [],
    budgetsText,
    ...(scope === undefined ? {} : { scope }),
  };
  return runClaimedPass(core, { execution, calls: [], snippets, leaseToken, options, trace: traced?.trace });
}

/** Records an execution that waits for its program to be approved (`program-approval.ts`), and returns that pause. */
async function startAwaitingApproval(
  core: RuntimeCore,
  {
    executionId,
    code,
    connectors,
    now,
    options,
    scope,
  }: {
    executionId: string;
    code: string;
    connectors: string[];
    now: number;
    options: ExecuteOptions;
    scope: string | undefined;
  },
): Promise<CodemodeOutput> {
  const action = programApprovalAction(executionId, code);
  const argsText = encodeJournalValue(action.args, "the program");
  if (!argsText.ok) return failure(executionId, "limit", argsText.error);
  const traceContext = await tracePausedStart(core.tracing, executionId);
  try {
    await core.store.startExecution({
      executionId,
      code,
      connectors,
      now,
      leaseToken: core.options.generateId(),
      leaseUntil: now,
      prune: pruneRule(core.options.retention, { now, limit: PRUNE_AT_START_LIMIT }),
      programApproval: { connector: action.connector, method: action.method, argsText: argsText.value },
      budgetsText: encodeBudgets(core.budgets),
      ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
      ...(scope === undefined ? {} : { scope }),
      ...(traceContext === undefined ? {} : { traceContext }),
    });
  } catch (error) {
    return storeFailure(executionId, error);
  }
  return { status: "paused", executionId, pending: [action] };
}
