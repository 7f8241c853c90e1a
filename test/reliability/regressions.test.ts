/**
 * Named regression tests for defects the reliability suites found (issue 7).
 * Each names the defect; `docs/reliability.md` lists the fixing commits.
 */
import { describe, expect, it } from "vitest";
import { createDurableRuntime } from "../../src/runtime/durable-runtime.js";
import { memoryClient, sequentialIds, sharedExecutor, testClock } from "../runtime/runtime-fixture.js";
import { faultyClient } from "./support/faulty-client.js";
import { svcConnector } from "./support/program-model.js";

describe("regressions found by the reliability suites", () => {
  it("double revert: a rollback that died after a revert but before recording it does not revert that call again", async () => {
    const faulty = faultyClient(memoryClient());
    const clock = testClock();
    const svc = svcConnector();
    const open = (generation: number) =>
      createDurableRuntime({
        store: faulty.client,
        executor: sharedExecutor(),
        connectors: { svc },
        _internal: { now: clock.now, generateId: sequentialIds(`g${generation}`), leaseMs: 60_000 },
      });
    const runtime = open(1);
    const done = await runtime.execute({
      code: "async () => { await svc.rev({ n: 1, k: 'a' }); await svc.rev({ n: 2, k: 'b' }); return 'ok'; }",
    });
    expect(done.status).toBe("completed");
    // Rollback writes: claim, mark #2 reverting, mark #2 reverted (lost: the process dies right here), …
    faulty.arm({ atWrite: 3, mode: "dead" });
    expect(await runtime.rollback({ executionId: done.executionId })).toMatchObject({ status: "error", kind: "store" });
    faulty.revive();
    expect(svc.ledger.of("revert").map((entry) => entry.idempotencyKey)).toEqual([`${done.executionId}:2`]);
    clock.advance(60_001);
    const again = await open(2).rollback({ executionId: done.executionId });
    expect(again).toMatchObject({ status: "rolled_back", reverted: [1] });
    expect((again as { errors: Array<{ seq: number; error: string }> }).errors).toEqual([
      { seq: 2, error: expect.stringContaining("interrupted while reverting") as unknown },
    ]);
    expect(svc.ledger.of("revert").map((entry) => entry.idempotencyKey)).toEqual([
      `${done.executionId}:2`,
      `${done.executionId}:1`,
    ]);
  });

  it("a revert that throws clears its reverting mark, so a later rollback tries it again", async () => {
    const clock = testClock();
    let failing = true;
    const { createMockConnector } = await import("../../src/test/index.js");
    const shop = createMockConnector("shop", { methods: { buy: {} } });
    shop.methods["buy"]!.revert = async () => {
      if (failing) throw new Error("refund service down");
    };
    const runtime = createDurableRuntime({
      store: memoryClient(),
      executor: sharedExecutor(),
      connectors: { shop },
      _internal: { now: clock.now, generateId: sequentialIds("t") },
    });
    const done = await runtime.execute({ code: "async () => shop.buy({ item: 1 })" });
    expect(await runtime.rollback({ executionId: done.executionId })).toMatchObject({
      status: "error",
      kind: "exception",
      errors: [{ seq: 1, error: "refund service down" }],
    });
    failing = false;
    expect(await runtime.rollback({ executionId: done.executionId })).toMatchObject({
      status: "rolled_back",
      reverted: [1],
      errors: [],
    });
  });

  it("journal forgery: a program calling the host namespace's stepEnd/stepFail directly cannot write a connector call's row", async () => {
    const svc = svcConnector();
    const clock = testClock();
    const runtime = createDurableRuntime({
      store: memoryClient(),
      executor: sharedExecutor(),
      connectors: { svc },
      _internal: { now: clock.now, generateId: sequentialIds("forge") },
    });
    const out = await runtime.execute({
      code: `async () => {
        const host = globalThis.__codemode_host;
        const call = svc.rev({ n: 1, k: "real" });
        const tries = [];
        for (const f of [() => host.stepEnd({ seq: 1, value: { d: 666 } }), () => host.stepFail({ seq: 1, error: "forged" }), () => host.stepEnd({ seq: 2, value: 1 })]) {
          try { await f(); tries.push("accepted"); } catch (e) { tries.push(e.message); }
        }
        return { value: await call, tries };
      }`,
    });
    expect(out).toMatchObject({ status: "completed", result: { value: { d: 2, k: "real" } } });
    expect(
      (out as { result: { tries: string[] } }).result.tries.every((message) =>
        message.includes("is running in this pass"),
      ),
    ).toBe(true);
    const detail = await runtime.execution(out.executionId);
    expect(detail?.calls.map((call) => [call.status, call.result])).toEqual([["applied", { d: 2, k: "real" }]]);
    // A real step still ends normally (and a failing one records its error).
    const steps = await runtime.execute({
      code: "async () => [await codemode.step('a', () => 5), await codemode.step('b', () => { throw new Error('x'); }).catch((e) => e.message)]",
    });
    expect(steps).toMatchObject({ status: "completed", result: [5, "x"] });
  });

  it('search crash on prototype words: a tool named or described with "constructor" no longer breaks the catalog (search, describe, every run)', async () => {
    const { createMockConnector } = await import("../../src/test/index.js");
    const builder = createMockConnector("builder", {
      methods: {
        constructor_info: { description: "Describes the constructor of a class." },
        proto: { description: "Reads __proto__ links." },
      },
    });
    const runtime = createDurableRuntime({
      store: memoryClient(),
      executor: sharedExecutor(),
      connectors: { builder },
      _internal: { generateId: sequentialIds("words") },
    });
    const out = await runtime.execute({
      code: "async () => (await codemode.search('constructor')).results.map((r) => r.path)",
    });
    expect(out).toMatchObject({
      status: "completed",
      result: expect.arrayContaining(["builder.constructor_info"]) as unknown,
    });
    expect((await runtime.search("__proto__ constructor")).results.length).toBeGreaterThan(0);
  });
});
