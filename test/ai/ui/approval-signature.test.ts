import { describe, expect, it } from "vitest";
import {
  signatureProblem,
  signCodemodeApproval,
  verifyCodemodeApprovalSignature,
} from "../../../src/ai/ui/approval-signature.js";
import { createCodemodeChatStream } from "../../../src/ai/ui/create-codemode-chat-stream.js";
import { InvalidOptionError } from "../../../src/errors.js";

const approval = { approvalId: "cm_e1_2_00112233aabbccdd", toolCallId: "call_1", toolName: "codemode" };

describe("codemode approval signatures", () => {
  it("verify what they sign, for string and byte secrets, and nothing else", async () => {
    const signature = await signCodemodeApproval("secret", approval);
    expect(await verifyCodemodeApprovalSignature("secret", signature, approval)).toBe(true);
    expect(await verifyCodemodeApprovalSignature(new TextEncoder().encode("secret"), signature, approval)).toBe(true);
    expect(await verifyCodemodeApprovalSignature("other", signature, approval)).toBe(false);
    for (const changed of [
      { ...approval, approvalId: "cm_e1_3_00112233aabbccdd" },
      { ...approval, toolCallId: "call_2" },
      { ...approval, toolName: "code" },
    ]) {
      expect(await verifyCodemodeApprovalSignature("secret", signature, changed)).toBe(false);
    }
    const tampered = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    expect(await verifyCodemodeApprovalSignature("secret", tampered, approval)).toBe(false);
    expect(await verifyCodemodeApprovalSignature("secret", "not base64url!", approval)).toBe(false);
  });

  it("verify only in their canonical spelling: a copy differing in the last character's unused bits is refused", async () => {
    const signature = await signCodemodeApproval("secret", approval);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature.at(-1) ?? "");
    // 32 bytes in 43 characters: the last one holds 4 bits of data and 2 bits that decoding ignores.
    const copies = [1, 2, 3].map((bits) => `${signature.slice(0, -1)}${alphabet[last ^ bits]}`);
    for (const copy of copies) {
      expect(Buffer.from(copy, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
      expect(await verifyCodemodeApprovalSignature("secret", copy, approval)).toBe(false);
      expect(await signatureProblem({ secret: "secret", signature: copy, approval })).toMatch(/invalid signature/);
    }
  });

  it("are required with a secret, and refused without one", async () => {
    const signature = await signCodemodeApproval("secret", approval);
    expect(await signatureProblem({ secret: "secret", signature, approval })).toBeUndefined();
    expect(await signatureProblem({ secret: "secret", signature: undefined, approval })).toMatch(/is not signed/);
    expect(await signatureProblem({ secret: "secret", signature: 42, approval })).toMatch(/is not signed/);
    expect(await signatureProblem({ secret: undefined, signature: undefined, approval })).toBeUndefined();
    expect(await signatureProblem({ secret: undefined, signature, approval })).toMatch(/no toolApprovalSecret/);
  });

  it("a signature issued before the shared HMAC helper still verifies (same payload, same key bytes)", async () => {
    const secret = `${"k".repeat(16)}0123456789abcdef`;
    const issued = "iuQVo-yG5HnY828f3Hc8q8Fx2lDkqMKFcTvJUIXa8dk";
    expect(await signCodemodeApproval(secret, approval)).toBe(issued);
    expect(await verifyCodemodeApprovalSignature(secret, issued, approval)).toBe(true);
  });

  it("an empty, short or mistyped secret is refused when the chat stream is built", () => {
    const runtime = {} as Parameters<typeof createCodemodeChatStream>[0]["runtime"];
    const respond = () => new ReadableStream();
    for (const toolApprovalSecret of ["", "s".repeat(31), new Uint8Array(0), new Uint8Array(31), 42]) {
      expect(() =>
        createCodemodeChatStream({ runtime, messages: [], respond, toolApprovalSecret: toolApprovalSecret as string }),
      ).toThrow(InvalidOptionError);
    }
  });
});
