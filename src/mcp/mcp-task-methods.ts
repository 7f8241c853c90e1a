/**
 * The 2025-11-25 task methods (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`) on a server of the MCP
 * SDK v2, answered from the journal. The SDK v2 keeps the task wire types but no task runtime (the 2026-07-28
 * revision moved tasks to an extension), so they are registered here as methods of their own; a 2026-07-28 client
 * never sees them (the SDK answers its requests from its own method table). `tasks/result` waits, re-reading the
 * journal at the task's poll interval, until the execution ended.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Server,
  type StandardSchemaV1,
  type Task,
} from "@modelcontextprotocol/server";
import { isRecord } from "../shared/is-record.js";
import { messageOf } from "../shared/message-of.js";
import type { JournalTaskStore } from "./journal-task-store.js";

/** Params as they came (each method reads its own keys): the SDK needs a schema for a method it does not know. */
const PARAMS: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "ai-codemode",
    validate: (value) => ({ value: isRecord(value) ? value : {} }),
  },
};

/** A task no later request changes. */
function isTerminal(status: Task["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

function taskIdOf(params: Record<string, unknown>): string {
  const taskId = params["taskId"];
  if (typeof taskId !== "string") throw new ProtocolError(ProtocolErrorCode.InvalidParams, "taskId must be a string.");
  return taskId;
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, "Request cancelled"));
    if (signal.aborted) return cancelled();
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      cancelled();
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Registers the task methods of `tasks` on `server`. */
export function registerTaskMethods(server: Server, tasks: JournalTaskStore): void {
  const found = async (taskId: string): Promise<Task> => {
    const task = await tasks.getTask(taskId);
    if (task === null) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return task;
  };
  server.setRequestHandler("tasks/get", { params: PARAMS }, async (params) => ({ ...(await found(taskIdOf(params))) }));
  server.setRequestHandler("tasks/result", { params: PARAMS }, async (params, ctx) => {
    const taskId = taskIdOf(params);
    let task = await found(taskId);
    while (!isTerminal(task.status)) {
      await pause(task.pollInterval ?? 1000, ctx.mcpReq.signal);
      task = await found(taskId);
    }
    const result = await tasks.getTaskResult(taskId);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  });
  server.setRequestHandler("tasks/list", { params: PARAMS }, async (params) => {
    const cursor = params["cursor"];
    try {
      return await tasks.listTasks(typeof cursor === "string" ? cursor : undefined);
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to list tasks: ${messageOf(error)}`);
    }
  });
  server.setRequestHandler("tasks/cancel", { params: PARAMS }, async (params) => {
    const taskId = taskIdOf(params);
    const task = await found(taskId);
    if (isTerminal(task.status))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${task.status}`);
    try {
      await tasks.cancel(taskId);
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Failed to cancel task: ${messageOf(error)}`);
    }
    return { ...(await found(taskId)) };
  });
}
