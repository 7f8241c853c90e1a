/**
 * A store client whose `execute`/`batch` calls are counted: each is one network round trip against
 * Turso. `sent` holds the SQL of each round trip, in order. Used by the round-trip tests and bench.
 */
export interface CountingClient<T> {
  client: T;
  roundTrips: () => number;
  sent: string[][];
}

/** Wraps `inner` (an `@libsql/client` Client or any `SqlClient`) so its round trips are counted. */
export function countingClient<T extends object>(inner: T): CountingClient<T> {
  const sent: string[][] = [];
  const client = new Proxy(inner, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== "execute" && property !== "batch") return bound;
      return (...args: unknown[]) => {
        const statements = (Array.isArray(args[0]) ? args[0] : [args[0]]) as Array<string | { sql: string }>;
        sent.push(statements.map((statement) => (typeof statement === "string" ? statement : statement.sql)));
        return bound(...args);
      };
    },
  });
  return { client, roundTrips: () => sent.length, sent };
}
