/**
 * The example's secrets: the session cookie's key (`lib/session.ts`) and the approval secret
 * (`experimental_toolApprovalSecret` of `streamText` and `toolApprovalSecret` of the chat bridge,
 * `app/api/chat/route.ts`), and the key of the `/workflow` chat's hook tokens (`lib/codemode.ts`). Each is its environment variable when set — set it in production, the same on
 * every instance — and otherwise a random value generated once per deployment and kept in the example's
 * database, so every instance sharing the database agrees and a restart keeps it. Never a constant
 * default: an app deployed without the variable would sign with a value everyone can read here.
 */
import { randomBytes } from "node:crypto";
import { getDatabase } from "./database.ts";

/** Each secret: its environment variable, and its row in `example_settings` when the variable is unset. */
const SECRETS = {
  session: { env: "SESSION_SECRET", setting: "session_secret" },
  toolApproval: { env: "TOOL_APPROVAL_SECRET", setting: "tool_approval_secret" },
  // The key the `/workflow` chat's hook tokens are derived with (`ai-codemode/workflow`).
  workflow: { env: "CODEMODE_WORKFLOW_SECRET", setting: "workflow_secret" },
} as const;

/** The name of one of the example's secrets. */
export type SecretName = keyof typeof SECRETS;

const generated = new Map<SecretName, Promise<string>>();

/** The secret `name`: its environment variable, else the value generated once into the database. */
export function getSecret(name: SecretName): Promise<string> {
  const { env, setting } = SECRETS[name];
  const fromEnv = process.env[env];
  if (fromEnv !== undefined && fromEnv !== "") return Promise.resolve(fromEnv);
  let secret = generated.get(name);
  if (secret === undefined) {
    secret = storedSecret(setting);
    secret.catch(() => generated.delete(name));
    generated.set(name, secret);
  }
  return secret;
}

async function storedSecret(setting: string): Promise<string> {
  const db = getDatabase();
  await db.execute("CREATE TABLE IF NOT EXISTS example_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
  // Of two instances starting at once, the first insert wins and both read it back.
  await db.execute({
    sql: "INSERT INTO example_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
    args: [setting, randomBytes(32).toString("base64url")],
  });
  const row = await db.execute({ sql: "SELECT value FROM example_settings WHERE name = ?", args: [setting] });
  return String(row.rows[0]?.["value"]);
}
