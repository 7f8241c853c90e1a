// Shared by the e2e tests that check what ran in the store itself, not only on the page: the example's
// database read directly (the pretend GitHub's log, the stored chats) and the codemode journal.
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { createCodemodeRuntime } from "ai-codemode";
import { STEP_TIMEOUT_MS } from "./app-server.mjs";

/** Opens the app's database at `databaseUrl` to read what the app did; `close()` it when done. */
export function openExampleStore(databaseUrl) {
  const database = createClient({ url: databaseUrl });
  const journal = createCodemodeRuntime({ store: databaseUrl });

  /** The merges the pretend GitHub made (lib/github-tools.ts writes one row per merge). */
  async function merges() {
    const exists = await database.execute("SELECT name FROM sqlite_master WHERE name = 'example_github_log'");
    if (exists.rows.length === 0) return [];
    const rows = await database.execute("SELECT number FROM example_github_log WHERE action = 'merged' ORDER BY id");
    return rows.rows.map((row) => Number(row.number));
  }

  /** The sponsorship payments made (lib/github-tools.ts writes one row per payment, with the amount paid). */
  async function sponsorships() {
    const exists = await database.execute("SELECT name FROM sqlite_master WHERE name = 'example_sponsor_log'");
    if (exists.rows.length === 0) return [];
    const rows = await database.execute("SELECT login, amount FROM example_sponsor_log ORDER BY id");
    return rows.rows.map((row) => ({ login: String(row.login), amount: Number(row.amount) }));
  }

  /** Everything the journal holds about an execution that a run would change. */
  async function execution(executionId) {
    const detail = await journal.execution(executionId);
    assert.ok(detail, `execution ${executionId} is stored`);
    const { status, passes, updatedAt, calls } = detail;
    return {
      status,
      passes,
      updatedAt,
      calls: calls.map((call) => ({
        seq: call.seq,
        call: `${call.connector}.${call.method}`,
        status: call.status,
        approved: call.approvedAt !== undefined,
        replayed: call.replayedCount,
        ...(call.approvedArgs === undefined ? {} : { args: call.args, approvedArgs: call.approvedArgs }),
      })),
    };
  }

  /** The workflow run an execution belongs to (the `/workflow` chat's executions record it). */
  async function workflowRunId(executionId) {
    const detail = await journal.execution(executionId);
    assert.ok(detail, `execution ${executionId} is stored`);
    return detail.workflowRunId;
  }

  /** The id of the newest execution whose program contains `text` (the journal's own list, newest first). */
  async function latestExecutionId(text) {
    const found = (await journal.executions(50)).find((summary) => summary.code.includes(text));
    assert.ok(found, `an execution whose program contains ${text} is stored`);
    return found.executionId;
  }

  /** Who decided each decided call of an execution, as the journal recorded it (`decidedBy`), by call. */
  async function deciders(executionId) {
    const detail = await journal.execution(executionId);
    assert.ok(detail, `execution ${executionId} is stored`);
    return Object.fromEntries(
      detail.calls
        .filter((call) => call.decidedBy !== undefined)
        .map((call) => [`${call.connector}.${call.method}`, call.decidedBy]),
    );
  }

  /** The stored chat's approval parts still waiting for an answer (the cards a reload shows). */
  async function openApprovals(chatId) {
    const rows = await database.execute({
      sql: "SELECT message FROM example_chat_messages WHERE chat_id = ? ORDER BY position",
      args: [chatId],
    });
    return rows.rows
      .flatMap((row) => JSON.parse(String(row.message)).parts)
      .filter((part) => part.state === "approval-requested")
      .map((part) => ({ toolCallId: part.toolCallId, approvalId: part.approval.id }));
  }

  /** Polls until the chat's open approvals have the ids `expected` (a response is saved when its stream ended). */
  async function waitForOpenApprovals(chatId, expected) {
    const ids = async () => (await openApprovals(chatId)).map((card) => card.approvalId);
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    let seen = await ids();
    while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await ids();
    }
    assert.deepEqual(seen, expected);
  }

  return {
    merges,
    sponsorships,
    execution,
    workflowRunId,
    latestExecutionId,
    deciders,
    openApprovals,
    waitForOpenApprovals,
    async close() {
      await journal.close();
      database.close();
    },
  };
}
