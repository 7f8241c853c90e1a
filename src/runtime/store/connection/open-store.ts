/**
 * Opens the store the runtime journals into, from the `store` option:
 * a URL, an `@libsql/client` Client, or `{ url, authToken }`.
 *
 * Construction does no I/O: the URL is checked (a bad one throws
 * `InvalidOptionError`) and a handle on the process-wide connection for that
 * URL is returned; the driver is imported and the database opened by the
 * first statement ({@link acquireStoreConnection}).
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InvalidOptionError } from "../../../errors.js";
import { ForeignStoreClient } from "./foreign-store-client.js";
import { redactStoreUrl } from "./explain-store-error.js";
import { acquireStoreConnection } from "./shared-store-connections.js";
import type { LibsqlClient, SqlClient } from "./sql-client.js";
import { DEFAULT_STORE_REQUEST_TIMEOUT_MS } from "./store-deadline.js";
import type { StoreSource, StoreTarget } from "./store-target.js";

/** A store URL as people may read it: no user, password or token. */
export { redactStoreUrl } from "./explain-store-error.js";

/** `{ url, authToken }` form of the `store` option. */
export interface CodemodeStoreOptions {
  /** `file:…`, `:memory:`, `libsql://…`, `http(s)://…` or `ws(s)://…`. */
  url: string;
  /** Turso auth token for remote URLs (`undefined` is the same as leaving it out). */
  authToken?: string | undefined;
  /**
   * How long one request to a remote database may take before it fails with a `store` error (a local file
   * waits for locks up to its busy timeout instead).
   * @default 10000
   */
  requestTimeoutMs?: number | undefined;
}

/** What the `store` option accepts. */
export type StoreOption = string | LibsqlClient | CodemodeStoreOptions;

/** The `store` option once resolved: a URL string has become `{ url }`. */
export type ResolvedStoreOption = Exclude<StoreOption, string>;

/** Default embedded database, relative to the working directory. */
const DEFAULT_STORE_URL = "file:.codemode/codemode.db";

/** The default database's folder, relative to the working directory: the only folder the store creates. */
const DEFAULT_STORE_FOLDER = ".codemode";

/** The URL forms the store accepts, for messages. */
const ACCEPTED_STORE_URLS = "file:<path>, :memory:, libsql://…, http(s)://… or ws(s)://…";

/** An opened store connection and whether the runtime owns (and so closes) it. */
export interface OpenedStore {
  client: SqlClient;
  /** False when the caller handed in their own Client: `close()` leaves it open. */
  owned: boolean;
  /** True for local `file:` databases (WAL and busy timeout apply). */
  local: boolean;
  /**
   * Whether the database does not exist yet (a local file not created): reading it finds nothing, and only a
   * write creates it. Absent: the database is always there (remote, in memory, a caller's Client).
   */
  missing?: () => boolean;
}

/** Where `defaultStoreOptions` found each configuration it returned (for messages naming the variable to fix). */
const sources = new WeakMap<CodemodeStoreOptions, StoreSource>();

/**
 * Resolves the default store from the environment: `CODEMODE_DATABASE_URL`,
 * else `TURSO_DATABASE_URL` + `TURSO_AUTH_TOKEN`, else the embedded file. A
 * variable holding a URL the store cannot open throws `InvalidOptionError` naming it.
 */
export function defaultStoreOptions(env: Record<string, string | undefined>): CodemodeStoreOptions {
  const codemodeUrl = env["CODEMODE_DATABASE_URL"];
  const tursoUrl = env["TURSO_DATABASE_URL"];
  const token = env["TURSO_AUTH_TOKEN"];
  let options: CodemodeStoreOptions;
  let source: StoreSource;
  if (codemodeUrl !== undefined && codemodeUrl !== "") {
    [options, source] = [{ url: codemodeUrl }, "CODEMODE_DATABASE_URL"];
  } else if (tursoUrl !== undefined && tursoUrl !== "") {
    options = token !== undefined && token !== "" ? { url: tursoUrl, authToken: token } : { url: tursoUrl };
    source = "TURSO_DATABASE_URL";
  } else {
    [options, source] = [{ url: DEFAULT_STORE_URL }, "default"];
  }
  if (source !== "default") checkStoreUrl(options.url, source);
  sources.set(options, source);
  return options;
}

/** Tells an `@libsql/client` Client from the other `store` shapes. */
export function isLibsqlClient(value: unknown): value is LibsqlClient {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as LibsqlClient).execute === "function" &&
    typeof (value as LibsqlClient).batch === "function"
  );
}

