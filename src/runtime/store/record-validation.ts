/**
 * Validators for rows read from the store: nothing read is trusted. A row
 * that fails raises {@link CorruptRecordError}, which the runtime reports as
 * a `store` failure.
 */
import { CorruptRecordError } from "../../errors/corrupt-record-error.js";
import type { SqlRow as Row } from "./connection/sql-client.js";
import {
  FAILURE_RECORD_KINDS,
  RECORD_VERSION,
  type CallJournalRecord,
  type CallRecordStatus,
  type ExecutionRecord,
  type ExecutionRecordStatus,
  type FailureRecordKind,
  type SnippetRecord,
} from "../journal/records.js";

const EXECUTION_STATUSES = new Set<string>(["running", "paused", "completed", "error", "rejected", "rolled_back"]);
const CALL_STATUSES = new Set<string>(["pending", "executing", "applied", "error", "reverted"]);
const FAILURE_KINDS = new Set<string>(FAILURE_RECORD_KINDS);

function fail(table: string, column: string, expected: string): never {
  throw new CorruptRecordError(`Corrupt ${table} row: column ${column} is not ${expected}.`);
}

function text(row: Row, table: string, column: string): string {
  const value = row[column];
  if (typeof value !== "string") fail(table, column, "text");
  return value;
}

function optionalText(row: Row, table: string, column: string): string | undefined {
  const value = row[column];
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "string") fail(table, column, "text or null");
  return value;
}

function integer(row: Row, table: string, column: string): number {
  const value = row[column];
  const number = typeof value === "bigint" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number)) fail(table, column, "an integer");
  return number;
}

function optionalInteger(row: Row, table: string, column: string): number | undefined {
  const value = row[column];
  if (value === null || value === undefined) return undefined;
  return integer(row, table, column);
}

function stringArray(row: Row, table: string, column: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text(row, table, column));
  } catch {
    fail(table, column, "a JSON array of strings");
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string"))
    fail(table, column, "a JSON array of strings");
  return parsed;
}

function checkVersion(row: Row, table: string): void {
  const version = integer(row, table, "record_version");
  if (version !== RECORD_VERSION) {
    throw new CorruptRecordError(
      `${table} row has record version ${version}; this package reads version ${RECORD_VERSION}.`,
    );
  }
}

function oneOf<T extends string>(row: Row, table: string, column: string, allowed: Set<string>): T {
  const value = text(row, table, column);
  if (!allowed.has(value)) fail(table, column, `one of ${[...allowed].join(", ")}`);
  return value as T;
}

/** Validates a `codemode_executions` row. */
export function parseExecutionRow(row: Row): ExecutionRecord {
  const table = "codemode_executions";
  checkVersion(row, table);
  const kind = optionalText(row, table, "kind");
  if (kind !== undefined && !FAILURE_KINDS.has(kind)) fail(table, "kind", "a failure kind");
  const logs = row["logs"] === null ? [] : stringArray(row, table, "logs");
  const record: ExecutionRecord = {
    runtime: text(row, table, "runtime"),
    executionId: text(row, table, "id"),
    status: oneOf<ExecutionRecordStatus>(row, table, "status", EXECUTION_STATUSES),
    code: text(row, table, "code"),
    connectors: stringArray(row, table, "connectors"),
    createdAt: integer(row, table, "created_at"),
    updatedAt: integer(row, table, "updated_at"),
    passes: integer(row, table, "passes"),
    logs,
  };
  const resultText = optionalText(row, table, "result");
  if (resultText !== undefined) record.resultText = resultText;
  const error = optionalText(row, table, "error");
  if (error !== undefined) record.error = error;
  if (kind !== undefined) record.kind = kind as FailureRecordKind;
  const leaseToken = optionalText(row, table, "lease_token");
  if (leaseToken !== undefined) record.leaseToken = leaseToken;
  const leaseUntil = optionalInteger(row, table, "lease_until");
  if (leaseUntil !== undefined) record.leaseUntil = leaseUntil;
  const toolCallId = optionalText(row, table, "tool_call_id");
  if (toolCallId !== undefined) record.toolCallId = toolCallId;
  const workflowRunId = optionalText(row, table, "workflow_run_id");
  if (workflowRunId !== undefined) record.workflowRunId = workflowRunId;
  const scope = optionalText(row, table, "scope");
  if (scope !== undefined) record.scope = scope;
  const traceContext = optionalText(row, table, "trace_context");
  if (traceContext !== undefined) record.traceContext = traceContext;
  const budgetsText = optionalText(row, table, "budgets");
  if (budgetsText !== undefined) record.budgetsText = budgetsText;
  const modulesText = optionalText(row, table, "modules");
  if (modulesText !== undefined) record.modulesText = modulesText;
  return record;
}

/** Validates a `codemode_calls` row. */
export function parseCallRow(row: Row): CallJournalRecord {
  const table = "codemode_calls";
  checkVersion(row, table);
  const replay = text(row, table, "replay");
  if (replay !== "record" && replay !== "reexecute") fail(table, "replay", "record or reexecute");
  const record: CallJournalRecord = {
    seq: integer(row, table, "seq"),
    connector: text(row, table, "connector"),
    method: text(row, table, "method"),
    argsText: text(row, table, "args"),
    status: oneOf<CallRecordStatus>(row, table, "status", CALL_STATUSES),
    replay,
    needsApproval: integer(row, table, "requires_approval") !== 0,
    replayedCount: integer(row, table, "replayed_count"),
  };
  const resultText = optionalText(row, table, "result");
  if (resultText !== undefined) record.resultText = resultText;
  const error = optionalText(row, table, "error");
  if (error !== undefined) record.error = error;
  const approvedAt = optionalInteger(row, table, "approved_at");
  if (approvedAt !== undefined) record.approvedAt = approvedAt;
  const approvedArgsText = optionalText(row, table, "approved_args");
  if (approvedArgsText !== undefined) record.approvedArgsText = approvedArgsText;
  const startedAt = optionalInteger(row, table, "started_at");
  if (startedAt !== undefined) record.startedAt = startedAt;
  const finishedAt = optionalInteger(row, table, "finished_at");
  if (finishedAt !== undefined) record.finishedAt = finishedAt;
  const cost = row["cost"];
  if (cost !== null && cost !== undefined) {
    if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) fail(table, "cost", "a number >= 0 or null");
    record.cost = cost;
  }
  const decidedBy = optionalText(row, table, "decided_by");
  if (decidedBy !== undefined) record.decidedBy = decidedBy;
  return record;
}

/** Validates a `codemode_snippets` row. */
export function parseSnippetRow(row: Row): SnippetRecord {
  const table = "codemode_snippets";
  checkVersion(row, table);
  const record: SnippetRecord = {
    name: text(row, table, "name"),
    code: text(row, table, "code"),
    connectors: stringArray(row, table, "connectors"),
    executionId: text(row, table, "execution_id"),
    createdAt: integer(row, table, "created_at"),
  };
  const description = optionalText(row, table, "description");
  if (description !== undefined) record.description = description;
  const inputSchemaText = optionalText(row, table, "input_schema");
  if (inputSchemaText !== undefined) record.inputSchemaText = inputSchemaText;
  return record;
}
