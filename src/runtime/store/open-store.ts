/**
 * Opens the libSQL client the runtime journals into, from the `store` option
 * (SPEC §3.1): a URL, an `@libsql/client` Client, or `{ url, authToken }`.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { LocalSqliteClient } from "./local-sqlite-client.js";
import { LOCAL_CONNECTION_PRAGMAS } from "./migrations.js";
import type { SqlClient } from "./sql-client.js";

/** `{ url, authToken }` form of the `store` option. */
export interface CodemodeStoreOptions {
  /** `file:…`, `:memory:`, `libsql://…`, `http(s)://…` or `ws(s)://…`. */
  url: string;
  /** Turso auth token for remote URLs. */
  authToken?: string;
}

/** What the `store` option accepts. */
export type StoreOption = string | Client | CodemodeStoreOptions;

/** Default embedded database, relative to the working directory. */
export const DEFAULT_STORE_URL = "file:.codemode/codemode.db";

/**
 * How long a statement waits for another process's lock on a shared `file:`
 * database before failing. Long enough to ride out a burst of concurrent
 * approvals on one file; a remote database ignores it.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** An opened store connection and whether the runtime owns (and so closes) it. */
export interface OpenedStore {
  client: SqlClient;
  /** False when the caller handed in their own Client: `close()` leaves it open. */
  owned: boolean;
  /** True for local `file:` databases (WAL and busy timeout apply). */
  local: boolean;
}

/** Resolves the default store from the environment: `CODEMODE_DATABASE_URL`, else `TURSO_DATABASE_URL` + `TURSO_AUTH_TOKEN`, else the embedded file. */
export function defaultStoreOptions(env: Record<string, string | undefined>): CodemodeStoreOptions {
  const codemodeUrl = env["CODEMODE_DATABASE_URL"];
  if (codemodeUrl !== undefined && codemodeUrl !== "") return { url: codemodeUrl };
  const tursoUrl = env["TURSO_DATABASE_URL"];
  if (tursoUrl !== undefined && tursoUrl !== "") {
    const token = env["TURSO_AUTH_TOKEN"];
    return token !== undefined && token !== "" ? { url: tursoUrl, authToken: token } : { url: tursoUrl };
  }
  return { url: DEFAULT_STORE_URL };
}

/** Tells an `@libsql/client` Client from the other `store` shapes. */
export function isLibsqlClient(value: unknown): value is Client {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Client).execute === "function" &&
    typeof (value as Client).batch === "function"
  );
}

/** True for URLs naming a local database file. */
export function isLocalFileUrl(url: string): boolean {
  return url.startsWith("file:");
}

/**
 * The SQLite path of a URL the embedded driver opens itself: `file:path`,
 * `file:/abs/path`, `file:///abs/path` or `:memory:`. Anything else (remote
 * URLs, `file:` URLs with a host or query parameters) returns `undefined` and
 * goes to `@libsql/client`, which also explains what is wrong with a bad one.
 */
export function localDatabasePath(url: string): string | undefined {
  if (url === ":memory:" || url === "file::memory:") return ":memory:";
  if (!url.startsWith("file:") || /[?#]/.test(url)) return undefined;
  const rest = url.slice("file:".length);
  const encoded = rest.startsWith("//") ? (rest.startsWith("///") ? rest.slice(2) : undefined) : rest;
  if (encoded === undefined || encoded === "") return undefined;
  try {
    // Percent-encoding is decoded, as `@libsql/client` does (`file:my%20db.db` is "my db.db").
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/**
 * Opens the client. A `file:` or `:memory:` URL gets the embedded driver's own
 * connection with cached statements ({@link LocalSqliteClient}), the parent
 * folder created and the busy timeout set; WAL is switched on by
 * {@link migrateStore}. Remote URLs get an `@libsql/client` Client.
 */
export function openStore(store: Client | CodemodeStoreOptions): OpenedStore {
  if (isLibsqlClient(store)) return { client: store, owned: false, local: store.protocol === "file" };
  const path = store.authToken === undefined ? localDatabasePath(store.url) : undefined;
  if (path !== undefined) {
    if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
    const client = new LocalSqliteClient(path, { timeout: DEFAULT_BUSY_TIMEOUT_MS, pragmas: LOCAL_CONNECTION_PRAGMAS });
    return { client, owned: true, local: true };
  }
  const local = isLocalFileUrl(store.url);
  const client = createClient({
    url: store.url,
    ...(store.authToken === undefined ? {} : { authToken: store.authToken }),
    ...(local ? { timeout: DEFAULT_BUSY_TIMEOUT_MS, concurrency: 1 } : {}),
  });
  return { client, owned: true, local };
}
