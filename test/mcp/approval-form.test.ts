/**
 * The MCP approval form shows what a person approves: every key of a call's arguments (long
 * strings shortened inside the value), and where a call cannot be shown whole, the form says so
 * and an "approve" for it decides nothing. A real MCP SDK client answers the form over HTTP.
 */
import { describe, expect, it } from "vitest";
import { readElicitationAnswer } from "../../src/mcp/approval-elicitation.js";
import { FORM_CALL_MAX_CHARS } from "../../src/mcp/approval-form-text.js";
import type { PendingAction } from "../../src/runtime/types.js";
import {
  approveEverything,
  approveWhatIsOffered,
  byUser,
  clientAs,
  mailRuntime,
  serveHandler,
} from "./support/handler-over-http.js";

function pendingAction(seq: number, args: unknown): PendingAction {
  return { executionId: "e1", seq, connector: "mail", method: "send", args };
}

type Form = {
  message: string;
  requestedSchema: { properties: Record<string, { enum?: string[]; description?: string }> };
};

describe("the MCP approval form", () => {
  it("shows a key that follows a long value (the value is shortened inside, the key kept)", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const forms: Form[] = [];
    const ada = await clientAs(url, "ada", (params) => {
      forms.push(params as Form);
      return approveWhatIsOffered(params);
    });
    const memo = `Quarterly memo. ${"Lorem ipsum dolor sit amet. ".repeat(200)}End of memo.`;
    const out = await ada.callTool({
      name: "codemode",
      arguments: {
        code: `async () => mail.send({ memo: ${JSON.stringify(memo)}, to: "mallory-offshore", cc: ["a", "b"] })`,
      },
    });
    expect(out.structuredContent).toMatchObject({ status: "completed", result: "sent" });
    expect(sent).toEqual([{ memo, to: "mallory-offshore", cc: ["a", "b"] }]);
    const [form] = forms;
    expect(form?.message).toContain('"to":"mallory-offshore"');
    expect(form?.message).toContain('"cc":["a","b"]');
    expect(form?.message).toMatch(/Quarterly memo\..*…\[\d+ more characters\]….*End of memo\./);
    expect(form?.requestedSchema.properties["call_1"]?.enum).toEqual(["approve", "reject"]);
  });

  it("a call too large to show is marked hidden, offered only reject, and an approve for it runs nothing", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const forms: Form[] = [];
    const ada = await clientAs(url, "ada", (params) => {
      forms.push(params as Form);
      return approveEverything(params);
    });
    const out = await ada.callTool({
      name: "codemode",
      arguments: {
        code: `async () => {
          const args = {};
          for (let i = 0; i < 2000; i++) args["line" + i] = "item " + i;
          args.to = "mallory-offshore";
          return mail.send(args);
        }`,
      },
    });
    expect(sent).toEqual([]);
    const result = out.structuredContent as { status: string; executionId: string; message: string };
    expect(result.status).toBe("paused");
    // The SDK checks the answer against the form (approve is not offered); our reading refuses it too.
    expect(result.message).toMatch(/nothing was approved, rejected or run/);
    expect(result.message).toMatch(/inspector/);
    const [form] = forms;
    expect(form?.message).toMatch(/#1 mail\.send — NOT SHOWN: its arguments \(2001 fields\)/);
    expect(form?.message).toMatch(/can only be rejected here/);
    expect(form?.requestedSchema.properties["call_1"]?.enum).toEqual(["reject"]);
    expect((await runtime.execution(result.executionId, { scope: "ada" }))?.status).toBe("paused");
  });

  it("reading an answer: approve for a hidden call decides nothing, even where the client skips the schema check", () => {
    const hidden = pendingAction(1, { blob: "x".repeat(FORM_CALL_MAX_CHARS * 2).split("") });
    const shown = pendingAction(2, { to: "ada" });
    const approveBoth = { action: "accept", content: { call_1: "approve", call_2: "approve" } };
    expect(readElicitationAnswer([hidden, shown], approveBoth)).toEqual({
      decided: false,
      why: expect.stringMatching(/"approve" for call #1, whose arguments the form could not show whole/),
    });
    const rejectHidden = { action: "accept", content: { call_1: "reject", call_2: "approve" } };
    expect(readElicitationAnswer([hidden, shown], rejectHidden)).toEqual({
      decided: true,
      decisions: [
        { seq: 1, approved: false },
        { seq: 2, approved: true },
      ],
    });
  });

  it("rejecting a hidden call from the form still works", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await serveHandler({ runtime, authorize: byUser });
    const ada = await clientAs(url, "ada", approveWhatIsOffered);
    const out = await ada.callTool({
      name: "codemode",
      arguments: {
        code: `async () => {
          try {
            return await mail.send({ blob: "x".repeat(1000), deep: ${"[".repeat(20)}1${"]".repeat(20)} });
          } catch (error) {
            return "refused: " + error.message;
          }
        }`,
      },
    });
    expect(sent).toEqual([]);
    expect(out.structuredContent).toMatchObject({
      status: "completed",
      result: expect.stringMatching(/^refused: .*reject/i),
    });
  });
});
