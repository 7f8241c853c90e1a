/**
 * A store client whose `execute`/`batch` calls are counted: each is one network round trip against
 * Turso. `sent` holds the SQL of each round trip, in order; `longestArgument` the length of the longest string
 * argument any statement carried. Used by the round-trip tests and bench.
 */
export interface CountingClient<T> {
  client: T;
  roundTrips: () => number;
  sent: string[][];
  longestArgument: () => number;
}

/** Wraps `inner` (an `@libsql/client` Client or any `SqlClient`) so its round trips are counted. */
export function countingClient<T extends object>(inner: T): CountingClient<T> {
  const sent: string[][] = [];
  let longest = 0;
  const measure = (statement: unknown): void => {
    const args = (statement as { args?: unknown } | null)?.args;
    for (const arg of Array.isArray(args) ? args : [])
      if (typeof arg === "string") longest = Math.max(longest, arg.length);
  };
  const client = new Proxy(inner, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== "execute" && property !== "batch") return bound;
      return (...args: unknown[]) => {
        const statements = (Array.isArray(args[0]) ? args[0] : [args[0]]) as Array<string | { sql: string }>;
        sent.push(statements.map((statement) => (typeof statement === "string" ? statement : statement.sql)));
        for (const statement of statements) measure(statement);
        return bound(...args);
      };
    },
  });
  return { client, roundTrips: () => sent.length, sent, longestArgument: () => longest };
}
