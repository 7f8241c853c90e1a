import { describe, expect, it } from "vitest";
import { CorruptRecordError } from "../../../src/errors.js";
import { parseCallRow, parseExecutionRow } from "../../../src/runtime/store/record-validation.js";
import type { Row } from "@libsql/client";

const execution = {
  runtime: "default",
  id: "e1",
  record_version: 1,
  status: "paused",
  code: "1",
  connectors: '["a"]',
  created_at: 1,
  updated_at: 2,
  passes: 1,
  result: null,
  logs: '["hi"]',
  error: null,
  kind: null,
  lease_token: null,
  lease_until: null,
  tool_call_id: null,
};
const call = {
  seq: 1,
  record_version: 1,
  connector: "a",
  method: "m",
  args: "{}",
  status: "pending",
  result: null,
  error: null,
  replay: "record",
  requires_approval: 1,
  approved_at: null,
  started_at: null,
  finished_at: null,
  replayed_count: 0,
};

describe("record validation", () => {
  it("reads valid rows", () => {
    expect(parseExecutionRow(execution as unknown as Row)).toMatchObject({
      executionId: "e1",
      status: "paused",
      connectors: ["a"],
      logs: ["hi"],
    });
    expect(parseCallRow(call as unknown as Row)).toMatchObject({ seq: 1, needsApproval: true, status: "pending" });
  });

  it("rejects rows from another record version, unknown statuses and malformed columns", () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...execution, record_version: 2 }, /record version 2/],
      [{ ...execution, status: "sleeping" }, /status/],
      [{ ...execution, connectors: "{" }, /connectors/],
      [{ ...execution, passes: "1" }, /passes/],
      [{ ...execution, kind: "made-up" }, /kind/],
    ];
    for (const [row, message] of bad) expect(() => parseExecutionRow(row as unknown as Row)).toThrow(message);
    expect(() => parseCallRow({ ...call, replay: "sometimes" } as unknown as Row)).toThrow(CorruptRecordError);
    expect(() => parseCallRow({ ...call, status: "done" } as unknown as Row)).toThrow(/status/);
  });
});
