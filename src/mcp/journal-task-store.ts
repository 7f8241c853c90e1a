/**
 * MCP tasks (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) answered from the
 * runtime's journal: a task is an execution (task id = execution id) and its status is read from
 * the journal on every request, so any instance or process over the same database answers it
 * and nothing lives in memory. Tasks are owned by the server's scope (from the handler's
 * `authorize`), never by the MCP session: another owner's execution is not found.
 */
import { ProtocolError, ProtocolErrorCode, type Result, type Task } from "@modelcontextprotocol/server";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import type { ExecutionDetail, ExecutionSummary } from "../runtime/types.js";
import { CODEMODE_TOOL } from "./mcp-tools.js";
import type { ToolResult } from "./tool-result.js";

/** How often a client polls a task (and the SDK re-reads the journal while `tasks/result` waits). */
const TASK_POLL_INTERVAL_MS = 1000;
/** Tasks in one `tasks/list` page. */
const TASK_PAGE_SIZE = 50;
/** Tasks `tasks/list` pages through at most (the newest executions of the owner). */
const MAX_LISTED_TASKS = 1000;

/** What the store needs from the server. */
export interface JournalTaskStoreOptions {
  runtime: () => Promise<CodemodeRuntime>;
  scope: string | undefined;
  /** The `codemode` tool result of an execution that ended (what `codemode_outcome` returns). */
  outcome: (runtime: CodemodeRuntime, detail: ExecutionDetail) => Promise<ToolResult>;
  /** How a person decides a paused execution (`{id}` is the execution id). */
  approvalHint: string;
}

/** The tasks of one owner over the journal (`null`: no such task for this owner). */
export interface JournalTaskStore {
  /** Runs `args.code`'s first pass (to its end or first pause) and returns the execution as a task. */
  start(args: unknown): Promise<Task>;
  getTask(taskId: string): Promise<Task | null>;
  /** The tool result of a task that ended. */
  getTaskResult(taskId: string): Promise<Result>;
  listTasks(cursor: string | undefined): Promise<{ tasks: Task[]; nextCursor?: string }>;
  /** Rejects the execution (a person's "no" by the client); a running pass is not stopped. */
  cancel(taskId: string): Promise<void>;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The task status of an execution status (a rejection, here or by a person elsewhere, cancels the request). */
function taskStatus(status: ExecutionSummary["status"]): Task["status"] {
  switch (status) {
    case "running":
      return "working";
    case "paused":
      return "input_required";
    case "completed":
      return "completed";
    case "rejected":
      return "cancelled";
    case "error":
    case "rolled_back":
      // The tool result is `isError`, and for a tool call the specification makes that `failed`.
      return "failed";
  }
}

function statusMessage(execution: ExecutionSummary, hint: string): string | undefined {
  const { executionId } = execution;
  switch (execution.status) {
    case "paused":
      return (
        `Waiting for a person to approve or reject the calls of execution ${executionId}; the model cannot. ` +
        `${hint.replaceAll("{id}", executionId)} tasks/result returns the result once it ends; tasks/cancel rejects it.`
      );
    case "error":
      return execution.error;
    case "rejected":
      return `Rejected${execution.error === undefined ? "" : `: ${execution.error}`}.`;
    case "rolled_back":
      return "Rolled back: its applied calls were reverted.";
    default:
      return undefined;
  }
}

function toTask(execution: ExecutionSummary, hint: string): Task {
  const message = statusMessage(execution, hint);
  return {
    taskId: execution.executionId,
    status: taskStatus(execution.status),
    // The journal's retention (`pruneExecutions`, `expirePaused`) ends a task, not a timer here.
    ttl: null,
    createdAt: iso(execution.createdAt),
    lastUpdatedAt: iso(execution.updatedAt),
    pollInterval: TASK_POLL_INTERVAL_MS,
    ...(message === undefined ? {} : { statusMessage: message }),
  };
}

/** `tasks/list` cursors: how many of the owner's newest executions earlier pages listed. */
function readCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = /^o(\d{1,6})$/.exec(cursor)?.[1];
  if (offset === undefined) throw new Error("the cursor is not one tasks/list returned");
  return Number(offset);
}

/** The task store of a server whose tasks are `scope`'s executions. */
export function createJournalTaskStore(options: JournalTaskStoreOptions): JournalTaskStore {
  const { scope, approvalHint } = options;
  const scoped = scope === undefined ? {} : { scope };

  const read = async (taskId: string): Promise<{ runtime: CodemodeRuntime; detail: ExecutionDetail } | undefined> => {
    const runtime = await options.runtime();
    const detail = await runtime.execution(taskId, scoped);
    return detail === undefined ? undefined : { runtime, detail };
  };

  return {
    async start(args) {
      const code = typeof args === "object" && args !== null ? (args as Record<string, unknown>)["code"] : undefined;
      if (typeof code !== "string")
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `${CODEMODE_TOOL} takes { "code": string }: the program (an async arrow function) as a string.`,
        );
      // A retry of a -32042 answer reads its execution; as a task it would run the program again.
      if ((args as Record<string, unknown>)["retry"] !== undefined)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `A ${CODEMODE_TOOL} call with "retry" gets the result of the call that paused; send it without a task.`,
        );
      const runtime = await options.runtime();
      // No abort signal: a task outlives the request that created it. The pass runs inside this request
      // because a serverless instance may be frozen once it answered; a pause ends it quickly.
      const output = await runtime.execute({ code, ...scoped });
      const found = await read(output.executionId);
      if (found === undefined) {
        // Refused before it was journaled (e.g. too long a program): there is no task to poll.
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          output.status === "error" ? output.error : "The execution left nothing in the journal.",
        );
      }
      return toTask(found.detail, approvalHint);
    },
    async getTask(taskId) {
      const found = await read(taskId);
      return found === undefined ? null : toTask(found.detail, approvalHint);
    },
    async getTaskResult(taskId): Promise<Result> {
      const found = await read(taskId);
      if (found === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
      const result = await options.outcome(found.runtime, found.detail);
      // A `failed` task's tool result is an error, as the specification pairs them (a rolled-back run too).
      return taskStatus(found.detail.status) === "failed" ? { ...result, isError: true } : result;
    },
    async listTasks(cursor) {
      const offset = readCursor(cursor);
      const end = Math.min(offset + TASK_PAGE_SIZE, MAX_LISTED_TASKS);
      if (offset >= end) return { tasks: [] };
      const runtime = await options.runtime();
      const executions = await runtime.executions(end + 1, scoped);
      const tasks = executions.slice(offset, end).map((execution) => toTask(execution, approvalHint));
      return executions.length > end && end < MAX_LISTED_TASKS ? { tasks, nextCursor: `o${end}` } : { tasks };
    },
    async cancel(taskId) {
      const runtime = await options.runtime();
      const rejected = await runtime.reject({
        executionId: taskId,
        ...scoped,
        reason: "cancelled by the MCP client (tasks/cancel)",
      });
      // A running pass cannot be stopped from another request (it may be in another process).
      if (rejected.status === "error") throw new Error(rejected.error);
    },
  };
}