/** True for URLs naming a local database file. */
function isLocalFileUrl(url: string): boolean {
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

const REMOTE_SCHEME = /^(libsql|https?|wss?):\/\//i;

/**
 * Refuses, at construction, a URL no libSQL driver opens (`postgres://…`, a
 * bare path). `path` names the option or variable it came from. The message
 * shows the scheme only: a URL may carry a password.
 */
function checkStoreUrl(url: string, path: string): void {
  if (url === ":memory:" || url.startsWith("file:")) return;
  if (REMOTE_SCHEME.test(url)) {
    if (URL.canParse(url)) return;
    throw new InvalidOptionError({ path, message: `is not a valid URL; expected one of ${ACCEPTED_STORE_URLS}` });
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  const got =
    scheme === undefined
      ? `a string without a scheme (for a local file write "file:${url.slice(0, 80)}")`
      : `a ${scheme}: URL`;
  throw new InvalidOptionError({
    path,
    message: `must be a libSQL URL: ${ACCEPTED_STORE_URLS} (got ${got}). Other databases are not supported.`,
  });
}

/** What the runtime opens for a configuration: which driver, and the connection key it is shared under. */
function storeTarget(store: CodemodeStoreOptions, source: StoreSource): StoreTarget {
  const path = store.authToken === undefined ? localDatabasePath(store.url) : undefined;
  if (path === ":memory:")
    return { kind: "embedded", path, url: store.url, source, createFolder: false, key: undefined };
  if (path !== undefined) {
    const absolute = resolve(path);
    // The default location's folder, whatever the file's name in it (`file:.codemode/app.db`).
    const createFolder = dirname(absolute) === resolve(DEFAULT_STORE_FOLDER);
    return { kind: "embedded", path: absolute, url: store.url, source, createFolder, key: `file:${absolute}` };
  }
  const requestTimeoutMs = store.requestTimeoutMs ?? DEFAULT_STORE_REQUEST_TIMEOUT_MS;
  const key = `${store.url}\n${store.authToken ?? ""}\n${requestTimeoutMs}`;
  const local = isLocalFileUrl(store.url);
  return { kind: "client", url: store.url, authToken: store.authToken, local, source, requestTimeoutMs, key };
}

/**
 * Opens the store: a caller's Client is used as it is (and never closed);
 * a URL gets a handle on the process-wide connection for that URL and token,
 * opened lazily. Throws only `InvalidOptionError`, for a URL no driver opens.
 */
export function openStore(store: ResolvedStoreOption): OpenedStore {
  if (isLibsqlClient(store)) {
    const local = store.protocol === "file";
    const requestTimeoutMs = local ? undefined : DEFAULT_STORE_REQUEST_TIMEOUT_MS;
    return { client: new ForeignStoreClient(store, { requestTimeoutMs }), owned: false, local };
  }
  const source = sources.get(store) ?? "option";
  if (source === "option") checkStoreUrl(store.url, "store");
  const target = storeTarget(store, source);
  const local = target.kind === "embedded" || target.local;
  const opened: OpenedStore = { client: acquireStoreConnection(target), owned: true, local };
  if (target.kind === "embedded" && target.path !== ":memory:") opened.missing = missingFile(target.path);
  return opened;
}

/** Whether the file at `path` is still missing; once found, not checked again. */
function missingFile(path: string): () => boolean {
  let found = false;
  return () => {
    found ||= existsSync(path);
    return !found;
  };
}

/** Where each kind of configuration came from, for a person. */
const SOURCE_NAMES: Record<StoreSource, string> = {
  option: "the store option",
  CODEMODE_DATABASE_URL: "CODEMODE_DATABASE_URL",
  TURSO_DATABASE_URL: "TURSO_DATABASE_URL",
  default: "the default: neither CODEMODE_DATABASE_URL nor TURSO_DATABASE_URL is set",
};

/**
 * The store a runtime reads, for a message: its URL without credentials, where the URL came from, and whether a
 * local file exists at all. Read in a not-found, where the likely cause is a runtime opened on another database.
 */
export function storeDescription(store: ResolvedStoreOption): string {
  if (isLibsqlClient(store)) return "the @libsql/client Client passed as the store option";
  const source = sources.get(store) ?? "option";
  const path = store.authToken === undefined ? localDatabasePath(store.url) : undefined;
  const absent = path !== undefined && path !== ":memory:" && !existsSync(resolve(path));
  return `${redactStoreUrl(store.url)} (${SOURCE_NAMES[source]})${absent ? ", which does not exist here yet" : ""}`;
}
