/**
 * The example's one database: the codemode journal (executions, calls, snippets) and the chats
 * (`lib/chat-store.ts`) live side by side in it, so one connection, one URL and one backup cover
 * both. An embedded file by default; any libSQL URL (Turso) through CODEMODE_DATABASE_URL.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createClient, type Client } from "@libsql/client";

/** Where it is: CODEMODE_DATABASE_URL, else an embedded file. */
export const DATABASE_URL = process.env.CODEMODE_DATABASE_URL ?? "file:.codemode/example.db";

let client: Client | undefined;

/** The shared Client (opened on first use). */
export function getDatabase(): Client {
  if (client !== undefined) return client;
  const local = DATABASE_URL.startsWith("file:");
  // The runtime creates only its own default folder; the example creates the folder of its file.
  if (local) mkdirSync(path.dirname(DATABASE_URL.slice("file:".length).split("?")[0] ?? ""), { recursive: true });
  const authToken = process.env.CODEMODE_AUTH_TOKEN ?? process.env.TURSO_AUTH_TOKEN;
  client = createClient({
    url: DATABASE_URL,
    ...(authToken === undefined ? {} : { authToken }),
    // A local file is shared with the CLI and the inspector in other processes: wait for their locks.
    ...(local ? { timeout: 10_000 } : {}),
  });
  return client;
}
