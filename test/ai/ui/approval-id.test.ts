import { describe, expect, it } from "vitest";
import {
  createCodemodeApprovalId,
  hashPendingAction,
  parseCodemodeApprovalId,
} from "../../../src/ai/ui/approval-id.js";
import type { PendingAction } from "../../../src/runtime/types.js";

const action: PendingAction = {
  executionId: "exec_01_abc",
  seq: 3,
  connector: "github",
  method: "merge_pull_request",
  args: { owner: "acme", repo: "web", number: 42 },
};

describe("codemode approval ids", () => {
  it("bind execution, sequence and an argument hash, and parse back (execution ids may contain underscores)", async () => {
    const id = await createCodemodeApprovalId(action);
    expect(id).toMatch(/^cm_exec_01_abc_3_[0-9a-f]{16}$/);
    expect(parseCodemodeApprovalId(id)).toEqual({ executionId: "exec_01_abc", seq: 3, hash: id.slice(-16) });
  });

  it("change when the arguments, method, connector, sequence or execution change", async () => {
    const base = await hashPendingAction(action);
    const variants: PendingAction[] = [
      { ...action, args: { owner: "acme", repo: "web", number: 43 } },
      { ...action, method: "close_pull_request" },
      { ...action, connector: "gitlab" },
      { ...action, seq: 4 },
      { ...action, executionId: "exec_02" },
      { ...action, args: { owner: "acme", repo: "web", number: "42" } },
      { ...action, args: { owner: "acme", repo: "web", number: 42, extra: undefined } },
    ];
    for (const variant of variants) expect(await hashPendingAction(variant)).not.toBe(base);
  });

  it("do not depend on key order, and keep non-JSON journal types apart", async () => {
    const reordered = { ...action, args: { number: 42, repo: "web", owner: "acme" } };
    expect(await hashPendingAction(reordered)).toBe(await hashPendingAction(action));
    const at = (args: unknown) => hashPendingAction({ ...action, args });
    expect(await at(new Date(0))).not.toBe(await at(0));
    expect(await at(new Map([["a", 1]]))).not.toBe(await at([["a", 1]]));
    expect(await at(new Set([1]))).not.toBe(await at([1]));
    expect(await at(1n)).not.toBe(await at("1"));
    expect(await at(new Uint8Array([1, 2]))).not.toBe(await at([1, 2]));
  });

  it("refuse strings that are not codemode approval ids", () => {
    for (const id of [
      "",
      "approval-1",
      "cm_",
      "cm_x_1",
      "cm_x_1_nothex!!!!!!!!!!",
      "cm__1_0123456789abcdef",
      "cm_x_-1_0123456789abcdef",
      "cm_x_01_0123456789abcdef",
      "cm_x_1_0123456789abcde",
    ]) {
      expect(parseCodemodeApprovalId(id)).toBeUndefined();
    }
  });
});
