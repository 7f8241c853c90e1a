/**
 * The CLI's commands over an opened runtime: each prints text (or JSON with `--json`)
 * and returns the exit code.
 */
import { executionTimeline } from "../inspector/execution-timeline.js";
import { inspectorJson } from "../inspector/inspector-json.js";
import type { HousekeepingRuntime, InspectorRuntime } from "../inspector/inspector-runtime.js";
import { EXECUTION_STATUSES, listExecutions } from "../inspector/list-executions.js";
import type { CodemodeOutput, ExecutionStatus, RejectOutput, RollbackOutput } from "../runtime/types.js";
import { CliError } from "../errors/cli-error.js";
import { formatExecution } from "./format-execution.js";
import { formatExecutionsTable, formatPendingTable } from "./format-executions.js";
import { parseDuration, parseSince } from "./parse-duration.js";
import type { CliIo } from "./cli-io.js";
import { serveInspector } from "./serve-inspector.js";
import { formatDuration, inlineValue, terminalSafe } from "./text-format.js";
import { usageError } from "./usage-error.js";

/** Everything a command needs. */
export interface CommandContext {
  runtime: InspectorRuntime & Partial<HousekeepingRuntime>;
  /** Whether the runtime came from the app's `--runtime` module (it has the app's connectors). */
  fromModule: boolean;
  /** The store the CLI opened itself (its URL without credentials); the app's module names its own. */
  store?: string;
  io: CliIo;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
}

function integerOption(context: CommandContext, name: string, minimum: number): number | undefined {
  const text = context.values[name];
  if (typeof text !== "string") return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < minimum)
    throw usageError(`--${name} must be an integer of at least ${minimum} (got "${text}").`);
  return value;
}

function executionIdArgument(context: CommandContext, command: string): string {
  const [executionId, extra] = context.positionals;
  if (executionId === undefined || extra !== undefined)
    throw usageError(`${command} takes one execution id: ai-codemode ${command} <id>.`);
  return executionId;
}

/** How many of the newest executions a short id is looked up among. */
const PREFIX_SCAN_LIMIT = 1000;

/**
 * The shortest prefix taken for an id: the 8 characters the lists show. Of random ids, one in about four billion
 * shares a given 8-character prefix, so a short id still names one execution in a large journal; two characters
 * named one of 256.
 */
const MIN_PREFIX_CHARS = 8;

/** Up to five ids, for a message. */
function candidates(matches: ReadonlyArray<{ executionId: string }>): string {
  const listed = matches.slice(0, 5).map((summary) => terminalSafe(summary.executionId));
  return `${listed.join(", ")}${matches.length > 5 ? ", …" : ""}`;
}

/**
 * The execution `given` names: its full id, or a unique prefix of at least {@link MIN_PREFIX_CHARS} characters
 * (what the web list and `executions` show); `given` itself when nothing matches.
 * A shorter prefix and an ambiguous one are refused with the candidates; so is any prefix once the store holds more
 * executions than are scanned (an older one could match too), for the actions that change something.
 */
async function resolveExecutionId(context: CommandContext, given: string, acts: boolean): Promise<string> {
  if ((await context.runtime.execution(given)) !== undefined) return given;
  const newest = await context.runtime.executions(PREFIX_SCAN_LIMIT);
  const lower = given.toLowerCase();
  const matches = newest.filter((summary) => summary.executionId.toLowerCase().startsWith(lower));
  // Unknown: the command reports it as it reports any missing execution.
  if (matches.length === 0) return given;
  if (given.length < MIN_PREFIX_CHARS) {
    throw new CliError({
      message:
        `${terminalSafe(given)} is not an execution id, and a short id must be at least ${MIN_PREFIX_CHARS} characters ` +
        `(as the executions list shows it) so that it cannot name another execution of a large journal: give ` +
        `${MIN_PREFIX_CHARS} or more characters of the id. Ids that start with it: ${candidates(matches)}.`,
      usage: true,
    });
  }
  if (matches.length > 1) {
    throw new CliError({
      message: `${matches.length} executions start with ${terminalSafe(given)}: ${candidates(matches)}. Give more of the id.`,
      usage: true,
    });
  }
  if (acts && newest.length >= PREFIX_SCAN_LIMIT) {
    throw new CliError({
      message: `${terminalSafe(given)} is not a full execution id, and the store has more than ${PREFIX_SCAN_LIMIT} executions, so another could start with it too: give the whole id (${terminalSafe(matches[0]?.executionId ?? "")}?).`,
      usage: true,
    });
  }
  return matches[0]?.executionId ?? given;
}

function print(context: CommandContext, value: unknown, text: () => string): void {
  context.io.stdout(`${context.json ? inspectorJson(value, 2) : text()}\n`);
}

async function executions(context: CommandContext): Promise<number> {
  const status = context.values["status"];
  if (status !== undefined && !EXECUTION_STATUSES.includes(status as ExecutionStatus)) {
    throw usageError(`--status must be one of ${EXECUTION_STATUSES.join(", ")} (got "${String(status)}").`);
  }
  const now = context.io.now();
  const sinceText = context.values["since"];
  const since = typeof sinceText === "string" ? parseSince(sinceText, now) : undefined;
  if (typeof sinceText === "string" && since === undefined)
    throw usageError(`--since takes an age (30m, 24h, 7d) or an ISO date (got "${sinceText}").`);
  const rows = await listExecutions(context.runtime, {
    status: status as ExecutionStatus | undefined,
    since,
    limit: integerOption(context, "limit", 1),
    now: context.io.now,
  });
  print(context, { runtime: context.runtime.name, executions: rows }, () => formatExecutionsTable(rows, now));
  return 0;
}

