/**
 * Every request to a remote store has a deadline: a database (or a proxy in front of it) that accepts a request
 * and never answers, or sends headers and never ends the body, would otherwise hold `execute`, a tool call or an
 * approval forever. Each driver enforces it where it can abort the request (the store's Hrana client destroys
 * the socket, `@libsql/client`'s HTTP transport gets a fetch with an abort signal); a driver that cannot abort
 * (the WebSocket transport, a Client the caller passed) is raced against it.
 */

/**
 * How long one store request (a statement or a batch) may take before it fails. A Turso request takes tens of
 * milliseconds, a cold database or a large batch a few seconds; past this the database is not coming back in a
 * time anyone waits for, and serverless functions are usually stopped not long after (10–15 s).
 */
export const DEFAULT_STORE_REQUEST_TIMEOUT_MS = 10_000;

/** A store request that took longer than its deadline; what it did on the database is unknown. */
export class StoreRequestTimeout extends Error {
  readonly code = "STORE_REQUEST_TIMEOUT";
  constructor(readonly timeoutMs: number) {
    super(`the database did not answer within ${timeoutMs} ms`);
    this.name = "StoreRequestTimeout";
  }
}

/** Whether `error` is a {@link StoreRequestTimeout} (read by code: it may have crossed a copy of the package). */
export function isStoreRequestTimeout(error: unknown): error is StoreRequestTimeout {
  return (error as { code?: unknown } | null)?.code === "STORE_REQUEST_TIMEOUT";
}

/**
 * `request` raced against `timeoutMs`: past it, rejects with {@link StoreRequestTimeout} and calls `onTimeout`
 * (which drops a connection that cannot abort the request). The timer never keeps a process alive.
 */
export function raceDeadline<T>(request: Promise<T>, timeoutMs: number, onTimeout?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new StoreRequestTimeout(timeoutMs));
    }, timeoutMs);
    timer.unref();
  });
  return Promise.race([request, expired]).finally(() => clearTimeout(timer));
}

/** A `fetch` that aborts each request (its body included) after `timeoutMs`, for `@libsql/client`'s HTTP transport. */
export function fetchWithDeadline(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw (error as { name?: unknown } | null)?.name === "TimeoutError" ? new StoreRequestTimeout(timeoutMs) : error;
    }
  };
}
