import { describe, expect, it } from "vitest";
import { describeDenial, MAX_LISTED_APPLIED_CALLS, MAX_QUOTED_ARGS_CHARS } from "../../../src/ai/ui/denial-text.js";
import type { AppliedCall, PendingAction } from "../../../src/runtime/types.js";

const action: PendingAction = {
  executionId: "e1",
  seq: 3,
  connector: "github",
  method: "merge_pull_request",
  args: { repo: "acme/web", number: 44 },
};
const merged43: AppliedCall = {
  seq: 2,
  connector: "github",
  method: "merge_pull_request",
  args: { repo: "acme/web", number: 43 },
};

describe("describeDenial", () => {
  it("names the rejected call and every call that had already run", () => {
    expect(describeDenial({ action, applied: [merged43], userReason: "not today" })).toBe(
      'The user rejected github.merge_pull_request({"repo":"acme/web","number":44}) (call 3 of execution e1). ' +
        "The program was stopped: that call did not run. Calls that had already run stay applied (they were not " +
        'undone): github.merge_pull_request({"repo":"acme/web","number":43}) (call 2). Reason given: not today',
    );
    expect(describeDenial({ action, applied: [], userReason: undefined })).toContain(
      "No call of this execution had taken effect before it.",
    );
  });

  it("stays bounded: at most 20 calls named, the rest counted, long arguments cut", () => {
    const many = Array.from({ length: 250 }, (_, index) => ({ ...merged43, seq: index + 1 }));
    const text = describeDenial({ action, applied: many, userReason: undefined });
    expect(text.match(/\(call \d+\)/g)).toHaveLength(MAX_LISTED_APPLIED_CALLS);
    expect(text).toContain(`, and ${250 - MAX_LISTED_APPLIED_CALLS} more.`);

    const huge = { ...action, args: { body: "x".repeat(100_000) } };
    const cut = describeDenial({ action: huge, applied: [{ ...merged43, args: huge.args }], userReason: undefined });
    expect(cut.length).toBeLessThan(3 * MAX_QUOTED_ARGS_CHARS);
    expect(cut).toContain("more characters cut]");
  });

  it("a rejected program says nothing ran, without quoting the code back", () => {
    const program: PendingAction = {
      executionId: "e2",
      seq: 0,
      connector: "codemode",
      method: "program",
      args: { code: 'async () => {\n  return "x";\n}' },
    };
    expect(describeDenial({ action: program, applied: [], userReason: "no" })).toBe(
      "The user rejected the program (execution e2) before it ran: nothing ran. Reason given: no",
    );
  });
});
