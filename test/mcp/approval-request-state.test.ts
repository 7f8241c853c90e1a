/**
 * The signed `requestState` of a 2026-07-28 approval: it reads back only for the owner and program it was minted
 * for, before its expiry, under the same secret; any change to its characters (fast-check, seeded) is refused;
 * it binds each pending call's connector, method and arguments without carrying them; and an approval link token
 * (same secret) is never taken for one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApprovalLinkToken } from "../../src/runtime/approval-link-token.js";
import { asksAbout, mintApprovalRequestState, readApprovalRequestState } from "../../src/mcp/approval-request-state.js";
import type { PendingAction } from "../../src/runtime/types.js";

const SECRET = "s".repeat(32);
const CODE = 'async () => shop.buy({ item: "a very secret teapot", card: "4111-1111" })';
const PENDING: PendingAction[] = [
  {
    executionId: "exec-1",
    seq: 2,
    connector: "shop",
    method: "buy",
    args: { item: "a very secret teapot", card: "4111-1111" },
  } as PendingAction,
];
const NOW = 1_000_000;

const mint = (overrides: Partial<Parameters<typeof mintApprovalRequestState>[0]> = {}) =>
  mintApprovalRequestState({
    secret: SECRET,
    owner: "ada",
    code: CODE,
    pending: PENDING,
    nonce: "nonce-0123456789abcdef",
    expiresAt: NOW + 60_000,
    ...overrides,
  });

const read = (state: unknown, overrides: Partial<Parameters<typeof readApprovalRequestState>[1]> = {}) =>
  readApprovalRequestState(state, { secret: SECRET, owner: "ada", code: CODE, now: NOW, ...overrides });

describe("the approval requestState", () => {
  it("reads back what it binds, for its owner and program, before it expires", async () => {
    const state = await mint();
    const reading = await read(state);
    expect(reading).toEqual({
      ok: true,
      state: {
        executionId: "exec-1",
        calls: [{ seq: 2, tag: expect.stringMatching(/^[\w-]{22}$/) }],
        nonce: "nonce-0123456789abcdef",
        expiresAt: NOW + 60_000,
      },
    });
    if (!reading.ok) return;
    expect(await asksAbout(SECRET, reading.state, PENDING)).toBe(true);
  });

  it("carries no argument value, no owner and no program in clear", async () => {
    const state = await mint();
    const decoded = Buffer.from(state.split(".")[1] ?? "", "base64url").toString("utf8");
    for (const secretText of ["teapot", "4111", "ada", "shop.buy", SECRET]) {
      expect(state).not.toContain(secretText);
      expect(decoded).not.toContain(secretText);
    }
  });

  it("is refused for another owner, another program, after its expiry, or under another secret", async () => {
    const state = await mint();
    expect(await read(state, { owner: "eve" })).toEqual({ ok: false, problem: "owner" });
    expect(await read(state, { owner: undefined })).toEqual({ ok: false, problem: "owner" });
    expect(await read(state, { code: `${CODE} ` })).toEqual({ ok: false, problem: "call" });
    expect(await read(state, { now: NOW + 60_000 })).toEqual({ ok: false, problem: "expired", executionId: "exec-1" });
    expect(await read(state, { secret: "t".repeat(32) })).toEqual({ ok: false, problem: "signature" });
    const unscoped = await mint({ owner: undefined });
    expect((await read(unscoped, { owner: undefined })).ok).toBe(true);
    expect(await read(unscoped)).toEqual({ ok: false, problem: "owner" });
  });

  it("no longer asks about calls that changed: other arguments, another call, another execution", async () => {
    const reading = await read(await mint());
    if (!reading.ok) throw new Error("unreadable");
    const [call] = PENDING as [PendingAction];
    expect(
      await asksAbout(SECRET, reading.state, [{ ...call, args: { item: "a very secret teapot", card: "5500" } }]),
    ).toBe(false);
    expect(await asksAbout(SECRET, reading.state, [{ ...call, seq: 3 }])).toBe(false);
    expect(await asksAbout(SECRET, reading.state, [{ ...call, executionId: "exec-2" }])).toBe(false);
    expect(await asksAbout(SECRET, reading.state, [call, { ...call, seq: 3 }])).toBe(false);
    expect(await asksAbout(SECRET, reading.state, [])).toBe(false);
  });

  it("refuses what is not one: garbage, a link token under the same secret, a re-signed payload", async () => {
    for (const value of [undefined, 42, "", "cmrs1.", "cmrs1.abc.def", `cmrs1.${"a".repeat(20_000)}.${"b".repeat(43)}`])
      expect((await read(value)).ok).toBe(false);
    const token = await createApprovalLinkToken({ secret: SECRET, pending: PENDING, owner: "ada", expiresAt: NOW + 1 });
    expect((await read(token)).ok).toBe(false);
    expect((await read(`cmrs1.${token}`)).ok).toBe(false);
  });

  it("refuses every altered copy (seeded property: one character changed, cut or added anywhere)", async () => {
    const state = await mint();
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant("replace" as const),
        at: fc.nat({ max: state.length - 1 }),
        char: fc.constantFrom(...alphabet),
      }),
      fc.record({ kind: fc.constant("cut" as const), at: fc.nat({ max: state.length - 1 }), char: fc.constant("") }),
      fc.record({
        kind: fc.constant("add" as const),
        at: fc.nat({ max: state.length }),
        char: fc.constantFrom(...alphabet),
      }),
    );
    const seed = Date.now() % 100_000;
    await fc.assert(
      fc.asyncProperty(edit, async ({ kind, at, char }) => {
        const altered =
          kind === "replace"
            ? state.slice(0, at) + char + state.slice(at + 1)
            : kind === "cut"
              ? state.slice(0, at) + state.slice(at + 1)
              : state.slice(0, at) + char + state.slice(at);
        fc.pre(altered !== state);
        expect((await read(altered)).ok).toBe(false);
      }),
      { seed, numRuns: 400, verbose: true },
    );
  });
});
