/**
 * Issue 23 item 4 (the AI SDK side): `runtime.tool({ scpoe })` and every `ai-codemode/ui` helper refuse a
 * misspelt option with `InvalidOptionError` naming the helper, the key and the closest known key, the way
 * construction options do: `tool({ scpoe: userId })` used to turn per-user scoping off silently. The lists are
 * derived from the option types (`keysOf`), so a new option cannot be forgotten in them.
 */
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime } from "../../../src/ai/create-codemode-runtime.js";
import { codemodeApprovalTransform } from "../../../src/ai/ui/codemode-approval-transform.js";
import { createCodemodeChatStream } from "../../../src/ai/ui/create-codemode-chat-stream.js";
import { hasPausedCodemode } from "../../../src/ai/ui/has-paused-codemode.js";
import { createCodemodeApprovalRequest } from "../../../src/ai/ui/paused-output.js";
import { resumeCodemodeApprovals } from "../../../src/ai/ui/resume-codemode-approvals.js";
import type { CodemodeApprovalRuntime } from "../../../src/ai/ui/types.js";
import { verifyCodemodeApproval } from "../../../src/ai/ui/verify-codemode-approval.js";
import { InvalidOptionError } from "../../../src/errors.js";
import { QuickJSExecutor } from "../../../src/sandbox/quickjs-executor.js";

/** A runtime the helpers must never reach: the typo is refused first. */
const untouched: CodemodeApprovalRuntime = {
  approve: () => Promise.reject(new Error("approve was called")),
  reject: () => Promise.reject(new Error("reject was called")),
  decide: () => Promise.reject(new Error("decide was called")),
  pending: () => Promise.reject(new Error("pending was called")),
  execution: () => Promise.reject(new Error("execution was called")),
};

const paused = {
  status: "paused" as const,
  executionId: "e1",
  pending: [{ executionId: "e1", seq: 1, connector: "bank", method: "transfer", args: {} }],
};

/** Expects `InvalidOptionError` at `path` suggesting `known`. */
function refused(error: unknown, path: string, known: string): void {
  expect(InvalidOptionError.isInstance(error), String(error)).toBe(true);
  expect((error as InvalidOptionError).path).toBe(path);
  expect((error as Error).message).toBe(`${path} is not a known option (did you mean "${known}"?)`);
}

function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("per-call options of the tool and the UI helpers with a misspelt key", () => {
  it("runtime.tool({ scpoe }) is refused, naming scope", async () => {
    const executor = new QuickJSExecutor({ isolation: "in-process" });
    const runtime = createCodemodeRuntime({ store: ":memory:", tools: {}, executor });
    try {
      const loose = runtime.tool as (options: unknown) => unknown;
      refused(
        thrownBy(() => loose({ scpoe: "alice" })),
        "tool.scpoe",
        "scope",
      );
      refused(
        thrownBy(() => loose({ inlineType: true })),
        "tool.inlineType",
        "inlineTypes",
      );
      expect(thrownBy(() => loose("alice"))).toBeInstanceOf(InvalidOptionError);
      expect(runtime.tool({ scope: "alice" })).toHaveProperty("execute");
    } finally {
      await runtime.close();
      await executor.dispose();
    }
  });

  it("the synchronous helpers throw at the call", () => {
    const loose = <T>(fn: T) => fn as unknown as (options: unknown) => unknown;
    refused(
      thrownBy(() => loose(codemodeApprovalTransform)({ toolname: "codemode" })),
      "codemodeApprovalTransform.toolname",
      "toolName",
    );
    refused(
      thrownBy(() => loose(hasPausedCodemode)({ toolNme: "codemode" })),
      "hasPausedCodemode.toolNme",
      "toolName",
    );
    refused(
      thrownBy(() =>
        loose(createCodemodeChatStream)({
          runtime: untouched,
          messages: [],
          respond: () => new ReadableStream(),
          scpoe: "alice",
        }),
      ),
      "createCodemodeChatStream.scpoe",
      "scope",
    );
  });

  it("the asynchronous helpers reject before they read the store", async () => {
    const loose = <T>(fn: T) => fn as unknown as (options: unknown) => Promise<unknown>;
    refused(
      await loose(resumeCodemodeApprovals)({ runtime: untouched, messages: [], scpoe: "alice" }).catch(
        (e: unknown) => e,
      ),
      "resumeCodemodeApprovals.scpoe",
      "scope",
    );
    refused(
      await loose(verifyCodemodeApproval)({
        runtime: untouched,
        approvalId: "cm_e1_1_0123456789abcdef",
        toolCallId: "t1",
        scpoe: "alice",
      }).catch((e: unknown) => e),
      "verifyCodemodeApproval.scpoe",
      "scope",
    );
    refused(
      await loose(createCodemodeApprovalRequest)({ toolCallId: "t1", output: paused, toolcallId: "t2" }).catch(
        (e: unknown) => e,
      ),
      "createCodemodeApprovalRequest.toolcallId",
      "toolCallId",
    );
    // Spelt right, they work.
    expect(await createCodemodeApprovalRequest({ toolCallId: "t1", output: paused })).toMatchObject({
      type: "tool-approval-request",
      toolCallId: "t1",
    });
    expect(hasPausedCodemode({ toolName: "codemode" })).toBeTypeOf("function");
  });
});
