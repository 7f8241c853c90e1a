/**
 * A record of side effects, for tests that must prove "exactly once": every
 * real `execute` and `revert` of a mock connector is appended here with its
 * idempotency key.
 */

/** One observed side effect. */
export interface LedgerEntry {
  kind: "execute" | "revert";
  connector: string;
  method: string;
  args: unknown;
  /** `${executionId}:${seq}` of the call. */
  idempotencyKey: string;
}

/** An append-only list of side effects with small queries. */
export class SideEffectLedger {
  readonly entries: LedgerEntry[] = [];

  /** Appends an entry. */
  record(entry: LedgerEntry): void {
    this.entries.push(entry);
  }

  /** Entries of one kind, optionally for one `connector.method` path. */
  of(kind: LedgerEntry["kind"], path?: string): LedgerEntry[] {
    return this.entries.filter(
      (entry) => entry.kind === kind && (path === undefined || `${entry.connector}.${entry.method}` === path),
    );
  }

  /** How many times `connector.method` really ran (replays excluded). */
  count(path: string): number {
    return this.of("execute", path).length;
  }

  /** Idempotency keys executed more than once: must be empty for exactly-once. */
  duplicates(): string[] {
    const seen = new Map<string, number>();
    for (const entry of this.of("execute")) seen.set(entry.idempotencyKey, (seen.get(entry.idempotencyKey) ?? 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.length = 0;
  }
}
