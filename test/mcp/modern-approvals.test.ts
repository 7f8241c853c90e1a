/**
 * The secret 2026-07-28 request states are signed with: the links' secret when the server has one (every instance
 * shares it); else one random secret per runtime in this process, only where every round reaches this process;
 * else none (a stateless handler without links asks nothing, rather than give states another instance refuses).
 * A retry's decision is journaled as the owner's MCP client.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { createCodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { approvalStateSecret, decidedByOf, inputRequiredResult } from "../../src/mcp/modern-approvals.js";

function runtime() {
  const made = createCodemodeRuntime({ store: ":memory:" });
  onTestFinished(() => made.close());
  return made;
}

describe("the request state's secret", () => {
  it("is the links' secret when the server has approval links, sticky or not", () => {
    const links = { url: "https://app.example/codemode", secret: "l".repeat(32), ttlMs: 1000 };
    const one = runtime();
    expect(approvalStateSecret({ links, runtime: one, sticky: false })).toBe(links.secret);
    expect(approvalStateSecret({ links, runtime: one, sticky: true })).toBe(links.secret);
  });

  it("without links: one random secret per runtime for a sticky server, none for a stateless one", () => {
    const [one, two] = [runtime(), runtime()];
    const first = approvalStateSecret({ links: undefined, runtime: one, sticky: true });
    expect(first).toBeInstanceOf(Uint8Array);
    expect((first as Uint8Array).byteLength).toBe(32);
    expect(approvalStateSecret({ links: undefined, runtime: one, sticky: true })).toBe(first);
    expect(approvalStateSecret({ links: undefined, runtime: two, sticky: true })).not.toEqual(first);
    expect(approvalStateSecret({ links: undefined, runtime: one, sticky: false })).toBeUndefined();
  });
});

describe("the retry's side", () => {
  it("journals decisions as the owner's MCP client, cut to 200 characters", () => {
    expect(decidedByOf("ada")).toBe("mcp:ada");
    expect(decidedByOf(undefined)).toBe("mcp");
    expect(decidedByOf("x".repeat(200))).toHaveLength(200);
  });

  it("builds the SDK's input_required result", () => {
    const inputRequests = { approval: { method: "elicitation/create" as const, params: { mode: "form" } } };
    expect(inputRequiredResult({ inputRequests, requestState: "cmrs1.x.y" })).toEqual({
      resultType: "input_required",
      inputRequests,
      requestState: "cmrs1.x.y",
    });
  });
});
