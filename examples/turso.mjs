// Where the journal lives. Omitted: CODEMODE_DATABASE_URL, else TURSO_DATABASE_URL with
// TURSO_AUTH_TOKEN, else file:.codemode/codemode.db. On Vercel set the two TURSO_ variables.
//   TURSO_DATABASE_URL=libsql://<db>-<org>.turso.io TURSO_AUTH_TOKEN=... node examples/turso.mjs
import { createClient } from "@libsql/client";
import { createCodemodeRuntime } from "ai-codemode";
import { show } from "./shared.mjs";

// 1. From the environment (the usual way on serverless).
const fromEnv = createCodemodeRuntime();
show("from environment", await fromEnv.execute({ code: `return "stored where TURSO_DATABASE_URL points"` }));
await fromEnv.close();

// 2. Explicit URL and token.
const url = process.env.TURSO_DATABASE_URL ?? "file:.codemode/codemode.db";
const explicit = createCodemodeRuntime({ store: { url, authToken: process.env.TURSO_AUTH_TOKEN } });
show("explicit executions", (await explicit.executions()).length);
await explicit.close();

// 3. A client you already have (shared with the rest of your app).
const client = createClient({ url, authToken: process.env.TURSO_AUTH_TOKEN });
const shared = createCodemodeRuntime({ store: client, name: "shared-client" });
show("shared client", (await shared.execute({ code: `return 40 + 2` })).status);
await shared.close();
client.close();
