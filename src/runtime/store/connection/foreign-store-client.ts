/**
 * A Client the caller passed as `store`, as the journal uses it: each request raced against the store's request
 * deadline (the caller's transport may have none) and each failure cleaned of anything that looks like a credential
 * and cut (`store-error-text.ts`). The Client itself is the caller's: never closed here.
 */
import { cleanStoreError } from "./explain-store-error.js";
import type { InStatement, SqlClient, SqlResult } from "./sql-client.js";
import { raceDeadline } from "./store-deadline.js";

/** The caller's Client behind the deadline and the cleaning. */
export class ForeignStoreClient implements SqlClient {
  readonly #client: SqlClient;
  readonly #requestTimeoutMs: number | undefined;

  /** `requestTimeoutMs`: `undefined` for a local file, which waits for locks up to its own busy timeout. */
  constructor(client: SqlClient, { requestTimeoutMs }: { requestTimeoutMs: number | undefined }) {
    this.#client = client;
    this.#requestTimeoutMs = requestTimeoutMs;
  }

  /** The caller's Client: its schema is checked once, whichever runtime wraps it. */
  get database(): object {
    return this.#client.database ?? this.#client;
  }

  execute(statement: InStatement): Promise<SqlResult> {
    return this.#guard(() => this.#client.execute(statement));
  }

  batch(statements: InStatement[], mode?: "write" | "read" | "deferred"): Promise<SqlResult[]> {
    return this.#guard(() => this.#client.batch(statements, mode));
  }

  /** Never closes the caller's Client (the runtime does not own it). */
  close(): void {}

  #guard<T>(request: () => Promise<T>): Promise<T> {
    const sent = this.#requestTimeoutMs === undefined ? request() : raceDeadline(request(), this.#requestTimeoutMs);
    return sent.catch((error: unknown) => {
      throw cleanStoreError(error, []);
    });
  }
}
