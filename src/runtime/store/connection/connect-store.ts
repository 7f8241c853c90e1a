/**
 * Opens the driver of a {@link StoreTarget} at first use: the modules of the
 * driver in use are imported then, not when the package is (`@libsql/client`
 * alone costs ~190 ms to import, and the default `file:` store never uses it).
 * A plain `http:`, `https:` or `libsql:` URL gets the store's own Hrana client
 * (`hrana-http-client.ts`), lighter to start than any `@libsql/client` transport.
 * `@libsql/client` is an optional peer, imported only for what the store's own
 * drivers do not open (`ws:`/`wss:`, URLs with parameters); when it is missing,
 * the run fails with a store configuration error naming the install command.
 *
 * Folders: only the default location's folder (`.codemode/`) is created. An
 * explicit `file:` path whose folder does not exist is a configuration error,
 * so a typo never silently creates a directory tree somewhere else.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { LOCAL_CONNECTION_PRAGMAS } from "../migrations.js";
import type { SqlClient } from "./sql-client.js";
import { StoreConfigurationError } from "../../../errors/store-configuration-error.js";
import type { StoreTarget } from "./store-target.js";
import { servesUrl } from "./hrana-url.js";
import { missingPackage, missingPeersMessage } from "../../../shared/missing-peer.js";
import { fetchWithDeadline } from "./store-deadline.js";

/**
 * How long a statement waits for another process's lock on a shared `file:`
 * database before failing. Long enough to ride out a burst of concurrent
 * approvals on one file; a remote database ignores it.
 */
const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

function prepareFolder(target: Extract<StoreTarget, { kind: "embedded" }>): void {
  if (target.path === ":memory:") return;
  const folder = dirname(target.path);
  if (target.createFolder) {
    mkdirSync(folder, { recursive: true });
    return;
  }
  if (!existsSync(folder)) {
    const from = target.source === "option" ? "the store option" : target.source;
    throw new StoreConfigurationError({
      message:
        `The database file ${target.path} (from ${from}) cannot be created: its folder ${folder} does not exist. ` +
        `Create the folder, or point ${from} at a file in an existing one (only the default .codemode folder is created automatically).`,
    });
  }
}

/**
 * The entry of `@libsql/client` a URL needs. Its main entry loads every transport, the embedded one's native
 * driver included (~190 ms); a remote URL needs one transport. `libsql:` maps to HTTPS in the main entry as in
 * the `http` one (both expand the URL preferring HTTP), so the transport in use does not change.
 */
export function clientEntryFor(
  url: string,
  local: boolean,
): "@libsql/client" | "@libsql/client/http" | "@libsql/client/ws" {
  if (local) return "@libsql/client";
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "libsql" || scheme === "http" || scheme === "https") return "@libsql/client/http";
  if (scheme === "ws" || scheme === "wss") return "@libsql/client/ws";
  return "@libsql/client";
}

/** The optional peer behind the URLs the store's own drivers do not open. */
const LIBSQL_CLIENT = "@libsql/client";

/** An entry of `@libsql/client`, imported. */
function importLibsqlClient(entry: ReturnType<typeof clientEntryFor>) {
  return entry === "@libsql/client/http"
    ? import("@libsql/client/http")
    : entry === "@libsql/client/ws"
      ? import("@libsql/client/ws")
      : import("@libsql/client");
}

/** What needs `@libsql/client`, for the missing-peer message: the URL's kind, never the URL (it may carry a token). */
function needsLibsqlClient(target: Extract<StoreTarget, { kind: "client" }>): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target.url)?.[1]?.toLowerCase() ?? "this";
  if (scheme === "ws" || scheme === "wss") return `A ${scheme}: store URL`;
  if (/[?#]/.test(target.url)) return `A ${scheme}: store URL with parameters`;
  return `A ${scheme}: store URL${target.authToken === undefined ? "" : " with an auth token"}`;
}

/** Imports the driver for `target` and opens it. Errors are the driver's own (see `explainStoreError`). */
export async function connectStore(target: StoreTarget): Promise<SqlClient> {
  if (target.kind === "embedded") {
    prepareFolder(target);
    const { LocalSqliteClient } = await import("./local-sqlite-client.js");
    return new LocalSqliteClient(target.path, { timeout: DEFAULT_BUSY_TIMEOUT_MS, pragmas: LOCAL_CONNECTION_PRAGMAS });
  }
  if (!target.local && servesUrl(target.url)) {
    const { HranaHttpClient } = await import("./hrana-http-client.js");
    return new HranaHttpClient(target.url, target.authToken, { requestTimeoutMs: target.requestTimeoutMs });
  }
  const entry = clientEntryFor(target.url, target.local);
  const { createClient } = await importLibsqlClient(entry).catch((error: unknown) => {
    if (missingPackage(error, [LIBSQL_CLIENT]) === undefined) throw error;
    throw new StoreConfigurationError({ message: missingPeersMessage(needsLibsqlClient(target), [LIBSQL_CLIENT]) });
  });
  return createClient({
    url: target.url,
    ...(target.authToken === undefined ? {} : { authToken: target.authToken }),
    ...(target.local ? { timeout: DEFAULT_BUSY_TIMEOUT_MS, concurrency: 1 } : {}),
    // The HTTP transport aborts a request past the deadline; the WebSocket one is raced (`shared-store-connections.ts`).
    ...(entry === "@libsql/client/http" ? { fetch: fetchWithDeadline(target.requestTimeoutMs) } : {}),
  });
}
