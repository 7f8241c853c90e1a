/**
 * The chats, in the example's own tables of the same libSQL database as the codemode journal
 * (prefixed `example_`; the runtime's tables are `codemode_*`). A chat belongs to the user who
 * started it; its messages are stored one row each, as the UI messages useChat shows, with a
 * version number: an update names the version it read, so of two tabs answering the same card,
 * only the first outcome is kept.
 */
import type { UIMessage } from "ai";
import { getDatabase } from "./database";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS example_chats (
    chat_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS example_chats_by_user ON example_chats (user_id, updated_at)",
  `CREATE TABLE IF NOT EXISTS example_chat_messages (
    chat_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    message TEXT NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (chat_id, message_id)
  )`,
];

/** A stored message and the version an update must name. */
export interface StoredMessage {
  message: UIMessage;
  version: number;
}

/** A chat as its user may see it: theirs, not started yet, or someone else's. */
export type LoadedChat = { status: "mine"; messages: StoredMessage[] } | { status: "new" } | { status: "foreign" };

let ready: Promise<unknown> | undefined;

async function database() {
  const db = getDatabase();
  ready ??= db.batch(SCHEMA, "write").catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  await ready;
  return db;
}

/** The id prefix of the `/workflow` chat's conversations (its agent runs as a workflow; answered by its own route). */
export const WORKFLOW_CHAT_PREFIX = "wf-";

/** Whether a chat is one of the `/workflow` chat's conversations. */
export function isWorkflowChat(chatId: string): boolean {
  return chatId.startsWith(WORKFLOW_CHAT_PREFIX);
}

/** The user's most recently updated chat of `/` (not of `/workflow`), if any. */
export async function latestChatId(userId: string): Promise<string | undefined> {
  const db = await database();
  const rows = await db.execute({
    sql: `SELECT chat_id FROM example_chats WHERE user_id = ? AND chat_id NOT LIKE '${WORKFLOW_CHAT_PREFIX}%'
          ORDER BY updated_at DESC LIMIT 1`,
    args: [userId],
  });
  const chatId = rows.rows[0]?.["chat_id"];
  return typeof chatId === "string" ? chatId : undefined;
}

/** A chat and its messages, in order, if `userId` owns it. */
export async function loadChat({ chatId, userId }: { chatId: string; userId: string }): Promise<LoadedChat> {
  const db = await database();
  const [owner, messages] = await db.batch(
    [
      { sql: "SELECT user_id FROM example_chats WHERE chat_id = ?", args: [chatId] },
      {
        sql: "SELECT message, version FROM example_chat_messages WHERE chat_id = ? ORDER BY position",
        args: [chatId],
      },
    ],
    "read",
  );
  const ownerId = owner?.rows[0]?.["user_id"];
  if (ownerId === undefined) return { status: "new" };
  if (ownerId !== userId) return { status: "foreign" };
  return {
    status: "mine",
    messages: (messages?.rows ?? []).map((row) => ({
      message: JSON.parse(String(row["message"])) as UIMessage,
      version: Number(row["version"]),
    })),
  };
}

/**
 * Appends a new message to the chat (creating the chat for `userId` if it does not exist).
 * False when the chat is someone else's or already has a message with this id.
 */
export async function appendMessage({
  chatId,
  userId,
  message,
}: {
  chatId: string;
  userId: string;
  message: UIMessage;
}): Promise<boolean> {
  const db = await database();
  const now = Date.now();
  const [, inserted] = await db.batch(
    [
      {
        sql: `INSERT INTO example_chats (chat_id, user_id, created_at, updated_at) VALUES (?, ?, ?, ?)
              ON CONFLICT (chat_id) DO UPDATE SET updated_at = excluded.updated_at
              WHERE example_chats.user_id = excluded.user_id`,
        args: [chatId, userId, now, now],
      },
      {
        sql: `INSERT INTO example_chat_messages (chat_id, message_id, position, message, version)
              SELECT ?, ?, COALESCE((SELECT MAX(position) + 1 FROM example_chat_messages WHERE chat_id = ?), 0), ?, 1
              WHERE EXISTS (SELECT 1 FROM example_chats WHERE chat_id = ? AND user_id = ?)
              ON CONFLICT (chat_id, message_id) DO NOTHING`,
        args: [chatId, message.id, chatId, JSON.stringify(message), chatId, userId],
      },
    ],
    "write",
  );
  return inserted?.rowsAffected === 1;
}

/** Replaces a stored message if it is still at `version`; false when someone changed it first. */
export async function updateMessage({
  chatId,
  message,
  version,
}: {
  chatId: string;
  message: UIMessage;
  version: number;
}): Promise<boolean> {
  const db = await database();
  const [updated] = await db.batch(
    [
      {
        sql: `UPDATE example_chat_messages SET message = ?, version = version + 1
              WHERE chat_id = ? AND message_id = ? AND version = ?`,
        args: [JSON.stringify(message), chatId, message.id, version],
      },
      { sql: "UPDATE example_chats SET updated_at = ? WHERE chat_id = ?", args: [Date.now(), chatId] },
    ],
    "write",
  );
  return updated?.rowsAffected === 1;
}
