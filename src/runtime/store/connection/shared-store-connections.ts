/**
 * One store connection per process per URL (and token), shared by every
 * runtime on it. The drop-in is built per request (`codemodeTool({ tools })`
 * inside a route handler) and rarely closed, so a runtime holds a handle, not
 * a connection: a thousand runtimes on one URL use one connection.
 *
 * A handle is released by `close()` or, if nobody calls it, when the runtime
 * holding it is garbage-collected. When the last handle goes the connection
 * closes: at once after an explicit `close()`, after an idle delay when the
 * handles were merely collected (the next request in a warm serverless
 * instance usually comes soon and reuses it). Closing a handle never closes
 * the connection under another runtime still using it.
 *
 * `:memory:` is never shared: each runtime's in-memory database is its own.
 */
import { clientEntryFor, connectStore } from "./connect-store.js";
import { explainStoreError } from "./explain-store-error.js";
import { servesUrl } from "./hrana-url.js";
import { raceDeadline } from "./store-deadline.js";
import type { InStatement, SqlClient, SqlResult } from "./sql-client.js";
import type { StoreTarget } from "./store-target.js";

/**
 * How long a connection whose runtimes were all garbage-collected (none
 * closed explicitly) stays open for the next runtime. The timer is unref'd:
 * it never keeps a process alive.
 */
const DEFAULT_IDLE_CLOSE_MS = 30_000;

/**
 * Test seam: the idle delay in use. Mutable for tests, which set a short idle delay from a child process's script (knip cannot see that use).
 * @public
 */
export const storeConnectionPolicy = { idleCloseMs: DEFAULT_IDLE_CLOSE_MS };

interface SharedConnection {
  readonly target: StoreTarget;
  /** Live handles (not closed, not collected). */
  holders: number;
  client: SqlClient | undefined;
  opening: Promise<SqlClient> | undefined;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Shut for good; a later runtime on the same URL gets a new entry. */
  shut: boolean;
}

const connections = new Map<string, SharedConnection>();
let openClients = 0;
let openedClients = 0;

/** Connections open now and opened since the process started (for tests and diagnostics). */
export function storeConnectionCounts(): { open: number; opened: number } {
  return { open: openClients, opened: openedClients };
}

function shut(shared: SharedConnection): void {
  if (shared.holders > 0 || shared.shut) return;
  shared.shut = true;
  if (shared.idleTimer !== undefined) clearTimeout(shared.idleTimer);
  const { key } = shared.target;
  if (key !== undefined && connections.get(key) === shared) connections.delete(key);
  const client = shared.client;
  shared.client = undefined;
  if (client !== undefined) closeClient(client);
}

function closeClient(client: SqlClient): void {
  openClients -= 1;
  try {
    client.close();
  } catch {
    // A connection that cannot even close is gone anyway.
  }
}

function release(shared: SharedConnection, how: "closed" | "collected"): void {
  shared.holders -= 1;
  if (shared.holders > 0 || shared.shut) return;
  if (how === "closed" || shared.target.key === undefined) {
    shut(shared);
    return;
  }
  shared.idleTimer = setTimeout(() => shut(shared), storeConnectionPolicy.idleCloseMs);
  shared.idleTimer.unref();
}

/**
 * A connection whose request outlived its deadline and that cannot abort it (the WebSocket transport): closed, so
 * the stuck socket goes with it, and the next request opens a new one.
 */
function dropClient(shared: SharedConnection, client: SqlClient): void {
  if (shared.client !== client) return;
  shared.client = undefined;
  closeClient(client);
}

/** The request deadline to race, for a driver that cannot abort a request itself (`store-deadline.ts`). */
function racedDeadline(target: StoreTarget): number | undefined {
  if (target.kind !== "client" || target.local || servesUrl(target.url)) return undefined;
  return clientEntryFor(target.url, false) === "@libsql/client/ws" ? target.requestTimeoutMs : undefined;
}

const collected = new FinalizationRegistry<SharedConnection>((shared) => release(shared, "collected"));

async function clientOf(shared: SharedConnection): Promise<SqlClient> {
  if (shared.client !== undefined) return shared.client;
  shared.opening ??= connectStore(shared.target).then(
    (client) => {
      shared.opening = undefined;
      openClients += 1;
      openedClients += 1;
      if (shared.shut) {
        closeClient(client);
        throw new Error("The database connection is closed");
      }
      shared.client = client;
      return client;
    },
    (error: unknown) => {
      // Not cached: the next request tries again (the folder may exist by then).
      shared.opening = undefined;
      throw error;
    },
  );
  return shared.opening;
}

/** A runtime's hold on a shared connection; the connection opens on the first statement. */
class StoreConnectionHandle implements SqlClient {
  readonly #shared: SharedConnection;
  /** This runtime's own configuration (its source names the variable an error should point at). */
  readonly #target: StoreTarget;
  #closed = false;

  constructor(shared: SharedConnection, target: StoreTarget) {
    this.#shared = shared;
    this.#target = target;
  }

  /** Every runtime's handle on this connection names the same database (its schema is checked once). */
  get database(): object {
    return this.#shared;
  }

  execute(statement: InStatement): Promise<SqlResult> {
    return this.#use((client) => client.execute(statement));
  }

  batch(statements: InStatement[], mode?: "write" | "read" | "deferred"): Promise<SqlResult[]> {
    return this.#use((client) => client.batch(statements, mode));
  }

  /** Releases this hold; the connection closes when no other runtime holds it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    collected.unregister(this);
    release(this.#shared, "closed");
  }

  async #use<T>(run: (client: SqlClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error("The database connection is closed");
    try {
      const client = await clientOf(this.#shared);
      const deadline = racedDeadline(this.#target);
      if (deadline === undefined) return await run(client);
      return await raceDeadline(run(client), deadline, () => dropClient(this.#shared, client));
    } catch (error) {
      throw explainStoreError(error, this.#target);
    }
  }
}

/** A handle on the process-wide connection for `target` (created on first use, shared per key). */
export function acquireStoreConnection(target: StoreTarget): SqlClient {
  let shared = target.key === undefined ? undefined : connections.get(target.key);
  if (shared === undefined) {
    shared = { target, holders: 0, client: undefined, opening: undefined, idleTimer: undefined, shut: false };
    if (target.key !== undefined) connections.set(target.key, shared);
  }
  shared.holders += 1;
  if (shared.idleTimer !== undefined) {
    clearTimeout(shared.idleTimer);
    shared.idleTimer = undefined;
  }
  const handle = new StoreConnectionHandle(shared, target);
  collected.register(handle, shared, handle);
  return handle;
}
