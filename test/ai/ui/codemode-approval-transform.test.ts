import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { createCodemodeApprovalId } from "../../../src/ai/ui/approval-id.js";
import { codemodeApprovalTransform } from "../../../src/ai/ui/codemode-approval-transform.js";
import type { PendingAction } from "../../../src/runtime/types.js";
import { readAll } from "./support/read-all.js";

async function run(chunks: UIMessageChunk[], toolName?: string): Promise<UIMessageChunk[]> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  }).pipeThrough(codemodeApprovalTransform(toolName === undefined ? {} : { toolName }));
  return readAll(stream);
}

const later: PendingAction = {
  executionId: "e1",
  seq: 4,
  connector: "bank",
  method: "transfer",
  args: { to: "bob", amount: 5 },
};
const first: PendingAction = {
  executionId: "e1",
  seq: 2,
  connector: "bank",
  method: "transfer",
  args: { to: "alice", amount: 10 },
};
const paused = { status: "paused", executionId: "e1", pending: [later, first] };

describe("codemodeApprovalTransform", () => {
  it("turns a paused codemode output into a tool-approval-request for its lowest pending sequence", async () => {
    const out = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: { code: "x" } },
      { type: "tool-output-available", toolCallId: "c1", output: paused },
    ]);
    expect(out[1]).toEqual({
      type: "tool-approval-request",
      toolCallId: "c1",
      approvalId: await createCodemodeApprovalId(first),
      approvalDescriptor: {
        connector: "bank",
        method: "transfer",
        args: { to: "alice", amount: 10 },
        executionId: "e1",
        seq: 2,
        // Both calls of the pause, lowest first, each with its own id (for per-call decisions).
        calls: [
          {
            seq: 2,
            connector: "bank",
            method: "transfer",
            args: { to: "alice", amount: 10 },
            approvalId: await createCodemodeApprovalId(first),
          },
          {
            seq: 4,
            connector: "bank",
            method: "transfer",
            args: { to: "bob", amount: 5 },
            approvalId: await createCodemodeApprovalId(later),
          },
        ],
      },
    });
    expect(out).toHaveLength(2);
  });

  it("passes completed outputs, other tools and preliminary outputs through unchanged", async () => {
    const chunks: UIMessageChunk[] = [
      { type: "tool-input-start", toolCallId: "c1", toolName: "codemode" },
      { type: "tool-input-available", toolCallId: "c2", toolName: "other", input: {} },
      {
        type: "tool-output-available",
        toolCallId: "c1",
        output: { status: "completed", executionId: "e1", result: 1 },
      },
      { type: "tool-output-available", toolCallId: "c2", output: paused },
      {
        type: "tool-output-available",
        toolCallId: "c1",
        output: { status: "running", calls: [], logs: [], totalCalls: 0 },
        preliminary: true,
      },
      { type: "text-delta", id: "t", delta: "hi" },
    ];
    expect(await run(chunks)).toEqual(chunks);
  });

  it("drops the preliminary copy of a completed or failed output: the final one alone carries the result", async () => {
    const completed = { status: "completed", executionId: "e1", result: "x".repeat(100) };
    const failed = { status: "error", executionId: "e2", error: "boom", kind: "exception" };
    const out = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: { code: "x" } },
      { type: "tool-output-available", toolCallId: "c1", output: completed, preliminary: true },
      { type: "tool-output-available", toolCallId: "c1", output: completed },
      { type: "tool-input-available", toolCallId: "c2", toolName: "codemode", input: { code: "y" } },
      { type: "tool-output-available", toolCallId: "c2", output: failed, preliminary: true },
      { type: "tool-output-available", toolCallId: "c2", output: failed },
    ]);
    expect(out.filter((chunk) => chunk.type === "tool-output-available")).toEqual([
      { type: "tool-output-available", toolCallId: "c1", output: completed },
      { type: "tool-output-available", toolCallId: "c2", output: failed },
    ]);
  });

  it("drops the preliminary copy of a paused output (the SDK repeats an iterable's last value) and keeps the final request", async () => {
    const out = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: { code: "x" } },
      { type: "tool-output-available", toolCallId: "c1", output: paused, preliminary: true },
      { type: "tool-output-available", toolCallId: "c1", output: paused },
    ]);
    expect(out.map((chunk) => chunk.type)).toEqual(["tool-input-available", "tool-approval-request"]);
  });

  it("the approval request carries the paused pass's progress: the final output's, else the last snapshot seen", async () => {
    const snapshot = (applied: number) => ({
      status: "running",
      executionId: "e1",
      calls: [{ seq: 1, connector: "bank", method: "balance", args: {}, state: "applied" }],
      totalCalls: applied,
      counts: {
        executing: 0,
        applied,
        replayed: 0,
        pending: 0,
        approved: 0,
        rejected: 0,
        error: 0,
        reverted: 0,
        interrupted: 0,
      },
      logs: ["checked"],
      totalLogs: 1,
    });
    const descriptorOf = (chunks: UIMessageChunk[]) =>
      (chunks.find((chunk) => chunk.type === "tool-approval-request") as { approvalDescriptor: unknown })
        .approvalDescriptor;

    const kept = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: {} },
      { type: "tool-output-available", toolCallId: "c1", output: snapshot(1), preliminary: true },
      { type: "tool-output-available", toolCallId: "c1", output: { ...paused, progress: snapshot(2) } },
    ]);
    expect(descriptorOf(kept)).toMatchObject({ seq: 2, progress: snapshot(2) });

    const seen = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: {} },
      { type: "tool-output-available", toolCallId: "c1", output: snapshot(1), preliminary: true },
      { type: "tool-output-available", toolCallId: "c1", output: paused },
    ]);
    expect(descriptorOf(seen)).toMatchObject({ progress: snapshot(1) });

    // Another call's snapshot is not this call's progress; without any, the descriptor has none.
    const none = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: {} },
      { type: "tool-input-available", toolCallId: "c2", toolName: "codemode", input: {} },
      { type: "tool-output-available", toolCallId: "c2", output: snapshot(1), preliminary: true },
      { type: "tool-output-available", toolCallId: "c1", output: paused },
    ]);
    expect(descriptorOf(none)).not.toHaveProperty("progress");
  });

  it("uses the configured tool name", async () => {
    const out = await run(
      [
        { type: "tool-input-available", toolCallId: "c1", toolName: "run_code", input: {} },
        { type: "tool-output-available", toolCallId: "c1", output: paused },
      ],
      "run_code",
    );
    expect(out[1]?.type).toBe("tool-approval-request");
  });
  it("makes codemode outputs and approval arguments JSON-safe for the wire", async () => {
    const when = new Date(0);
    const out = await run([
      { type: "tool-input-available", toolCallId: "c1", toolName: "codemode", input: {} },
      {
        type: "tool-output-available",
        toolCallId: "c1",
        output: { status: "completed", executionId: "e1", result: { n: 5n, m: new Map([["k", when]]) } },
      },
      { type: "tool-input-available", toolCallId: "c2", toolName: "codemode", input: {} },
      {
        type: "tool-output-available",
        toolCallId: "c2",
        output: {
          status: "paused",
          executionId: "e2",
          pending: [{ ...first, executionId: "e2", args: { at: when, n: 1n } }],
        },
      },
    ]);
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    expect(out[1]).toMatchObject({
      output: { result: { n: "5n", m: { "Map(1)": { k: "1970-01-01T00:00:00.000Z" } } } },
    });
    expect(out[3]).toMatchObject({
      type: "tool-approval-request",
      approvalDescriptor: { args: { at: "1970-01-01T00:00:00.000Z", n: "1n" } },
    });
  });
});
