/**
 * A wrapped `@libsql/client` Client for fault injection: counts every write
 * round trip (`execute`, or a `batch` not in "read" mode) and its statements,
 * and can fail a chosen write — once, or from that write on (a dead
 * connection: every later call fails too until `revive()`), or only batches
 * whose SQL matches a pattern. `midBatch` drops the connection in the middle
 * of a batch: the statements before the break really run inside the batch's
 * transaction, then it fails, so libSQL must roll them back.
 */
import type { Client, InStatement } from "@libsql/client";

/** How the next fault happens. */
interface FaultPlan {
  /** 1-based index (counted from `arm`) of the write that fails. */
  atWrite?: number;
  /** `once`: only that write fails; `dead`: it and every later call fail until `revive()`. */
  mode?: "once" | "dead";
  /** Fail only writes whose SQL matches (every match while armed). */
  matching?: RegExp;
  /** Fail in the middle of the batch (after half its statements ran) instead of before sending it. */
  midBatch?: boolean;
  /** The write commits first, then the fault happens (a lost acknowledgement, or a kill right after the commit). */
  after?: boolean;
  /** Called when the fault happens (e.g. to kill the process at that write). */
  onFault?: () => void;
}

/** One recorded write round trip. */
interface WriteRecord {
  index: number;
  statements: string[];
}

function sqlOf(statement: InStatement): string {
  return typeof statement === "string" ? statement : statement.sql;
}

/** The error the wrapped client throws, recognisable in assertions. */
export const INJECTED_MESSAGE = "SQLITE_IOERR: disk I/O error (injected fault)";

/** A faulty client and its controls. */
export interface FaultyClient {
  client: Client;
  /** Writes since the last `arm`/`resetCount`. */
  readonly writes: WriteRecord[];
  /** Faults injected so far (over the client's life). */
  readonly faults: number;
  arm(plan: FaultPlan): void;
  disarm(): void;
  /** Ends a `dead` state and disarms. */
  revive(): void;
  resetCount(): void;
  readonly dead: boolean;
}

/** Wraps `inner` (which stays usable on its own). */
export function faultyClient(inner: Client): FaultyClient {
  let plan: FaultPlan | undefined;
  let dead = false;
  let faults = 0;
  let writes: WriteRecord[] = [];

  const fault = (): Error => {
    faults += 1;
    if (plan?.mode === "dead") dead = true;
    plan?.onFault?.();
    const armed = plan;
    if (armed?.mode !== "dead") plan = armed?.matching === undefined ? undefined : armed;
    return new Error(INJECTED_MESSAGE);
  };
  /** Whether this write (already recorded) must fail. */
  const shouldFail = (record: WriteRecord): boolean => {
    if (plan === undefined) return false;
    if (plan.matching !== undefined) return record.statements.some((sql) => plan?.matching?.test(sql) === true);
    return plan.atWrite !== undefined && record.index === plan.atWrite;
  };

  const execute = async (statement: InStatement): Promise<unknown> => {
    if (dead) throw new Error(INJECTED_MESSAGE);
    const record = { index: writes.length + 1, statements: [sqlOf(statement)] };
    writes.push(record);
    if (!shouldFail(record)) return inner.execute(statement);
    if (plan?.after === true) await inner.execute(statement);
    throw fault();
  };
  const batch = async (statements: InStatement[], mode?: string): Promise<unknown> => {
    if (dead) throw new Error(INJECTED_MESSAGE);
    if (mode === "read") return inner.batch(statements, "read");
    const record = { index: writes.length + 1, statements: statements.map(sqlOf) };
    writes.push(record);
    if (shouldFail(record)) {
      if (plan?.midBatch === true && statements.length > 0) {
        const half = Math.max(1, Math.floor(statements.length / 2));
        const broken = [
          ...statements.slice(0, half),
          "SELECT * FROM codemode_dropped_connection_injected",
          ...statements.slice(half),
        ];
        fault();
        // The first half runs inside the transaction; the broken statement aborts it.
        await inner.batch(broken, (mode ?? "write") as never);
        throw new Error("the mid-batch fault did not fail the batch");
      }
      if (plan?.after === true) await inner.batch(statements, (mode ?? "write") as never);
      throw fault();
    }
    return inner.batch(statements, (mode ?? "write") as never);
  };

  const client = new Proxy(inner, {
    get(target, property) {
      if (property === "execute") return execute;
      if (property === "batch") return batch;
      // Other members run on the real client (it keeps private fields the proxy cannot reach).
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    client,
    get writes() {
      return writes;
    },
    get faults() {
      return faults;
    },
    get dead() {
      return dead;
    },
    arm(next) {
      plan = { mode: "once", ...next };
      writes = [];
    },
    disarm() {
      plan = undefined;
    },
    revive() {
      dead = false;
      plan = undefined;
    },
    resetCount() {
      writes = [];
    },
  };
}
