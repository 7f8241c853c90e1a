/**
 * The package's one HMAC: what it signs verifies only under the same secret and in its canonical spelling, and its
 * one secret rule (at least 32 bytes) refuses a short secret with the same message wherever a secret is an option:
 * the chat bridge's `toolApprovalSecret`, the MCP server's and the inspector's `approvalLinks.secret`.
 */
import { describe, expect, it } from "vitest";
import { createCodemodeChatStream } from "../../src/ai/ui/create-codemode-chat-stream.js";
import { InvalidOptionError } from "../../src/errors.js";
import { createCodemodeInspector } from "../../src/inspector/create-codemode-inspector.js";
import { readApprovalLinks } from "../../src/mcp/approval-links.js";
import { assertHmacSecret, hmacSign, hmacVerify, MIN_HMAC_SECRET_BYTES } from "../../src/shared/hmac.js";

const SECRET = "0123456789abcdef0123456789abcdef";

/** The message of the error `make` throws, without the option path it starts with. */
function refusal(make: () => unknown, path: string): string {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).path).toBe(path);
    const { message } = error as Error;
    expect(message.startsWith(`${path} `)).toBe(true);
    return message.slice(path.length + 1);
  }
  throw new Error(`${path}: nothing was refused`);
}

describe("hmacSign / hmacVerify", () => {
  it("verify what they sign under the same secret, as a string or its bytes, and nothing else", async () => {
    const signature = await hmacSign(SECRET, "payload");
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await hmacVerify(SECRET, "payload", signature)).toBe(true);
    expect(await hmacVerify(new TextEncoder().encode(SECRET), "payload", signature)).toBe(true);
    expect(await hmacVerify(`${SECRET}!`, "payload", signature)).toBe(false);
    expect(await hmacVerify(SECRET, "payload!", signature)).toBe(false);
    expect(await hmacVerify(SECRET, "payload", `${signature}A`)).toBe(false);
    expect(await hmacVerify(SECRET, "payload", "not base64url!")).toBe(false);
  });

  it("verify only the canonical spelling: a copy differing in the last character's unused bits is refused", async () => {
    const signature = await hmacSign(SECRET, "payload");
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(signature.at(-1) ?? "");
    for (const bits of [1, 2, 3]) {
      const copy = `${signature.slice(0, -1)}${alphabet[last ^ bits]}`;
      expect(Buffer.from(copy, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
      expect(await hmacVerify(SECRET, "payload", copy)).toBe(false);
    }
  });
});

describe("the one secret rule", () => {
  it(`accepts a string or bytes of at least ${MIN_HMAC_SECRET_BYTES} bytes, and refuses anything else`, () => {
    expect(() => assertHmacSecret("x".repeat(32), "secret")).not.toThrow();
    expect(() => assertHmacSecret(new Uint8Array(32), "secret")).not.toThrow();
    // A string counts in UTF-8 bytes: 16 two-byte characters are 32 bytes of key.
    expect(() => assertHmacSecret("é".repeat(16), "secret")).not.toThrow();
    for (const short of ["", "x".repeat(31), new Uint8Array(31), 42, undefined, ["x".repeat(32)]]) {
      expect(() => assertHmacSecret(short, "secret")).toThrow(InvalidOptionError);
    }
  });

  it("refuses a short secret with the same message in the chat bridge, the MCP server and the inspector", () => {
    const short = "x".repeat(31);
    const chat = refusal(
      () =>
        createCodemodeChatStream({
          runtime: {} as Parameters<typeof createCodemodeChatStream>[0]["runtime"],
          messages: [],
          respond: () => new ReadableStream(),
          toolApprovalSecret: short,
        }),
      "toolApprovalSecret",
    );
    const mcp = refusal(
      () => readApprovalLinks({ url: "https://app.example/codemode", secret: short }, "approvalLinks"),
      "approvalLinks.secret",
    );
    // Only the inspector's option checks run here: a runtime-shaped object gets past its `runtime` check.
    const method = () => Promise.reject(new Error("not called"));
    const runtime = Object.fromEntries(
      ["executions", "execution", "pending", "approve", "reject", "decide", "rollback"].map((key) => [key, method]),
    ) as unknown as Parameters<typeof createCodemodeInspector>[0]["runtime"];
    const inspector = refusal(
      () =>
        createCodemodeInspector({ runtime, authorize: () => ({ unscoped: true }), approvalLinks: { secret: short } }),
      "createCodemodeInspector.approvalLinks.secret",
    );
    expect(chat).toMatch(/at least 32 bytes/);
    expect(mcp).toBe(chat);
    expect(inspector).toBe(chat);
  });
});
