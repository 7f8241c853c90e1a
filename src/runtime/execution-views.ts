/**
 * Turns stored records into the public views (`ExecutionSummary`,
 * `ExecutionDetail`, `CallRecord`, `PendingAction`, `Snippet`), decoding
 * journaled values with their types.
 */
import type { ConnectorMethod } from "../connectors/types.js";
import { decodeJournalValue } from "./journal/journal-values.js";
import { STEP_CONNECTOR } from "./pass/step-policy.js";
import { withRequest } from "./pass/with-request.js";
import type { CallJournalRecord, ExecutionRecord, SnippetRecord } from "./journal/records.js";
import type {
  AppliedCall,
  CallRecord,
  EditedCall,
  ExecutionDetail,
  ExecutionSummary,
  PendingAction,
  Snippet,
} from "./types.js";

/** A stored execution as listed by `executions()`. */
export function executionSummary(record: ExecutionRecord): ExecutionSummary {
  const summary: ExecutionSummary = {
    executionId: record.executionId,
    runtime: record.runtime,
    status: record.status,
    code: record.code,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    passes: record.passes,
  };
  if (record.error !== undefined) summary.error = record.error;
  if (record.kind !== undefined) summary.kind = record.kind;
  if (record.scope !== undefined) summary.scope = record.scope;
  if (record.toolCallId !== undefined) summary.toolCallId = record.toolCallId;
  if (record.workflowRunId !== undefined) summary.workflowRunId = record.workflowRunId;
  return summary;
}

/** A stored call as shown by `execution(id)`; `lookup` finds its method in this runtime (for `revertible`). */
function callRecord(record: CallJournalRecord, lookup?: MethodLookup): CallRecord {
  const call: CallRecord = {
    seq: record.seq,
    connector: record.connector,
    method: record.method,
    args: decodeJournalValue(record.argsText),
    status: record.status,
    replay: record.replay,
    needsApproval: record.needsApproval,
    replayedCount: record.replayedCount,
    revertible: lookup?.(record.connector, record.method)?.revert !== undefined,
  };
  if (record.resultText !== undefined) call.result = decodeJournalValue(record.resultText);
  if (record.error !== undefined) call.error = record.error;
  if (record.approvedAt !== undefined) call.approvedAt = record.approvedAt;
  if (record.approvedArgsText !== undefined) call.approvedArgs = decodeJournalValue(record.approvedArgsText);
  if (record.startedAt !== undefined) call.startedAt = record.startedAt;
  if (record.finishedAt !== undefined) call.finishedAt = record.finishedAt;
  if (record.cost !== undefined) call.cost = record.cost;
  if (record.decidedBy !== undefined) call.decidedBy = record.decidedBy;
  return call;
}

/**
 * Whether a stored call took effect on a connector: `applied`, and neither a `codemode.step` nor the
 * whole-program approval row (both are journaled under the `codemode` connector and touch nothing).
 */
export function isAppliedEffect(record: CallJournalRecord): boolean {
  return record.status === "applied" && record.connector !== STEP_CONNECTOR;
}

/** The calls of an execution that took effect, in sequence order (what a rejection leaves applied). */
export function appliedCalls(records: readonly CallJournalRecord[]): AppliedCall[] {
  return records
    .filter(isAppliedEffect)
    .sort((a, b) => a.seq - b.seq)
    .map((record) => ({
      seq: record.seq,
      connector: record.connector,
      method: record.method,
      // What took effect: the arguments it ran with (the approver's, when edited).
      args: decodeJournalValue(record.approvedArgsText ?? record.argsText),
    }));
}

/** The calls of an execution that a person approved with changed arguments, in sequence order. */
export function editedCalls(records: readonly CallJournalRecord[]): EditedCall[] {
  return records
    .flatMap((record) =>
      record.approvedArgsText === undefined
        ? []
        : [
            {
              seq: record.seq,
              connector: record.connector,
              method: record.method,
              args: decodeJournalValue(record.argsText),
              approvedArgs: decodeJournalValue(record.approvedArgsText),
            },
          ],
    )
    .sort((a, b) => a.seq - b.seq);
}

/** Finds the configured definition of a journaled call, if its connector and method still exist. */
export type MethodLookup = (connector: string, method: string) => ConnectorMethod | undefined;

/** A pending call as listed by `pending()` and in a `paused` output. */
export function pendingAction(executionId: string, record: CallJournalRecord, lookup?: MethodLookup): PendingAction {
  const action = {
    executionId,
    seq: record.seq,
    connector: record.connector,
    method: record.method,
    args: decodeJournalValue(record.argsText),
  };
  return withRequest(action, lookup?.(record.connector, record.method));
}

/** An execution with its call log. */
export function executionDetail(
  record: ExecutionRecord,
  calls: CallJournalRecord[],
  lookup?: MethodLookup,
): ExecutionDetail {
  const detail: ExecutionDetail = {
    ...executionSummary(record),
    logs: record.logs,
    pending:
      record.status === "paused"
        ? calls
            .filter((call) => call.status === "pending" && call.approvedAt === undefined)
            .map((call) => pendingAction(record.executionId, call, lookup))
        : [],
    calls: calls.map((call) => callRecord(call, lookup)),
    connectors: record.connectors,
  };
  if (record.resultText !== undefined) detail.result = decodeJournalValue(record.resultText);
  return detail;
}

/** A stored snippet. */
export function snippetView(record: SnippetRecord): Snippet {
  const snippet: Snippet = {
    name: record.name,
    code: record.code,
    connectors: record.connectors,
    executionId: record.executionId,
    createdAt: record.createdAt,
  };
  if (record.description !== undefined) snippet.description = record.description;
  if (record.inputSchemaText !== undefined) snippet.inputSchema = JSON.parse(record.inputSchemaText) as unknown;
  return snippet;
}
