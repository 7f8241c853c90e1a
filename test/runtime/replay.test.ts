import { describe, expect, it } from "vitest";
import { createMockConnector } from "../../src/test/index.js";
import { memoryClient, testRuntime } from "./runtime-fixture.js";

function shop() {
  return createMockConnector("shop", {
    methods: {
      list: { result: (args: unknown) => ({ items: [1, 2, 3], asked: args }) },
      buy: { needsApproval: true, result: (args: unknown) => ({ bought: args }) },
      typed: {
        result: {
          when: new Date(5),
          tags: new Set(["a"]),
          map: new Map([["k", 1n]]),
          bytes: new Uint8Array([1, 2]),
          none: undefined,
        },
      },
      read: { replay: "reexecute", result: () => ({ at: Math.floor(Math.random() * 1e9) }) },
      fail: { fails: "upstream said no" },
    },
  });
}

describe("replay", () => {
  it("replays Math.random() and Date in arguments identically, so approval resumes without divergence", async () => {
    const connector = shop();
    const runtime = testRuntime({ connectors: { shop: connector } });
    const code =
      "async () => { const r = Math.random(); const t = Date.now(); await shop.list({ r, t }); return shop.buy({ r, t }); }";
    const first = await runtime.execute({ code });
    expect(first.status).toBe("paused");
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed.status).toBe("completed");
    expect(connector.ledger.count("shop.list")).toBe(1);
    expect(connector.ledger.count("shop.buy")).toBe(1);
    const [list] = connector.ledger.of("execute", "shop.list");
    const [buy] = connector.ledger.of("execute", "shop.buy");
    expect(buy?.args).toEqual(list?.args);
    expect((list!.args as { t: number }).t).toBe(runtime.clock.now());
  });

  it("returns recorded results as recorded, with their types", async () => {
    const connector = shop();
    const runtime = testRuntime({ connectors: { shop: connector } });
    const code = `async () => {
      const v = await shop.typed({});
      await shop.buy({});
      return { isDate: v.when instanceof Date, t: v.when.getTime(), set: v.tags instanceof Set, big: typeof v.map.get("k"), bytes: v.bytes instanceof Uint8Array, none: "none" in v && v.none === undefined };
    }`;
    const first = await runtime.execute({ code });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({
      status: "completed",
      result: { isDate: true, t: 5, set: true, big: "bigint", bytes: true, none: true },
    });
    expect(connector.ledger.count("shop.typed")).toBe(1);
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls[0]?.result).toEqual({
      when: new Date(5),
      tags: new Set(["a"]),
      map: new Map([["k", 1n]]),
      bytes: new Uint8Array([1, 2]),
      none: undefined,
    });
    expect(detail?.calls[0]?.replayedCount).toBe(1);
  });

  it("ends a changed program with divergence and runs nothing for the diverging call", async () => {
    const connector = shop();
    const client = memoryClient();
    const runtime = testRuntime({ connectors: { shop: connector }, store: client });
    const first = await runtime.execute({
      code: "async () => { await shop.list({ page: 1 }); return shop.buy({ item: 1 }); }",
    });
    expect(first.status).toBe("paused");
    // The program changed between passes (say, a redeploy rewrote it): it now buys item 2.
    await client.execute({
      sql: "UPDATE codemode_executions SET code = ? WHERE id = ?",
      args: ["async () => { await shop.list({ page: 1 }); return shop.buy({ item: 2 }); }", first.executionId],
    });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "error", kind: "divergence" });
    expect((resumed as { error: string }).error).toContain("call #2");
    expect(connector.ledger.count("shop.buy")).toBe(0);
    expect(connector.ledger.count("shop.list")).toBe(1);
    expect((await runtime.execution(first.executionId))?.status).toBe("error");
  });

  it("diverges when a reexecute read returns different data that flows into a later call", async () => {
    const connector = shop();
    const runtime = testRuntime({ connectors: { shop: connector } });
    const first = await runtime.execute({
      code: "async () => { const a = await shop.read({}); await shop.buy({}); return shop.list({ at: a.at }); }",
    });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed.status).toBe("completed");
    const second = await runtime.execute({
      code: "async () => { const a = await shop.read({}); await shop.list({ at: a.at }); return shop.buy({}); }",
    });
    const diverged = await runtime.approve({ executionId: second.executionId });
    expect(diverged).toMatchObject({ status: "error", kind: "divergence" });
    expect(connector.ledger.count("shop.buy")).toBe(1);
  });

  it("reexecute calls run again on every pass and are logged without a result", async () => {
    const connector = shop();
    const runtime = testRuntime({ connectors: { shop: connector } });
    const first = await runtime.execute({
      code: "async () => { const a = await shop.read({}); await shop.buy({}); return a; }",
    });
    await runtime.approve({ executionId: first.executionId });
    expect(connector.ledger.count("shop.read")).toBe(2);
    const detail = await runtime.execution(first.executionId);
    expect(detail?.calls[0]).toMatchObject({ replay: "reexecute", status: "applied" });
    expect(detail?.calls[0]).not.toHaveProperty("result");
  });

  it("replays a recorded connector failure as the same rejection without calling again", async () => {
    const connector = shop();
    const runtime = testRuntime({ connectors: { shop: connector } });
    const first = await runtime.execute({
      code: "async () => { let m; try { await shop.fail({}); } catch (e) { m = e.message; } await shop.buy({}); return m; }",
    });
    const resumed = await runtime.approve({ executionId: first.executionId });
    expect(resumed).toMatchObject({ status: "completed", result: "upstream said no" });
    expect(connector.ledger.count("shop.fail")).toBe(1);
  });
});
