/**
 * The approval link token: what it binds reads back only with the secret it was signed with, and any change to its
 * payload or signature (another execution, a re-spelled signature, another secret) makes it unreadable.
 */
import { describe, expect, it } from "vitest";
import {
  createApprovalLinkToken,
  pendingCallDigest,
  readApprovalLinkToken,
} from "../../src/runtime/approval-link-token.js";
import type { PendingAction } from "../../src/runtime/types.js";

const SECRET = "k".repeat(32);
const CALL: PendingAction = {
  executionId: "e1",
  seq: 3,
  connector: "shop",
  method: "buy",
  args: { item: "tea", n: 1 },
};

describe("approval link tokens", () => {
  it("a token issued before the shared HMAC helper still reads", async () => {
    const secret = `${"k".repeat(16)}0123456789abcdef`;
    const call: PendingAction = { executionId: "e1", seq: 2, connector: "bank", method: "pay", args: { amount: 5 } };
    const issued =
      "WzEsImUxIixbWzIsImJEMzVWano3bUpqZktCZ1hxeElJNUk2bFc2VTJiWHZWIl1dLCJhbGljZSIsMTkwMDAwMDAwMDAwMCwibjAiXQ" +
      ".cXltUaZRHif_IQ_PDKBkTomG6DHWIWmrpeq82Yj-IvU";
    const options = { secret, pending: [call], owner: "alice", expiresAt: 1_900_000_000_000, nonce: "n0" };
    expect(await createApprovalLinkToken(options)).toBe(issued);
    expect(await readApprovalLinkToken(secret, issued)).toEqual({
      executionId: "e1",
      calls: [{ seq: 2, digest: pendingCallDigest(call) }],
      owner: "alice",
      expiresAt: 1_900_000_000_000,
      nonce: "n0",
    });
  });

  it("binds the execution, each call's digest, the owner, the expiry and the nonce", async () => {
    const token = await createApprovalLinkToken({
      secret: SECRET,
      pending: [CALL],
      owner: "ada",
      expiresAt: 1000,
      nonce: "n",
    });
    expect(await readApprovalLinkToken(SECRET, token)).toEqual({
      executionId: "e1",
      calls: [{ seq: 3, digest: pendingCallDigest(CALL) }],
      owner: "ada",
      expiresAt: 1000,
      nonce: "n",
    });
    const unscoped = await createApprovalLinkToken({ secret: SECRET, pending: [CALL], owner: undefined, expiresAt: 1 });
    expect((await readApprovalLinkToken(SECRET, unscoped))?.owner).toBeUndefined();
  });

  it("digests arguments canonically (key order does not matter; values do)", async () => {
    expect(pendingCallDigest({ ...CALL, args: { n: 1, item: "tea" } })).toBe(pendingCallDigest(CALL));
    expect(pendingCallDigest({ ...CALL, args: { item: "tea", n: 2 } })).not.toBe(pendingCallDigest(CALL));
    expect(pendingCallDigest({ ...CALL, method: "sell" })).not.toBe(pendingCallDigest(CALL));
  });

  it("is unreadable with another secret, an altered payload, or a re-spelled signature", async () => {
    const token = await createApprovalLinkToken({ secret: SECRET, pending: [CALL], owner: "ada", expiresAt: 1000 });
    expect(await readApprovalLinkToken("m".repeat(32), token)).toBeUndefined();
    const [payload, signature] = token.split(".") as [string, string];
    const altered = Buffer.from(Buffer.from(payload, "base64url").toString().replace('"ada"', '"bob"')).toString(
      "base64url",
    );
    expect(await readApprovalLinkToken(SECRET, `${altered}.${signature}`)).toBeUndefined();
    // The last character of 32 bytes in base64url carries 2 unused bits: another spelling of the same bytes.
    const last = signature.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`;
    expect(Buffer.from(respelled, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
    expect(await readApprovalLinkToken(SECRET, `${payload}.${respelled}`)).toBeUndefined();
    expect(await readApprovalLinkToken(SECRET, "not-a-token")).toBeUndefined();
  });
});