async function show(context: CommandContext): Promise<number> {
  const executionId = await resolveExecutionId(context, executionIdArgument(context, "show"), false);
  const detail = await context.runtime.execution(executionId);
  if (detail === undefined) {
    context.io.stderr(
      `No execution ${terminalSafe(executionId)} in runtime "${terminalSafe(context.runtime.name)}"` +
        `${context.store === undefined ? "" : ` of ${terminalSafe(context.store)}`} (nor one whose id starts with it).\n`,
    );
    return 1;
  }
  const timeline = executionTimeline(detail);
  print(context, { execution: detail, timeline }, () => formatExecution(detail, timeline));
  return 0;
}

async function pending(context: CommandContext): Promise<number> {
  const [given] = context.positionals;
  const executionId = given === undefined ? undefined : await resolveExecutionId(context, given, false);
  const actions = await context.runtime.pending(executionId);
  print(context, { pending: actions }, () => formatPendingTable(actions));
  return 0;
}

function housekeeping(context: CommandContext): HousekeepingRuntime {
  const { pruneExecutions, expirePaused } = context.runtime;
  if (typeof pruneExecutions !== "function" || typeof expirePaused !== "function") {
    throw new CliError({
      message:
        "The --runtime export has no pruneExecutions()/expirePaused(): export the handle createCodemodeRuntime() returns.",
    });
  }
  return { pruneExecutions, expirePaused };
}

async function prune(context: CommandContext): Promise<number> {
  const keep = integerOption(context, "keep", 0);
  const { deleted } = await housekeeping(context).pruneExecutions(keep);
  print(context, { deleted }, () =>
    deleted.length === 0
      ? "Nothing to prune."
      : `Deleted ${deleted.length} execution(s): ${deleted.map(terminalSafe).join(", ")}`,
  );
  return 0;
}

async function expire(context: CommandContext): Promise<number> {
  const text = context.values["older-than"];
  const maxAgeMs = typeof text === "string" ? parseDuration(text) : undefined;
  if (maxAgeMs === undefined) throw usageError("expire needs --older-than <age> (e.g. 24h, 7d, 30m).");
  const { expired } = await housekeeping(context).expirePaused({ maxAgeMs });
  print(context, { expired }, () =>
    expired.length === 0
      ? `No paused execution older than ${formatDuration(maxAgeMs)} and no dead running one.`
      : expired.map((entry) => `${terminalSafe(entry.executionId)}  → ${entry.status}`).join("\n"),
  );
  return 0;
}

function outcomeText(output: CodemodeOutput | RejectOutput | RollbackOutput): string {
  const id = terminalSafe(output.executionId);
  switch (output.status) {
    case "completed":
      return `Execution ${id} completed.\nResult  ${inlineValue(output.result)}${output.logs?.length ? `\nLogs    ${output.logs.map(inlineValue).join("\n        ")}` : ""}`;
    case "paused":
      return `Execution ${id} paused again, waiting for:\n${output.pending.map((action) => `  #${action.seq} ${terminalSafe(`${action.connector}.${action.method}`)} ${inlineValue(action.args)}`).join("\n")}`;
    case "rejected":
      return `Execution ${id} rejected.`;
    case "rolled_back":
      return (
        `Execution ${id} rolled back: reverted ${output.reverted.map((seq) => `#${seq}`).join(", ")}` +
        `${output.skipped.length ? `; left applied (no revert) ${output.skipped.map((seq) => `#${seq}`).join(", ")}` : ""}` +
        `${output.errors.length ? `; failed ${output.errors.map((entry) => `#${entry.seq}: ${inlineValue(entry.error)}`).join("; ")}` : ""}`
      );
    case "error":
      return `Execution ${id}: ${output.kind}: ${inlineValue(output.error)}`;
  }
}

async function act(context: CommandContext, command: string): Promise<number> {
  const executionId = await resolveExecutionId(context, executionIdArgument(context, command), true);
  const seq = integerOption(context, "seq", 0);
  const target = seq === undefined ? { executionId } : { executionId, seq };
  const reason = context.values["reason"];
  const output =
    command === "approve"
      ? await context.runtime.approve(target)
      : command === "reject"
        ? await context.runtime.reject(typeof reason === "string" ? { ...target, reason } : target)
        : await context.runtime.rollback({ executionId });
  print(context, output, () => outcomeText(output));
  return output.status === "error" ? 1 : 0;
}

async function inspect(context: CommandContext): Promise<number> {
  if (context.values["web"] !== true)
    throw usageError("inspect serves the web inspector: ai-codemode inspect --web [--port N].");
  const port = integerOption(context, "port", 0) ?? 4319;
  if (port > 65_535) throw usageError("--port must be at most 65535.");
  const server = await serveInspector({ runtime: context.runtime, port, readOnly: !context.fromModule });
  context.io.stdout(
    `Inspector on ${server.url}${context.fromModule ? "" : " (read-only: pass --runtime <module> to approve, reject and roll back)"}\n`,
  );
  context.io.onListening?.(server.url);
  await new Promise<void>((resolve) => {
    if (context.io.signal !== undefined) {
      if (context.io.signal.aborted) resolve();
      context.io.signal.addEventListener("abort", () => resolve(), { once: true });
      return;
    }
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await server.close();
  return 0;
}

/** Runs `command`; resolves with the exit code. */
export async function runCommand(command: string, context: CommandContext): Promise<number> {
  switch (command) {
    case "executions":
      return executions(context);
    case "show":
      return show(context);
    case "pending":
      return pending(context);
    case "prune":
      return prune(context);
    case "expire":
      return expire(context);
    case "approve":
    case "reject":
    case "rollback":
      return act(context, command);
    case "inspect":
      return inspect(context);
    default:
      throw usageError(`Unknown command "${command}".`);
  }
}
