import { describe, expect, it } from "vitest";
import {
  formatTraceparent,
  parseTraceparent,
  parseTraceRecord,
  serializeTraceRecord,
  type ExecutionTraceRecord,
} from "../../../src/runtime/tracing/trace-record.js";

const FIRST = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 };
const PARENT = { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "00f067aa0ba902b7", traceFlags: 1 };

describe("the execution's trace record", () => {
  it("round-trips as version-tagged JSON with W3C traceparents", () => {
    const record: ExecutionTraceRecord = {
      first: FIRST,
      parent: PARENT,
      traceState: "vendor=abc",
      recording: { inputs: true, outputs: false },
    };
    const text = serializeTraceRecord(record);
    expect(JSON.parse(text)).toEqual({
      v: 1,
      first: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      parent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
      state: "vendor=abc",
      inputs: true,
      outputs: false,
    });
    expect(parseTraceRecord(text)).toEqual(record);
    expect(parseTraceRecord(serializeTraceRecord({ recording: { inputs: false, outputs: false } }))).toEqual({
      recording: { inputs: false, outputs: false },
    });
  });

  it("formats and reads traceparents, refusing malformed ones and the all-zero ids", () => {
    expect(formatTraceparent({ ...FIRST, traceFlags: 0 })).toBe(
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
    );
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toEqual(FIRST);
    for (const bad of [
      "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
      42,
    ])
      expect(parseTraceparent(bad)).toBeUndefined();
  });

  it("ignores a record that does not validate (tracing never fails a run)", () => {
    const good = JSON.parse(serializeTraceRecord({ first: FIRST, recording: { inputs: true, outputs: true } }));
    for (const bad of [
      undefined,
      "",
      "not json",
      "[]",
      JSON.stringify({ ...good, v: 2 }),
      JSON.stringify({ ...good, inputs: "yes" }),
      JSON.stringify({ ...good, first: "00-zz" }),
      JSON.stringify({ ...good, parent: 7 }),
      JSON.stringify({ ...good, state: 7 }),
      JSON.stringify({ ...good, state: "x".repeat(3_000) }),
    ])
      expect(parseTraceRecord(bad)).toBeUndefined();
  });
});
