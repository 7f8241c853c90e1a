/**
 * Statements and values as the Hrana protocol's JSON encoding carries them, for the store's own HTTP client
 * (`hrana-http-client.ts`). The conversions are `@libsql/client`'s, so a database written through either reads
 * the same: a JavaScript number travels as a float (SQLite's column affinity stores an integral one as an
 * integer), a bigint or a boolean as an integer, a `Date` as its epoch milliseconds, bytes as a base64 blob; an
 * integer comes back as a number (refused past the safe range), a blob as an `ArrayBuffer`.
 */
import type { InStatement, InValue, SqlResult, SqlRow } from "./sql-client.js";

/** A value in Hrana's JSON encoding. */
type HranaValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };

/** A statement in Hrana's JSON encoding. */
export interface HranaStatement {
  sql: string;
  args?: HranaValue[];
  named_args?: Array<{ name: string; value: HranaValue }>;
  want_rows: boolean;
}

/** What a statement returned, as the server sends it. */
export interface HranaStatementResult {
  cols: Array<{ name?: string | null }>;
  rows: HranaValue[][];
  affected_row_count: number;
}

const MIN_INTEGER = -9223372036854775808n;
const MAX_INTEGER = 9223372036854775807n;

function encodeValue(value: InValue): HranaValue {
  if (value === null) return { type: "null" };
  if (typeof value === "string") return { type: "text", value };
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    return { type: "float", value };
  }
  if (typeof value === "bigint") {
    if (value < MIN_INTEGER || value > MAX_INTEGER)
      throw new RangeError("This bigint value is too large to be represented as a 64-bit integer");
    return { type: "integer", value: String(value) };
  }
  if (typeof value === "boolean") return { type: "integer", value: value ? "1" : "0" };
  if (value instanceof ArrayBuffer) return { type: "blob", base64: Buffer.from(value).toString("base64") };
  if (value instanceof Uint8Array) {
    return { type: "blob", base64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64") };
  }
  if (value instanceof Date) return { type: "float", value: value.valueOf() };
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  throw new TypeError("Unsupported type of value");
}

/** One statement of the store as the server takes it. */
export function encodeStatement(statement: InStatement): HranaStatement {
  if (typeof statement === "string") return { sql: statement, want_rows: true };
  const { sql, args } = statement;
  if (args === undefined) return { sql, want_rows: true };
  if (Array.isArray(args)) return { sql, args: args.map(encodeValue), want_rows: true };
  const named = Object.entries(args).map(([name, value]) => ({ name, value: encodeValue(value) }));
  return { sql, named_args: named, want_rows: true };
}

function decodeValue(value: HranaValue | undefined): unknown {
  switch (value?.type) {
    case "null":
      return null;
    case "text":
      return value.value;
    case "float":
      return value.value;
    case "integer": {
      const integer = Number(value.value);
      if (!Number.isSafeInteger(integer))
        throw new RangeError("Received integer which is too large to be safely represented as a JavaScript number");
      return integer;
    }
    case "blob": {
      const bytes = Buffer.from(value.base64, "base64");
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    }
    default:
      throw new TypeError(`The database sent a value of an unknown type: ${JSON.stringify(value)}`);
  }
}

/** A statement's result as the store reads it: rows by column name (the first column of a name wins). */
export function decodeResult(result: HranaStatementResult): SqlResult {
  const names = result.cols.map((column, index) => column.name ?? String(index));
  const rows = result.rows.map((values) => {
    const row: SqlRow = {};
    names.forEach((name, index) => {
      if (!Object.hasOwn(row, name)) row[name] = decodeValue(values[index]);
    });
    return row;
  });
  return { rows, rowsAffected: result.affected_row_count };
}
